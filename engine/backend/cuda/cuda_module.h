// Finding and opening the octoscope-cuda module (kernels/octo_cuda_api.h) at run time.
// The engine never links CUDA: when the module, the CUDA driver or a GPU is missing,
// probe_cuda() says why, and callers use the CPU backend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace octo {

struct CudaDevice {
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    uint64_t total_memory = 0; // bytes
    uint64_t free_memory = 0;  // bytes
};

struct CudaProbe {
    bool available = false;
    std::string module_path;        // the module file tried (empty when none was found)
    std::string reason;             // why CUDA is unavailable (empty when available)
    std::vector<CudaDevice> devices;
};

// Where the module is looked for: $OCTOSCOPE_CUDA_MODULE, else
// <exe dir>/../lib/octoscope/liboctoscope-cuda.so (the build tree and installs alike).
std::string cuda_module_path();

// Loads the module and lists the devices. Never fails: unavailability is a reason.
CudaProbe probe_cuda();

} // namespace octo
