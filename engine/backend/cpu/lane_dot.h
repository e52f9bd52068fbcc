// a·b over n floats with eight interleaved partial sums (lane i % 8) added pairwise at the end: a
// fixed order the compiler can keep in vector registers on any x86-64 (attention's exact path,
// head_matmul). Internal to engine/backend/cpu; inline, so a caller compiled with FMA clones gets
// its own copy.
#pragma once

#include <cstdint>

namespace octo {

inline float lane8_dot(const float* a, const float* b, int64_t n) {
    float lanes[8] = {};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int l = 0; l < 8; ++l) lanes[l] += a[i + l] * b[i + l];
    }
    for (; i < n; ++i) lanes[i % 8] += a[i] * b[i];
    return ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5])) + ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]));
}

} // namespace octo
