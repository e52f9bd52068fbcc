// Which instruction-set path the CPU kernels take. The build targets baseline x86-64; the AVX2 and
// AVX-512 kernels are compiled with function target attributes and only called when the CPU has them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace octo {

enum class CpuPath {
    Scalar, // plain C++ reference kernels (dequantise a block, then multiply)
    Avx2,   // AVX2 + FMA + F16C
    Avx512, // AVX-512F on top of AVX2 (the AVX2 decoders, 16-lane multiply-adds)
};

// The fastest path this CPU supports.
CpuPath best_cpu_path();
bool cpu_supports(CpuPath path);

std::string_view cpu_path_name(CpuPath path);
std::optional<CpuPath> parse_cpu_path(std::string_view name); // "scalar", "avx2", "avx512"

// The processor's name as the OS reports it ("AMD EPYC 7B13"), or "unknown CPU".
std::string cpu_model_name();

} // namespace octo
