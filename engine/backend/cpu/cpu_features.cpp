#include "engine/backend/cpu/cpu_features.h"

#include <fstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace octo {

namespace {

#if defined(__x86_64__) || defined(__i386__)
// CPUID leaf 1, ECX bit 29 (not every compiler's __builtin_cpu_supports knows "f16c").
bool has_f16c() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
}
#endif

} // namespace

bool cpu_supports(CpuPath path) {
    switch (path) {
    case CpuPath::Scalar: return true;
    case CpuPath::Avx2:
#if defined(__x86_64__) || defined(__i386__)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && has_f16c();
#else
        return false;
#endif
    case CpuPath::Avx512:
#if defined(__x86_64__) || defined(__i386__)
        return cpu_supports(CpuPath::Avx2) && __builtin_cpu_supports("avx512f");
#else
        return false;
#endif
    }
    return false;
}

CpuPath best_cpu_path() {
    for (CpuPath path : {CpuPath::Avx512, CpuPath::Avx2}) {
        if (cpu_supports(path)) return path;
    }
    return CpuPath::Scalar;
}

std::string_view cpu_path_name(CpuPath path) {
    switch (path) {
    case CpuPath::Scalar: return "scalar";
    case CpuPath::Avx2: return "avx2";
    case CpuPath::Avx512: return "avx512";
    }
    return "?";
}

std::optional<CpuPath> parse_cpu_path(std::string_view name) {
    if (name == "scalar") return CpuPath::Scalar;
    if (name == "avx2") return CpuPath::Avx2;
    if (name == "avx512") return CpuPath::Avx512;
    return std::nullopt;
}

std::string cpu_model_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) != 0) continue;
        const size_t colon = line.find(':');
        if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
    return "unknown CPU";
}

} // namespace octo
