// measure_int8_peak: a figure only for the SIMD paths this CPU has, the products counted as the
// path's instruction does them, and more threads never measured as fewer products.
#include <gtest/gtest.h>

#include "engine/backend/cpu/int8_peak.h"

namespace octo {
namespace {

TEST(Int8Peak, OnlySimdPathsThisCpuHas) {
    EXPECT_FALSE(measure_int8_peak(CpuPath::Scalar, 1, 1, 0.01).has_value());
    for (CpuPath path : kCpuPaths) {
        if (path == CpuPath::Scalar) continue;
        const auto peak = measure_int8_peak(path, 1, 1, 0.01);
        EXPECT_EQ(peak.has_value(), cpu_supports(path)) << cpu_path_name(path);
        if (!peak) continue;
        EXPECT_EQ(peak->threads, 1);
        EXPECT_DOUBLE_EQ(peak->gops, 2.0 * peak->gmacs);
        // every x86 SIMD path completes at least 8 products a nanosecond on one thread (a 32-wide
        // multiply-add every 4 cycles at 1 GHz), and no core does 1,000
        EXPECT_GT(peak->gmacs, 8.0) << cpu_path_name(path);
        EXPECT_LT(peak->gmacs, 1000.0) << cpu_path_name(path);
    }
    EXPECT_FALSE(measure_int8_peak(best_cpu_path(), 0).has_value()); // no threads
}

} // namespace
} // namespace octo
