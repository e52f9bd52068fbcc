// Normally distributed test values, the same for the same seed.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace octo::test {

inline std::vector<float> random_floats(size_t n, float scale, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

} // namespace octo::test
