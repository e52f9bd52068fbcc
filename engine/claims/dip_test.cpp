#include "engine/claims/dip_test.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "engine/sampling/prng.h"

namespace octo {

namespace {

// The indices (into xs/ys, within [lo, hi]) of the lower convex hull (convex minorant) or the
// upper concave hull (concave majorant) of the points (xs[i], ys[i]), xs strictly increasing.
std::vector<size_t> hull(const std::vector<double>& xs, const std::vector<double>& ys, size_t lo, size_t hi, bool lower) {
    std::vector<size_t> h;
    for (size_t i = lo; i <= hi; ++i) {
        while (h.size() >= 2) {
            const size_t a = h[h.size() - 2], b = h.back();
            const double cross = (xs[b] - xs[a]) * (ys[i] - ys[a]) - (ys[b] - ys[a]) * (xs[i] - xs[a]);
            if (lower ? cross <= 0.0 : cross >= 0.0) h.pop_back();
            else break;
        }
        h.push_back(i);
    }
    return h;
}

// The hull's piecewise-linear value at every index of [lo, hi] (offset by lo).
std::vector<double> hull_values(const std::vector<double>& xs, const std::vector<double>& ys, const std::vector<size_t>& h,
                                size_t lo, size_t hi) {
    std::vector<double> out(hi - lo + 1);
    size_t seg = 0;
    for (size_t i = lo; i <= hi; ++i) {
        while (seg + 1 < h.size() - 1 && xs[h[seg + 1]] < xs[i]) ++seg;
        if (h.size() == 1) {
            out[i - lo] = ys[h[0]];
            continue;
        }
        const size_t a = h[seg], b = h[seg + 1];
        out[i - lo] = ys[a] + (ys[b] - ys[a]) * (xs[i] - xs[a]) / (xs[b] - xs[a]);
    }
    return out;
}

} // namespace

double hartigan_dip(std::span<const double> sample) {
    std::vector<double> x(sample.begin(), sample.end());
    std::sort(x.begin(), x.end());
    const size_t n = x.size();
    // The empirical distribution in counts at each distinct value: `left` before it, `right` after it.
    std::vector<double> v, left, right;
    for (size_t i = 0; i < n; ++i) {
        if (!v.empty() && v.back() == x[i]) {
            right.back() = static_cast<double>(i + 1);
        } else {
            v.push_back(x[i]);
            left.push_back(static_cast<double>(i));
            right.push_back(static_cast<double>(i + 1));
        }
    }
    if (v.size() < 2) return 0.0;
    size_t low = 0, high = v.size() - 1;
    double dip = 1.0; // in counts; every jump of one observation is a distance of at least 1
    for (;;) {
        const std::vector<size_t> g = hull(v, left, low, high, true);   // convex minorant of the lower corners
        const std::vector<size_t> l = hull(v, right, low, high, false); // concave majorant of the upper corners
        const std::vector<double> gv = hull_values(v, left, g, low, high), lv = hull_values(v, right, l, low, high);
        // The widest gap between the two hulls, at a vertex of either.
        double gap = -1.0;
        size_t at = low;
        bool at_minorant = true;
        for (const size_t i : g) {
            if (const double d = lv[i - low] - left[i]; d > gap) {
                gap = d;
                at = i;
                at_minorant = true;
            }
        }
        for (const size_t i : l) {
            if (const double d = right[i] - gv[i - low]; d > gap) {
                gap = d;
                at = i;
                at_minorant = false;
            }
        }
        if (gap <= dip) break;
        // The modal interval shrinks to the widest gap's vertex and the other hull's next vertex.
        size_t lo2 = low, hi2 = high;
        if (at_minorant) {
            lo2 = at;
            hi2 = *std::find_if(l.begin(), l.end(), [&](size_t j) { return j >= at; });
        } else {
            hi2 = at;
            lo2 = *std::find_if(g.rbegin(), g.rend(), [&](size_t j) { return j <= at; });
        }
        // What falls outside it must be fitted by the convex part (left) and the concave part (right).
        for (size_t i = low; i <= lo2; ++i) dip = std::max(dip, right[i] - gv[i - low]);
        for (size_t i = hi2; i <= high; ++i) dip = std::max(dip, lv[i - low] - left[i]);
        if (lo2 == low && hi2 == high) break;
        low = lo2;
        high = hi2;
    }
    return dip / (2.0 * static_cast<double>(n));
}

namespace {

// The sorted dips of `simulations` uniform samples of size n, memoised.
const std::vector<double>& uniform_dips(int64_t n, int simulations, uint64_t seed) {
    static std::mutex mutex;
    static std::map<std::tuple<int64_t, int, uint64_t>, std::vector<double>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto& dips = cache[{n, simulations, seed}];
    if (dips.empty() && n > 0 && simulations > 0) {
        uint64_t state = seed ^ (static_cast<uint64_t>(n) * 0x9e3779b97f4a7c15ULL);
        std::vector<double> sample(static_cast<size_t>(n));
        for (int s = 0; s < simulations; ++s) {
            for (double& u : sample) u = static_cast<double>(splitmix64_next(state) >> 11) * 0x1.0p-53;
            dips.push_back(hartigan_dip(sample));
        }
        std::sort(dips.begin(), dips.end());
    }
    return dips;
}

} // namespace

double uniform_dip_quantile(int64_t n, double q, int simulations, uint64_t seed) {
    const std::vector<double>& dips = uniform_dips(n, simulations, seed);
    if (dips.empty()) return 0.0;
    const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(dips.size() - 1);
    const auto i = static_cast<size_t>(pos);
    const double frac = pos - static_cast<double>(i);
    return i + 1 < dips.size() ? dips[i] * (1.0 - frac) + dips[i + 1] * frac : dips[i];
}

double dip_p_value(double dip, int64_t n, int simulations, uint64_t seed) {
    const std::vector<double>& dips = uniform_dips(n, simulations, seed);
    const auto at_least = static_cast<double>(dips.end() - std::lower_bound(dips.begin(), dips.end(), dip));
    return (at_least + 1.0) / (static_cast<double>(dips.size()) + 1.0);
}

} // namespace octo
