// Which kernel paths this CPU can take: the path names read back, the best path is one the CPU
// supports and every slower one it implies is too, and the CPU's name is read once, the same way.
#include <gtest/gtest.h>

#include <string>

#include "engine/backend/cpu/cpu_features.h"

namespace octo {
namespace {

TEST(CpuFeatures, PathNamesReadBack) {
    EXPECT_EQ(cpu_path_name(CpuPath::Scalar), "scalar");
    EXPECT_EQ(cpu_path_name(CpuPath::Avx2), "avx2");
    EXPECT_EQ(cpu_path_name(CpuPath::Avx512), "avx512");
    EXPECT_EQ(cpu_path_name(CpuPath::AvxVnni), "avxvnni");
    EXPECT_EQ(cpu_path_name(CpuPath::Avx512Vnni), "avx512vnni");
    for (CpuPath path : kCpuPaths) EXPECT_EQ(parse_cpu_path(cpu_path_name(path)), path);
    EXPECT_FALSE(parse_cpu_path("AVX2"));
    EXPECT_FALSE(parse_cpu_path("neon"));
}

TEST(CpuFeatures, TheBestPathIsSupportedAndImpliesTheSlowerOnes) {
    EXPECT_TRUE(cpu_supports(CpuPath::Scalar));
    const CpuPath best = best_cpu_path();
    EXPECT_TRUE(cpu_supports(best)) << cpu_path_name(best);
    EXPECT_EQ(cpu_has_avx2(), cpu_supports(CpuPath::Avx2));
    if (cpu_supports(CpuPath::Avx512) || cpu_supports(CpuPath::AvxVnni) || cpu_supports(CpuPath::Avx512Vnni)) {
        EXPECT_TRUE(cpu_supports(CpuPath::Avx2)) << "every faster path runs the AVX2 kernels too";
    }
    if (cpu_supports(CpuPath::Avx512Vnni)) {
        EXPECT_TRUE(cpu_supports(CpuPath::Avx512));
    }
}

TEST(CpuFeatures, TheNameIsTheKnownOneOrSaysUnknown) {
    const auto known = known_cpu_model_name();
    EXPECT_EQ(cpu_model_name(), known ? *known : std::string("unknown CPU"));
    if (known) {
        EXPECT_FALSE(known->empty());
    }
}

} // namespace
} // namespace octo
