// degrade: the article's degraded mode — one subsystem ("off", default rte-f) switched off (its
// heads zero-ablated, or its experts under an expert map), does another ("taker", default rte-a)
// take over its work? On the switched-off subsystem's own items, each answer token's
// contributions (norm share of the heads' output, or the experts metric under an expert map —
// never router gates, which stay high while their heads are zeroed) are renormalised over the
// seven subsystems still on; per item, d = the taker's mean renormalised
// share with the switch minus without. The value is the mean d (paired by item). A rise means
// the taker gains more than its proportional part of the freed share. Details: every
// subsystem's renormalised share both ways and the accuracy both ways.
// params: "off", "taker", "items" per subsystem, "max_tokens".
#include "engine/claims/claim_protocols.h"
#include "engine/core/json_fields.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

namespace {

// Mean over answer tokens (end-of-generation left out) of each subsystem's share renormalised
// without `off`; nullopt when no token has shares.
std::optional<SubsystemValues> renormalised_mean(const ClaimAnswer& a, int off) {
    SubsystemValues sum{};
    double n = 0;
    for (size_t k = 0; k < a.tokens.size(); ++k) {
        if (a.is_eog[k] || k >= a.contributions.size() || !a.contributions[k]) continue;
        const SubsystemValues& s = *a.contributions[k];
        double rest = 0;
        for (int j = 0; j < kSubsystemCount; ++j) rest += j == off ? 0.0 : s[static_cast<size_t>(j)];
        if (rest <= 0) continue;
        for (int j = 0; j < kSubsystemCount; ++j) {
            sum[static_cast<size_t>(j)] += j == off ? 0.0f : static_cast<float>(s[static_cast<size_t>(j)] / rest);
        }
        n += 1;
    }
    if (n == 0) return std::nullopt;
    for (auto& v : sum) v = static_cast<float>(v / n);
    return sum;
}

} // namespace

Result<ClaimResult> protocol_degrade(ClaimLab& lab, const Claim& claim) {
    std::string why;
    if (!lab.has_subsystems(&why)) return not_measurable(why);
    const auto off = subsystem_index(json_string_or(claim.params, "off", "rte-f"));
    const auto taker = subsystem_index(json_string_or(claim.params, "taker", "rte-a"));
    if (!off || !taker || *off == *taker) {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"off\" and \"taker\" must be two different subsystems");
    }
    const int64_t max_tokens = int_param(claim.params, "max_tokens", 16);
    const std::vector<const TaskItem*> items = lab.select_items({*off}, lab.items_per_subsystem(claim, 48));
    std::array<bool, kSubsystemCount> disabled{};
    disabled[static_cast<size_t>(*off)] = true;

    std::vector<int> strata;
    std::vector<double> diff, right_on, right_off;
    std::vector<SubsystemValues> base_share, off_share;
    ClaimTable table{"items", {"prompt", "answer", "answer_switched_off", "taker_share", "taker_share_switched_off"}, {}};
    std::vector<RunSpec> requests;
    for (const TaskItem* item : items) {
        requests.push_back(claim_question(item->prompt, max_tokens));
        requests.push_back(claim_question(item->prompt, max_tokens, disabled));
    }
    if (auto fetched = lab.prefetch(requests); !fetched) return fetched.error();
    for (size_t i = 0; i < items.size(); ++i) {
        auto base = lab.answer(claim_question(items[i]->prompt, max_tokens));
        if (!base) return base.error();
        auto cut = lab.answer(claim_question(items[i]->prompt, max_tokens, disabled));
        if (!cut) return cut.error();
        if (!lab.step(static_cast<int64_t>(i + 1), static_cast<int64_t>(items.size()))) {
            return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
        const auto s0 = renormalised_mean(*base.value(), *off);
        const auto s1 = renormalised_mean(*cut.value(), *off);
        if (!s0 || !s1) continue;
        const double t0 = (*s0)[static_cast<size_t>(*taker)];
        const double t1 = (*s1)[static_cast<size_t>(*taker)];
        diff.push_back(t1 - t0);
        strata.push_back(0);
        base_share.push_back(*s0);
        off_share.push_back(*s1);
        right_on.push_back(answer_correct(*base.value(), *items[i], AnswerMatch::Exact) ? 1.0 : 0.0);
        right_off.push_back(answer_correct(*cut.value(), *items[i], AnswerMatch::Exact) ? 1.0 : 0.0);
        table.rows.push_back({items[i]->prompt, base.value()->text, cut.value()->text, fmt(t0), fmt(t1)});
    }
    const BootstrapOptions bo = lab.bootstrap_options(claim);
    ClaimResult r;
    r.estimate = mean_estimate(diff);
    if (!r.estimate) return not_measurable("fewer than two answers had a token with subsystem contributions");

    std::vector<std::string> labels;
    std::vector<BarSeries> series = {{"all on", {}, {}}, {std::string(subsystem_id(*off)) + " off", {}, {}}};
    ClaimTable shares{"shares", {"subsystem", "share_on", "share_switched_off"}, {}};
    for (int s = 0; s < kSubsystemCount; ++s) {
        if (s == *off) continue;
        labels.emplace_back(subsystem_id(s));
        std::vector<std::string> row{std::string(subsystem_id(s))};
        for (size_t k = 0; k < 2; ++k) {
            std::vector<double> col;
            for (const auto& x : k == 0 ? base_share : off_share) col.push_back(x[static_cast<size_t>(s)]);
            const auto e = bootstrap(strata, [&](std::span<const double> w) { return weighted_mean(col, w); },
                                     BootstrapOptions{bo.resamples / 4, bo.seed + static_cast<uint64_t>(s * 2) + k + 1});
            series[k].values.push_back(e ? e->value : 0.0);
            series[k].ci.push_back(e ? e->ci95 : Interval{});
            row.push_back(fmt(series[k].values.back()));
        }
        shares.rows.push_back(std::move(row));
    }
    const std::vector<double> ones(diff.size(), 1.0);
    r.details["plot"] = grouped_bars_plot(labels, series, "share among the subsystems still on");
    r.details["accuracy_on"] = weighted_mean(right_on, ones).value_or(0.0);
    r.details["accuracy_switched_off"] = weighted_mean(right_off, ones).value_or(0.0);
    r.details["metric"] = metric_name(lab.contribution_metric());
    r.method = "On " + std::to_string(diff.size()) + " " + std::string(subsystem_id(*off)) + " task items, greedy answers (at most " +
               std::to_string(max_tokens) + " tokens) with and without " + std::string(subsystem_id(*off)) +
               " switched off (zero ablation under the " + lab.map_name() + "). Each token's " + metric_name(lab.contribution_metric()) +
               " shares (what the parts contributed; router gates stay high while their heads are zeroed) are renormalised over the seven subsystems still on; the value is " + std::string(subsystem_id(*taker)) +
               "'s mean renormalised share with the switch minus without (paired by item), with Student's t interval. Accuracy both "
               "ways is in the details; the bars' intervals: expanded percentile bootstrap over items.";
    r.tables.push_back(std::move(table));
    r.tables.push_back(std::move(shares));
    return r;
}

} // namespace octo
