// The CPU's int8 multiply-add peak on one kernel path: how many 8-bit products (each with its add)
// the path's integer instruction completes per second on every thread at once, with nothing but
// that instruction in flight. The integer kernels of the path (quant_matmul.h) are measured
// against it (`bench`: prefill_fraction_of_int8_peak).
//   avx512vnni: 512-bit vpdpbusd (64 products each)      avxvnni: 256-bit vpdpbusd (32)
//   avx2, avx512: vpmaddubsw + vpmaddwd + vpaddd (32 products per three instructions, the
//   integer kernels' step on those paths)                 scalar: no figure
// Each thread runs 16 independent accumulators over activations read from a small buffer in L1
// (as the kernels read them), so neither latency nor memory limits it.
#pragma once

#include <optional>

#include "engine/backend/cpu/cpu_features.h"

namespace octo {

struct Int8Peak {
    double gops = 0.0;     // 1e9 integer operations per second, a multiply and an add counted apart
    double gmacs = 0.0;    // 1e9 products (with their adds) per second = gops / 2
    int threads = 0;
};

// The best of `passes` timed passes of about `seconds_per_pass` each; nullopt on the scalar path
// and on paths this CPU lacks.
std::optional<Int8Peak> measure_int8_peak(CpuPath path, int threads, int passes = 3, double seconds_per_pass = 0.1);

} // namespace octo
