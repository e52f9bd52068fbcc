#include "engine/gguf/iq_grids.h"

#include <cstddef>

namespace octo::iq {

namespace {

#include "engine/gguf/iq_grid_sets.inc"

// Expands a point set: the points whose bit is set, in increasing code order, into out[count][kN].
template <class T, size_t kN, size_t kLevels>
constexpr int expand(const uint8_t* bitmap, int n_codes, const T (&levels)[kLevels], T (*out)[kN], int capacity) {
    int count = 0;
    for (int code = 0; code < n_codes; ++code) {
        if (((bitmap[code / 8] >> (code % 8)) & 1) == 0) continue;
        if (count == capacity) return -1;
        int rest = code;
        for (size_t k = 0; k < kN; ++k) {
            out[count][k] = levels[rest % static_cast<int>(kLevels)];
            rest /= static_cast<int>(kLevels);
        }
        ++count;
    }
    return count;
}

constexpr uint8_t kIq2Levels[3] = {8, 25, 43};
constexpr uint8_t kIq3xxsLevels[8] = {4, 12, 20, 28, 36, 44, 52, 62};
constexpr uint8_t kIq3sLevels[8] = {1, 3, 5, 7, 9, 11, 13, 15};
constexpr int8_t kIq1Levels[3] = {-1, 0, 1};

constexpr Grids build() {
    Grids g{};
    // each set holds exactly as many points as its table has rows (checked at compile time)
    const bool whole = expand(kIq2xxsPoints, 6561, kIq2Levels, g.iq2xxs, 256) == 256 &&
                       expand(kIq2xsPoints, 6561, kIq2Levels, g.iq2xs, 512) == 512 &&
                       expand(kIq2sPoints, 6561, kIq2Levels, g.iq2s, 1024) == 1024 &&
                       expand(kIq3xxsPoints, 4096, kIq3xxsLevels, g.iq3xxs, 256) == 256 &&
                       expand(kIq3sPoints, 4096, kIq3sLevels, g.iq3s, 512) == 512 &&
                       expand(kIq1sPoints, 6561, kIq1Levels, g.iq1s, 2048) == 2048;
    if (!whole) throw "an IQ point set does not hold its grid's number of points";
    return g;
}

constexpr Grids kGrids = build();

} // namespace

const Grids& grids() { return kGrids; }

} // namespace octo::iq
