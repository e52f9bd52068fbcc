// latency: the article's latency picture — a bimodal distribution with a long tail (peaks at
// 320 ms and 1150 ms) and bands < 250 ms (cache hit), 250–800 ms (standard), > 800 ms
// (degraded). Greedy answers to the router's dev probes (realistic prompts of every subsystem,
// one warm-up run first) record time to first token and total time. "series": "total" or
// "first_token" picks the distribution; the value is Sarle's bimodality coefficient (above 5/9
// suggests two modes). The article's bands are reported as it defines them, in milliseconds of
// total time (< 250, 250–800, > 800) — never rescaled to the measured times, which would make
// them a function of the data — with each run's band.
// Times are measured, so this claim varies a little from run to run; everything else is fixed.
// params: "series", "items" per subsystem, "max_tokens".
#include <algorithm>
#include <cmath>

#include "engine/claims/claim_protocols.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

namespace {

// The article's bands (section 3.1), in milliseconds of total time.
constexpr double kCacheHitBelowMs = 250.0;
constexpr double kDegradedAboveMs = 800.0;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

nlohmann::json histogram(const std::vector<double>& v, double hi, int bins) {
    nlohmann::json edges = nlohmann::json::array();
    std::vector<int> counts(static_cast<size_t>(bins), 0);
    for (int b = 0; b <= bins; ++b) edges.push_back(hi * b / bins);
    for (const double x : v) {
        const auto b = std::min(static_cast<size_t>(x / hi * bins), static_cast<size_t>(bins - 1));
        ++counts[b];
    }
    return {{"edges", edges}, {"counts", counts}};
}

} // namespace

Result<ClaimResult> protocol_latency(ClaimLab& lab, const Claim& claim) {
    const std::string series = claim.params.value("series", std::string("total"));
    if (series != "total" && series != "first_token") {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"series\" must be total or first_token");
    }
    const int64_t max_tokens = int_param(claim.params, "max_tokens", 24);
    const std::vector<const Probe*> probes = lab.select_probes(lab.items_per_subsystem(claim, 24));
    if (probes.size() < 4) return not_measurable("fewer than 4 prompts were selected");

    if (auto warm = lab.answer(claim_question(probes.front()->text, max_tokens), false); !warm) return warm.error();
    std::vector<double> first, total, tokens;
    std::vector<int> strata;
    ClaimTable table{"runs", {"label", "prompt_tokens", "answer_tokens", "first_token_ms", "total_ms", "band"}, {}};
    for (size_t i = 0; i < probes.size(); ++i) {
        auto a = lab.answer(claim_question(probes[i]->text, max_tokens), false);
        if (!a) return a.error();
        first.push_back(a.value()->first_token_ms);
        total.push_back(a.value()->total_ms);
        tokens.push_back(static_cast<double>(a.value()->tokens.size()));
        strata.push_back(probes[i]->label);
        table.rows.push_back({std::string(subsystem_id(probes[i]->label)), std::to_string(a.value()->prompt_tokens),
                              std::to_string(a.value()->tokens.size()), fmt(first.back(), 3), fmt(total.back(), 3), ""});
        if (!lab.step(static_cast<int64_t>(i + 1), static_cast<int64_t>(probes.size()))) {
            return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
    }
    const std::vector<double>& v = series == "total" ? total : first;
    ClaimResult r;
    r.estimate = bootstrap(strata, [&](std::span<const double> w) { return bimodality_coefficient(v, w); },
                           lab.bootstrap_options(claim));
    if (!r.estimate) return not_measurable("the measured times have no spread");

    const double cache_hit = kCacheHitBelowMs, degraded = kDegradedAboveMs;
    std::array<int, 3> in_band{};
    for (size_t i = 0; i < total.size(); ++i) {
        const int b = total[i] < cache_hit ? 0 : total[i] <= degraded ? 1 : 2;
        ++in_band[static_cast<size_t>(b)];
        table.rows[i][5] = b == 0 ? "cache hit" : b == 1 ? "standard" : "degraded";
    }
    // The histogram spans the measured times; the article's bands are drawn where they fall inside it.
    const double hi = 1.05 * *std::max_element(total.begin(), total.end());
    nlohmann::json bands = nlohmann::json::array();
    for (const auto& [name, from, to] : {std::tuple{"cache hit", 0.0, cache_hit}, std::tuple{"standard", cache_hit, degraded},
                                         std::tuple{"degraded", degraded, std::max(hi, degraded)}}) {
        if (from < hi) bands.push_back({{"name", name}, {"from", from}, {"to", std::min(to, hi)}});
    }
    const auto n = static_cast<double>(total.size());
    r.details["plot"] = {{"kind", "histogram"},
                         {"total_ms", histogram(total, hi, 24)},
                         {"first_token_ms", histogram(first, hi, 24)},
                         {"series", series},
                         {"bands", bands},
                         {"x_label", "milliseconds"}};
    r.details["band_shares"] = {{"cache hit", in_band[0] / n}, {"standard", in_band[1] / n}, {"degraded", in_band[2] / n}};
    r.details["median_total_ms"] = median(total);
    r.details["median_first_token_ms"] = median(first);
    r.details["bimodality_threshold"] = kBimodalityThreshold;
    r.method = "Greedy answers (at most " + std::to_string(max_tokens) + " tokens) to " + std::to_string(probes.size()) +
               " router dev probes, one at a time after a warm-up run, in the shared KV pool; the value is Sarle's bimodality "
               "coefficient of the " + (series == "total" ? std::string("total") : std::string("first-token")) +
               " times (above 5/9 suggests two modes). Each run's band is the article's, unscaled: total time under 250 ms, "
               "250–800 ms or over 800 ms (median total time " + fmt(median(total), 2) + " ms). Expanded percentile bootstrap over prompts, stratified by label. Times are measured on this machine and vary a little from run to run.";
    if (lab.model().server) {
        r.method += " The answers came from " + lab.model().server->engine +
                    ", streamed: times are seen from this machine and include the network and whatever else the server was doing.";
    }
    r.tables.push_back(std::move(table));
    return r;
}

} // namespace octo
