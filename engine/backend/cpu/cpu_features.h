// Which instruction-set path the CPU kernels take. The build targets baseline x86-64; the AVX2 and
// AVX-512 kernels are compiled with function target attributes and only called when the CPU has them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace octo {

// Float kernels (exact precision, F32/F16/BF16 weights) come in scalar, AVX2 and AVX-512 forms;
// integer kernels (reference precision, quantised weights; quant_matmul.h) in scalar, AVX2
// (u8 × i8 multiply-add), AVX-VNNI and AVX-512 VNNI forms. A path names one of each.
enum class CpuPath {
    Scalar,     // plain C++ reference kernels (dequantise a block, then multiply)
    Avx2,       // AVX2 + FMA + F16C
    Avx512,     // AVX-512F on top of AVX2 (the AVX2 decoders, 16-lane multiply-adds); AVX2 integer kernels
    AvxVnni,    // AVX2 float kernels; integer kernels with the AVX-VNNI dot product (256-bit)
    Avx512Vnni, // AVX-512 float kernels; integer kernels with AVX-512 VNNI (+BW, VL)
};

// Every path, slowest first.
inline constexpr CpuPath kCpuPaths[] = {CpuPath::Scalar, CpuPath::Avx2, CpuPath::Avx512, CpuPath::AvxVnni,
                                        CpuPath::Avx512Vnni};

// On a function of plain C++: one clone per instruction level, picked once at load time from the CPU
// (AVX2 + FMA where it has them) — the same loops, vectorised, with std::fma an instruction there
// instead of a library call. Only for code whose every float step is written out (std::fma where
// it fuses), so that every clone computes the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define OCTO_FMA_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define OCTO_FMA_CLONES
#endif

// The fastest path this CPU supports.
CpuPath best_cpu_path();
bool cpu_supports(CpuPath path);
// cpu_supports(CpuPath::Avx2), asked once: for helpers with an AVX2 form outside the kernel paths.
bool cpu_has_avx2();

std::string_view cpu_path_name(CpuPath path);
std::optional<CpuPath> parse_cpu_path(std::string_view name); // "scalar", "avx2", "avx512", "avxvnni", "avx512vnni"

// The processor's name as the OS reports it ("AMD EPYC 7B13"), or nullopt when it reports none.
// The one place the name is read: the CLI, captures and the workbench's system information.
std::optional<std::string> known_cpu_model_name();
// The same, "unknown CPU" when it is not known.
std::string cpu_model_name();

} // namespace octo
