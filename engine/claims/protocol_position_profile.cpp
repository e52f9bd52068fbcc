// position_profile: where in an answer a subsystem is strongest. Greedy answers to task items of
// every subsystem; each answer token (end-of-generation left out) gets its relative position
// r = k / (n − 1) in an answer of n ≥ 2 tokens — octet's answers are 1–10 tokens, so "the first
// 100 tokens" and "the last 200" become the first and last third. Per item, d = the subsystem's
// mean share at r ≤ 1/3 minus at r ≥ 2/3 ("direction": "start"), or the reverse ("end"); the
// value is the mean d over items (paired within each answer). The details hold the profile of
// every subsystem over "bins" relative-position bins with 95 % bands.
// params: "subsystem", "direction", "bins" (5), "items" per subsystem, "max_tokens".
#include <algorithm>

#include "engine/claims/claim_protocols.h"
#include "engine/core/json_fields.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

namespace {

// One answer of two kept tokens or more: its first third's mean share of the target minus its
// last third's, and every subsystem's mean share in each relative-position bin (present: 1 where
// the answer has a token in the bin). Each token becomes a row of `table`.
struct AnswerProfile {
    double diff = 0.0;
    std::vector<SubsystemValues> bins;
    std::vector<double> present;
};

AnswerProfile answer_profile(const ClaimAnswer& ans, const std::vector<size_t>& kept, int target, int64_t bins, size_t item_index,
                             const TaskItem& item, ClaimTable& table) {
    double start = 0, n_start = 0, end = 0, n_end = 0;
    std::vector<SubsystemValues> sums(static_cast<size_t>(bins), SubsystemValues{});
    std::vector<double> counts(static_cast<size_t>(bins), 0.0);
    for (size_t j = 0; j < kept.size(); ++j) {
        const double rel = static_cast<double>(j) / static_cast<double>(kept.size() - 1);
        const SubsystemValues& share = *ans.shares[kept[j]];
        const double v = share[static_cast<size_t>(target)];
        if (rel <= 1.0 / 3.0) { start += v; n_start += 1; }
        if (rel >= 2.0 / 3.0) { end += v; n_end += 1; }
        const size_t b = std::min(static_cast<size_t>(rel * static_cast<double>(bins)), static_cast<size_t>(bins - 1));
        for (size_t s = 0; s < kSubsystemCount; ++s) sums[b][s] += share[s];
        counts[b] += 1;
        table.rows.push_back({std::to_string(item_index), std::string(subsystem_id(item.subsystem)), std::to_string(j),
                              std::to_string(kept.size()), fmt(rel, 3), ans.tokens[kept[j]], fmt(v)});
    }
    for (size_t b = 0; b < static_cast<size_t>(bins); ++b) {
        if (counts[b] > 0) {
            for (auto& x : sums[b]) x = static_cast<float>(x / counts[b]);
        }
        counts[b] = counts[b] > 0 ? 1.0 : 0.0;
    }
    return {start / n_start - end / n_end, std::move(sums), std::move(counts)};
}

// Every subsystem's profile over the bins (centres `x`) with 95 % bands - an expanded percentile
// bootstrap over items, stratified by subsystem: the plot's series, and the rows of `prof`.
nlohmann::json profile_series(const std::vector<std::vector<SubsystemValues>>& profile, const std::vector<std::vector<double>>& present,
                              const std::vector<int>& strata, int64_t bins, const BootstrapOptions& bo, const nlohmann::json& x,
                              ClaimTable& prof) {
    nlohmann::json series = nlohmann::json::array();
    for (int s = 0; s < kSubsystemCount; ++s) {
        nlohmann::json values = nlohmann::json::array(), lo = nlohmann::json::array(), hi = nlohmann::json::array();
        for (size_t b = 0; b < static_cast<size_t>(bins); ++b) {
            auto stat = [&](std::span<const double> w) -> std::optional<double> {
                double sum = 0, n = 0;
                for (size_t i = 0; i < w.size(); ++i) {
                    const double wi = w[i] * present[i][b];
                    sum += wi * profile[i][b][static_cast<size_t>(s)];
                    n += wi;
                }
                if (n <= 0) return std::nullopt;
                return sum / n;
            };
            const auto e = bootstrap(strata, stat, BootstrapOptions{bo.resamples / 4, bo.seed + static_cast<uint64_t>(s * 64) + b + 1});
            values.push_back(e ? nlohmann::json(e->value) : nlohmann::json());
            lo.push_back(e ? nlohmann::json(e->ci95.lo) : nlohmann::json());
            hi.push_back(e ? nlohmann::json(e->ci95.hi) : nlohmann::json());
            if (e) prof.rows.push_back({std::string(subsystem_id(s)), fmt(x[b].get<double>(), 2), fmt(e->value), fmt(e->ci95.lo), fmt(e->ci95.hi)});
        }
        series.push_back({{"name", std::string(subsystem_id(s))}, {"values", values}, {"lo", lo}, {"hi", hi}});
    }
    return series;
}

} // namespace

Result<ClaimResult> protocol_position_profile(ClaimLab& lab, const Claim& claim) {
    std::string why;
    if (!lab.has_subsystems(&why)) return not_measurable(why);
    const auto target = subsystem_index(json_string_or(claim.params, "subsystem", "rte-a"));
    if (!target) return make_error(ErrorCode::Format, "claim " + claim.id + ": unknown \"subsystem\"");
    const std::string direction = json_string_or(claim.params, "direction", "start");
    if (direction != "start" && direction != "end") {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"direction\" must be start or end");
    }
    const int64_t bins = int_param(claim.params, "bins", 5);
    const int64_t max_tokens = int_param(claim.params, "max_tokens", 16);
    auto subsystems = subsystem_list_param(claim.params, "subsystems");
    if (!subsystems) return subsystems.error();
    const std::vector<const TaskItem*> items = lab.select_items(*subsystems, lab.items_per_subsystem(claim, 24));

    std::vector<int> strata;
    std::vector<double> diff;
    // [item][bin][subsystem] mean share, and whether the item has a token in the bin.
    std::vector<std::vector<SubsystemValues>> profile;
    std::vector<std::vector<double>> present;
    ClaimTable table{"tokens", {"item", "subsystem", "position", "n_tokens", "relative_position", "token", "target_share"}, {}};
    int64_t short_answers = 0;
    std::vector<RunSpec> requests;
    for (const TaskItem* item : items) requests.push_back(claim_question(item->prompt, max_tokens));
    if (auto fetched = lab.prefetch(requests); !fetched) return fetched.error();
    for (size_t i = 0; i < items.size(); ++i) {
        auto a = lab.answer(claim_question(items[i]->prompt, max_tokens));
        if (!a) return a.error();
        const ClaimAnswer& ans = *a.value();
        std::vector<size_t> kept;
        for (size_t k = 0; k < ans.tokens.size(); ++k) {
            if (!ans.is_eog[k] && ans.shares[k]) kept.push_back(k);
        }
        if (!lab.step(static_cast<int64_t>(i + 1), static_cast<int64_t>(items.size()))) {
            return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
        if (kept.size() < 2) {
            ++short_answers;
            continue;
        }
        AnswerProfile a_profile = answer_profile(ans, kept, *target, bins, i, *items[i], table);
        diff.push_back(direction == "start" ? a_profile.diff : -a_profile.diff);
        strata.push_back(items[i]->subsystem);
        profile.push_back(std::move(a_profile.bins));
        present.push_back(std::move(a_profile.present));
    }
    ClaimResult r;
    r.estimate = mean_estimate(diff);
    if (!r.estimate) return not_measurable("fewer than two answers had two tokens or more, so positions within answers cannot be compared");

    nlohmann::json x = nlohmann::json::array();
    for (int64_t b = 0; b < bins; ++b) x.push_back((static_cast<double>(b) + 0.5) / static_cast<double>(bins));
    ClaimTable prof{"profile", {"subsystem", "bin_centre", "mean_share", "ci95_lo", "ci95_hi"}, {}};
    const nlohmann::json series = profile_series(profile, present, strata, bins, lab.bootstrap_options(claim), x, prof);
    r.details["plot"] = {{"kind", "profile"}, {"x", x}, {"series", series}, {"highlight", std::string(subsystem_id(*target))},
                         {"x_label", "relative position in the answer"}, {"y_label", std::string(metric_name(lab.metric())) + " share"}};
    r.details["answers_too_short"] = short_answers;
    r.details["metric"] = metric_name(lab.metric());
    r.method = "Greedy answers (at most " + std::to_string(max_tokens) + " tokens) to " + std::to_string(items.size()) +
               " task items; answers of at least two tokens (n = " + std::to_string(diff.size()) + "; " +
               std::to_string(short_answers) + " shorter ones left out) give each token a relative position "
               "k/(n−1) — octet's answers are 1–10 tokens, so relative positions stand for the article's token counts. "
               "Per answer: " + std::string(subsystem_id(*target)) + "'s mean " + metric_name(lab.metric()) + " share (" +
               lab.map_name() + ") in the " + (direction == "start" ? "first third minus the last third" : "last third minus the first third") +
               "; the value is its mean over answers (paired within each answer), with Student's t interval. The profile's "
               "bands: expanded percentile bootstrap over items, stratified by subsystem.";
    r.tables.push_back(std::move(table));
    r.tables.push_back(std::move(prof));
    return r;
}

} // namespace octo
