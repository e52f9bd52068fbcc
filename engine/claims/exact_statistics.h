// Closed-form intervals and exact tests for the claims lab (docs/claims.md, "Statistics"): what a
// reviewer expects for yes/no outcomes and small samples, so that no claim rests on a percentile
// bootstrap where a textbook interval fits.
//
//   proportion k/n                 Wilson score interval (Wilson 1927); Clopper–Pearson (exact)
//   p_b − p_a, paired yes/no       Newcombe's square-and-add (1998b, method 10) + exact McNemar test
//   π_1 / π_2, paired yes/no       Bonett & Price's hybrid Wilson score interval (2006)
//   p_1 − p_2, independent         Newcombe's hybrid score interval (1998a, method 10)
//   θ_1 − θ_2 of two independent   MOVER, "square and add" (Zou & Donner 2008) of their intervals
//     estimates with intervals
//   mean of continuous units       Student t interval
//
// Every function takes α (0.05: 95 % intervals) and is checked against published examples
// (tests/engine/claims/test_claims.cpp, "ExactStatistics"). The special functions (regularised
// incomplete beta by its continued fraction, quantiles by bisection) are accurate to ~1e-12.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace octo {

struct Interval {
    double lo = 0.0;
    double hi = 0.0;
};

inline constexpr double kAlpha = 0.05; // the lab's two-sided level: 95 % intervals

// I_x(a, b), the regularised incomplete beta function (a, b > 0, x ∈ [0, 1]).
double regularized_incomplete_beta(double a, double b, double x);
// The p-quantile of Beta(a, b).
double beta_quantile(double p, double a, double b);
// The standard normal distribution function and its quantile.
double normal_cdf(double x);
double normal_quantile(double p);
// The p-quantile of Student's t with `df` (> 0) degrees of freedom.
double student_t_quantile(double p, double df);

// Wilson's score interval for k successes in n trials (n ≥ 1, 0 ≤ k ≤ n).
Interval wilson_interval(int64_t k, int64_t n, double alpha = kAlpha);
// The Clopper–Pearson ("exact") interval: never narrower than the binomial's own spread.
Interval clopper_pearson_interval(int64_t k, int64_t n, double alpha = kAlpha);

// Two yes/no outcomes of the same units (condition a, condition b): how many units were right
// under both, only a, only b, neither.
struct PairedCounts {
    int64_t both = 0;
    int64_t only_a = 0;
    int64_t only_b = 0;
    int64_t neither = 0;
    int64_t n() const { return both + only_a + only_b + neither; }
    // Counts one unit: right under a, right under b.
    void add(bool right_a, bool right_b) { (right_a && right_b ? both : right_a ? only_a : right_b ? only_b : neither) += 1; }
    double p_a() const;
    double p_b() const;
};

// Newcombe's interval for p_b − p_a from paired data (his method 10: the two margins' Wilson
// intervals combined with the estimated correlation φ, which is taken as 0 for 0 ≤ ad − bc ≤ n/2
// and reduced by n/2 above). n ≥ 1.
Interval newcombe_paired_interval(const PairedCounts& counts, double alpha = kAlpha);
// The exact (conditional) McNemar test of p_a = p_b: two-sided p of the discordant pairs under
// Binomial(only_a + only_b, ½); 1 when there are no discordant pairs.
double mcnemar_exact_p(int64_t only_a, int64_t only_b);

// Bonett & Price (2006)'s hybrid Wilson score interval for the ratio of two paired proportions
// π_1 / π_2, where `both` units had the event under both conditions and `only_1` / `only_2`
// under one (units with it under neither do not enter): each margin's Wilson interval over the
// n* = both + only_1 + only_2 units, with z scaled by the paired variance of the log ratio, then
// L = l_1 / u_2 and U = u_1 / l_2. {0, ∞} when n* = 0.
Interval paired_ratio_interval(int64_t both, int64_t only_1, int64_t only_2, double alpha = kAlpha);

// Newcombe's hybrid score interval for p_1 − p_2 = k1/n1 − k2/n2 from independent samples.
Interval newcombe_difference_interval(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double alpha = kAlpha);
// The interval of θ_1 − θ_2 for two independent estimates, each with its own interval (MOVER).
Interval mover_difference(double theta1, const Interval& ci1, double theta2, const Interval& ci2);

// The Student t interval for the mean of `values` (at least 2 of them); nullopt with fewer.
struct MeanInterval {
    double mean = 0.0;
    Interval ci;
    double sd = 0.0; // sample standard deviation
};
std::optional<MeanInterval> student_t_interval(std::span<const double> values, double alpha = kAlpha);

} // namespace octo
