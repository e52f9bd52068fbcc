// The portable pseudo-random generator behind seeded sampling: xoshiro256** 1.0
// (Blackman & Vigna), its 256-bit state filled by four successive outputs of
// splitmix64 started at the seed. Integer-only, so a seed gives the same sequence on
// every platform, compiler and build.
#pragma once

#include <array>
#include <cstdint>

namespace octo {

// One splitmix64 step: advances `state` by 0x9E3779B97F4A7C15 and returns the mixed value.
uint64_t splitmix64_next(uint64_t& state);

class Xoshiro256 {
public:
    explicit Xoshiro256(uint64_t seed);

    uint64_t next();
    // Uniform in [0, 1): the top 53 bits of next() times 2^-53.
    double next_unit();

private:
    std::array<uint64_t, 4> s_;
};

} // namespace octo
