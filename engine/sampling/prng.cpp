#include "engine/sampling/prng.h"

#include <bit>

namespace octo {

uint64_t splitmix64_next(uint64_t& state) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

Xoshiro256::Xoshiro256(uint64_t seed) {
    for (uint64_t& word : s_) word = splitmix64_next(seed);
}

uint64_t Xoshiro256::next() {
    const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
}

double Xoshiro256::next_unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

} // namespace octo
