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

// CPUID leaf 7 sub-leaf 1, EAX bit 4 (AVX-VNNI, the VEX-encoded 256-bit dot products).
bool has_avx_vnni() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) && (eax & (1u << 4)) != 0;
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
    case CpuPath::AvxVnni:
#if defined(__x86_64__) || defined(__i386__)
        return cpu_supports(CpuPath::Avx2) && has_avx_vnni();
#else
        return false;
#endif
    case CpuPath::Avx512Vnni:
#if defined(__x86_64__) || defined(__i386__)
        return cpu_supports(CpuPath::Avx512) && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
#else
        return false;
#endif
    }
    return false;
}

CpuPath best_cpu_path() {
    for (CpuPath path : {CpuPath::Avx512Vnni, CpuPath::Avx512, CpuPath::AvxVnni, CpuPath::Avx2}) {
        if (cpu_supports(path)) return path;
    }
    return CpuPath::Scalar;
}

std::string_view cpu_path_name(CpuPath path) {
    switch (path) {
    case CpuPath::Scalar: return "scalar";
    case CpuPath::Avx2: return "avx2";
    case CpuPath::Avx512: return "avx512";
    case CpuPath::AvxVnni: return "avxvnni";
    case CpuPath::Avx512Vnni: return "avx512vnni";
    }
    return "?";
}

std::optional<CpuPath> parse_cpu_path(std::string_view name) {
    if (name == "scalar") return CpuPath::Scalar;
    if (name == "avx2") return CpuPath::Avx2;
    if (name == "avx512") return CpuPath::Avx512;
    if (name == "avxvnni") return CpuPath::AvxVnni;
    if (name == "avx512vnni") return CpuPath::Avx512Vnni;
    return std::nullopt;
}

std::optional<std::string> known_cpu_model_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) != 0) continue;
        const size_t colon = line.find(':');
        if (colon != std::string::npos && colon + 2 < line.size()) return line.substr(colon + 2);
    }
    return std::nullopt;
}

std::string cpu_model_name() { return known_cpu_model_name().value_or("unknown CPU"); }

bool cpu_has_avx2() {
    static const bool yes = cpu_supports(CpuPath::Avx2);
    return yes;
}

} // namespace octo
