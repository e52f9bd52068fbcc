#include "engine/claims/exact_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace octo {

namespace {

// The continued fraction of I_x(a, b) (modified Lentz), which converges fast for x < (a+1)/(a+b+2).
double beta_continued_fraction(double a, double b, double x) {
    constexpr double kTiny = 1e-300;
    auto guard = [](double v) { return std::fabs(v) < kTiny ? kTiny : v; };
    double c = 1.0;
    double d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    double h = d;
    for (int m = 1; m <= 2000; ++m) {
        const double md = m;
        const double even = md * (b - md) * x / ((a + 2.0 * md - 1.0) * (a + 2.0 * md));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        h *= d * c;
        const double odd = -(a + md) * (a + b + md) * x / ((a + 2.0 * md) * (a + 2.0 * md + 1.0));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        const double step = d * c;
        h *= step;
        if (std::fabs(step - 1.0) < 1e-16) break;
    }
    return h;
}

// The x in [lo, hi] where the increasing function f reaches `target` (bisection to the last bit).
template <class F>
double solve_increasing(F f, double target, double lo, double hi) {
    for (int i = 0; i < 200 && hi - lo > 0.0; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (f(mid) < target) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

double z_of(double alpha) { return normal_quantile(1.0 - alpha / 2.0); }

} // namespace

double regularized_incomplete_beta(double a, double b, double x) {
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
    if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
    return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, 1.0 - x) / b;
}

double beta_quantile(double p, double a, double b) {
    if (p <= 0.0) return 0.0;
    if (p >= 1.0) return 1.0;
    return solve_increasing([&](double x) { return regularized_incomplete_beta(a, b, x); }, p, 0.0, 1.0);
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double normal_quantile(double p) {
    if (p <= 0.0) return -INFINITY;
    if (p >= 1.0) return INFINITY;
    return solve_increasing(normal_cdf, p, -40.0, 40.0);
}

double student_t_quantile(double p, double df) {
    if (p <= 0.0) return -INFINITY;
    if (p >= 1.0) return INFINITY;
    if (p < 0.5) return -student_t_quantile(1.0 - p, df);
    auto cdf = [df](double t) { return 1.0 - 0.5 * regularized_incomplete_beta(df / 2.0, 0.5, df / (df + t * t)); };
    double hi = 1.0;
    while (cdf(hi) < p && hi < 1e12) hi *= 2.0;
    return solve_increasing(cdf, p, 0.0, hi);
}

Interval wilson_interval(int64_t k, int64_t n, double alpha) {
    if (n <= 0) return {0.0, 1.0};
    const double z = z_of(alpha);
    const double nn = static_cast<double>(n);
    const double kk = static_cast<double>(std::clamp<int64_t>(k, 0, n));
    const double centre = (kk + z * z / 2.0) / (nn + z * z);
    const double half = z / (nn + z * z) * std::sqrt(kk * (nn - kk) / nn + z * z / 4.0);
    return {k <= 0 ? 0.0 : std::max(0.0, centre - half), k >= n ? 1.0 : std::min(1.0, centre + half)};
}

Interval clopper_pearson_interval(int64_t k, int64_t n, double alpha) {
    if (n <= 0) return {0.0, 1.0};
    k = std::clamp<int64_t>(k, 0, n);
    const double kk = static_cast<double>(k);
    const double nn = static_cast<double>(n);
    return {k == 0 ? 0.0 : beta_quantile(alpha / 2.0, kk, nn - kk + 1.0),
            k == n ? 1.0 : beta_quantile(1.0 - alpha / 2.0, kk + 1.0, nn - kk)};
}

double PairedCounts::p_a() const { return n() > 0 ? static_cast<double>(both + only_a) / static_cast<double>(n()) : 0.0; }
double PairedCounts::p_b() const { return n() > 0 ? static_cast<double>(both + only_b) / static_cast<double>(n()) : 0.0; }

Interval newcombe_paired_interval(const PairedCounts& c, double alpha) {
    const int64_t n = c.n();
    if (n <= 0) return {-1.0, 1.0};
    const double pa = c.p_a();
    const double pb = c.p_b();
    const Interval wa = wilson_interval(c.both + c.only_a, n, alpha);
    const Interval wb = wilson_interval(c.both + c.only_b, n, alpha);
    // φ, the correlation of the two margins, with Newcombe's adjustment of the cross product.
    double phi = 0.0;
    const double margins = static_cast<double>(c.both + c.only_a) * static_cast<double>(c.only_b + c.neither) *
                           static_cast<double>(c.both + c.only_b) * static_cast<double>(c.only_a + c.neither);
    if (margins > 0.0) {
        const double cross = static_cast<double>(c.both) * static_cast<double>(c.neither) -
                             static_cast<double>(c.only_a) * static_cast<double>(c.only_b);
        const double half_n = static_cast<double>(n) / 2.0;
        phi = cross > half_n ? (cross - half_n) / std::sqrt(margins) : cross >= 0.0 ? 0.0 : cross / std::sqrt(margins);
    }
    const double d = pb - pa;
    const double below_b = pb - wb.lo, above_a = wa.hi - pa;
    const double above_b = wb.hi - pb, below_a = pa - wa.lo;
    const double lo = d - std::sqrt(std::max(0.0, below_b * below_b + above_a * above_a - 2.0 * phi * below_b * above_a));
    const double hi = d + std::sqrt(std::max(0.0, above_b * above_b + below_a * below_a - 2.0 * phi * above_b * below_a));
    return {std::max(-1.0, lo), std::min(1.0, hi)};
}

Interval paired_ratio_interval(int64_t both, int64_t only_1, int64_t only_2, double alpha) {
    const double n_star = static_cast<double>(both + only_1 + only_2);
    if (n_star <= 0.0) return {0.0, std::numeric_limits<double>::infinity()};
    const double m1 = static_cast<double>(both + only_1); // units with the event under condition 1
    const double m2 = static_cast<double>(both + only_2);
    // z scaled so that the two margins' intervals combine to the log ratio's paired variance.
    const double a = std::sqrt((static_cast<double>(only_1 + only_2) + 2.0) / ((m1 + 1.0) * (m2 + 1.0)));
    const double b = std::sqrt((1.0 - (m1 + 1.0) / (n_star + 2.0)) / (m1 + 1.0));
    const double c = std::sqrt((1.0 - (m2 + 1.0) / (n_star + 2.0)) / (m2 + 1.0));
    const double z = a / (b + c) * z_of(alpha);
    auto wilson = [&](double k) -> Interval {
        const double half = z * std::sqrt(z * z + 4.0 * k * (1.0 - k / n_star));
        return {(2.0 * k + z * z - half) / (2.0 * (n_star + z * z)), (2.0 * k + z * z + half) / (2.0 * (n_star + z * z))};
    };
    const Interval w1 = wilson(m1);
    const Interval w2 = wilson(m2);
    return {w1.lo / w2.hi, w2.lo > 0.0 ? w1.hi / w2.lo : std::numeric_limits<double>::infinity()};
}

double mcnemar_exact_p(int64_t only_a, int64_t only_b) {
    const int64_t m = only_a + only_b;
    if (m <= 0) return 1.0;
    const int64_t k = std::min(only_a, only_b);
    // P(X ≤ k) for X ~ Binomial(m, ½), summed in logs.
    const double log_half_m = -static_cast<double>(m) * std::log(2.0);
    const double lg_m1 = std::lgamma(static_cast<double>(m) + 1.0);
    double tail = 0.0;
    for (int64_t i = 0; i <= k; ++i) {
        tail += std::exp(lg_m1 - std::lgamma(static_cast<double>(i) + 1.0) - std::lgamma(static_cast<double>(m - i) + 1.0) + log_half_m);
    }
    return std::min(1.0, 2.0 * tail);
}

Interval mover_difference(double theta1, const Interval& ci1, double theta2, const Interval& ci2) {
    const double d = theta1 - theta2;
    return {d - std::hypot(theta1 - ci1.lo, ci2.hi - theta2), d + std::hypot(ci1.hi - theta1, theta2 - ci2.lo)};
}

Interval newcombe_difference_interval(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double alpha) {
    if (n1 <= 0 || n2 <= 0) return {-1.0, 1.0};
    const double p1 = static_cast<double>(k1) / static_cast<double>(n1);
    const double p2 = static_cast<double>(k2) / static_cast<double>(n2);
    const Interval ci = mover_difference(p1, wilson_interval(k1, n1, alpha), p2, wilson_interval(k2, n2, alpha));
    return {std::max(-1.0, ci.lo), std::min(1.0, ci.hi)};
}

std::optional<MeanInterval> student_t_interval(std::span<const double> values, double alpha) {
    if (values.size() < 2) return std::nullopt;
    const double n = static_cast<double>(values.size());
    double sum = 0.0;
    for (const double v : values) sum += v;
    const double mean = sum / n;
    double ss = 0.0;
    for (const double v : values) ss += (v - mean) * (v - mean);
    const double sd = std::sqrt(ss / (n - 1.0));
    const double half = student_t_quantile(1.0 - alpha / 2.0, n - 1.0) * sd / std::sqrt(n);
    return MeanInterval{mean, {mean - half, mean + half}, sd};
}

} // namespace octo
