// Hartigan's dip test of unimodality (Hartigan & Hartigan 1985): the dip is the largest distance
// between a sample's empirical distribution function and the unimodal distribution function
// closest to it; a bimodal sample has a large dip. Its null is the uniform distribution — the
// unimodal distribution whose dip is stochastically largest — so a dip above the uniform null's
// 95 % point rejects every unimodal distribution at that level.
//
// hartigan_dip matches R's diptest 0.76 (Maechler's corrected algorithm) to 1e-12 on samples
// without ties (tests/engine/claims/test_claims.cpp checks published and R-computed values). With tied
// values it measures the distance to a continuous unimodal fit, which can exceed diptest's.
#pragma once

#include <cstdint>
#include <span>

namespace octo {

// The dip of `sample` in probability units (1/(2n) ≤ dip ≤ 1/4 for n distinct values; 0 when all
// values are equal or there are fewer than 2). O(n log n + n · iterations).
double hartigan_dip(std::span<const double> sample);

// The q-quantile of the dip of n independent uniform draws, by `simulations` seeded draws
// (deterministic for a seed). Memoised per (n, q, simulations, seed) within the process.
double uniform_dip_quantile(int64_t n, double q, int simulations = 2000, uint64_t seed = 0x5eed);

// The share of `simulations` uniform samples of size n whose dip is at least `dip` (with the
// usual +1 in numerator and denominator): the dip test's p-value against the uniform null.
double dip_p_value(double dip, int64_t n, int simulations = 2000, uint64_t seed = 0x5eed);

} // namespace octo
