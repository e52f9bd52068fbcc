// The CUDA backend under test for the GPU parity suites: the octoscope-cuda module found as the
// application finds it ($OCTOSCOPE_CUDA_MODULE, else <exe dir>/../lib/octoscope/). Tests skip
// with the loader's reason when no GPU is usable. In CI (no GPU) the suites run against the
// fake host module (tests/cuda_fake), which checks the harness itself, never the kernels.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "engine/backend/backend.h"
#include "engine/backend/cpu/cpu_backend.h"

namespace octo::test {

// The CUDA backend, or null with `reason` set (the caller skips).
std::unique_ptr<Backend> make_cuda_backend(std::string& reason);

// Single-threaded CPU reference backend.
std::unique_ptr<Backend> make_cpu_backend();

#define OCTO_CUDA_OR_SKIP(var)                                                              \
    std::string var##_reason;                                                               \
    auto var = ::octo::test::make_cuda_backend(var##_reason);                               \
    if (!var) GTEST_SKIP() << "no usable CUDA backend: " << var##_reason

// The weight types the CUDA kernels decode (kernels/quant_decode.cuh): the parity suites run
// these; every other supported type (the low-bit ones) must be refused with a sentence.
inline std::vector<TensorType> cuda_weight_types() {
    return {TensorType::F32,  TensorType::F16,  TensorType::BF16, TensorType::Q4_0, TensorType::Q4_1, TensorType::Q5_0,
            TensorType::Q5_1, TensorType::Q8_0, TensorType::Q4_K, TensorType::Q5_K, TensorType::Q6_K};
}

// Host floats in a new buffer of `b`.
std::unique_ptr<DeviceBuffer> upload(Backend& b, std::span<const float> host);
// All of `buf` back on the host.
std::vector<float> download(Backend& b, DeviceBuffer& buf);

} // namespace octo::test
