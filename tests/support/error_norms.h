// Error measures for comparing a computed vector with a reference one.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <span>
#include <vector>

namespace octo::test {

// ‖got − want‖₂ / ‖want‖₂, accumulated in double.
template <class Got, class Want>
double relative_l2(const std::vector<Got>& got, const std::vector<Want>& want) {
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < want.size(); ++i) {
        const double d = static_cast<double>(got[i]) - static_cast<double>(want[i]);
        num += d * d;
        den += static_cast<double>(want[i]) * static_cast<double>(want[i]);
    }
    return std::sqrt(num / den);
}

// Same length and the same bits (no tolerance: determinism and reuse checks).
inline bool bit_identical(std::span<const float> a, std::span<const float> b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

} // namespace octo::test
