// router_accuracy: the product's two-stage router (router/router.h, fitted on the train probes)
// on the held-out dev probes, stratified by label. params: "statistic" = "two_stage" (accuracy
// of the full router), "stage1" (embedding similarity alone) or "gain" (two-stage minus stage-1
// accuracy, paired on the same probes); "items" = probes per subsystem (dev has 36).
#include "engine/claims/claim_protocols.h"
#include "engine/core/json_fields.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

Result<ClaimResult> protocol_router_accuracy(ClaimLab& lab, const Claim& claim) {
    const std::string statistic = json_string_or(claim.params, "statistic", "two_stage");
    if (statistic != "two_stage" && statistic != "stage1" && statistic != "gain") {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"statistic\" must be two_stage, stage1 or gain");
    }
    auto router = lab.router();
    if (!router) return router.error();
    const std::vector<const Probe*> probes = lab.select_probes(lab.items_per_subsystem(claim, 36));

    std::vector<int> strata;
    std::vector<double> two(probes.size()), one(probes.size());
    ClaimTable table{"probes", {"label", "lang", "stage1_route", "route", "text"}, {}};
    for (size_t i = 0; i < probes.size(); ++i) {
        const RouteDecision d = router.value()->route(probes[i]->text);
        two[i] = d.route == probes[i]->label ? 1.0 : 0.0;
        one[i] = d.stage1_route == probes[i]->label ? 1.0 : 0.0;
        strata.push_back(probes[i]->label);
        table.rows.push_back({std::string(subsystem_id(probes[i]->label)), probes[i]->lang,
                              std::string(subsystem_id(d.stage1_route)), std::string(subsystem_id(d.route)), probes[i]->text});
        if (!lab.step(static_cast<int64_t>(i + 1), static_cast<int64_t>(probes.size()))) {
            return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
    }
    // Yes/no per probe: a share takes Wilson's interval, the gain Newcombe's paired interval
    // (stage 1 is condition a, the two-stage router condition b).
    PairedCounts counts;
    for (size_t i = 0; i < probes.size(); ++i) counts.add(one[i] > 0.5, two[i] > 0.5);
    ClaimResult r;
    if (probes.empty()) return not_measurable("no probes were selected");
    const auto n = static_cast<int64_t>(probes.size());
    if (statistic == "two_stage") r.estimate = proportion_estimate(counts.both + counts.only_b, n);
    else if (statistic == "stage1") r.estimate = proportion_estimate(counts.both + counts.only_a, n);
    else r.estimate = paired_difference_estimate(counts);
    if (statistic == "gain" && both_at_one_bound(counts)) {
        r.reason = counts.both > 0 ? "both stages routed every probe right" : "both stages routed every probe wrong";
    }

    // Per-subsystem accuracy of both stages, each with its Wilson interval.
    std::vector<std::string> labels;
    std::vector<BarSeries> series = {{"stage 1 (embedding)", {}, {}}, {"two-stage", {}, {}}};
    for (int s = 0; s < kSubsystemCount; ++s) {
        labels.emplace_back(subsystem_id(s));
        for (size_t k = 0; k < 2; ++k) {
            const std::vector<double>& which = k == 0 ? one : two;
            int64_t hits = 0, total = 0;
            for (size_t i = 0; i < probes.size(); ++i) {
                if (strata[i] != s) continue;
                hits += which[i] > 0.5;
                ++total;
            }
            const Estimate e = proportion_estimate(hits, total);
            series[k].values.push_back(total > 0 ? e.value : 0.0);
            series[k].ci.push_back(total > 0 ? e.ci95 : Interval{});
        }
    }
    r.details["plot"] = grouped_bars_plot(labels, series, "routing accuracy");
    r.details["stage1_accuracy"] = *weighted_mean(one, std::vector<double>(one.size(), 1.0));
    r.details["two_stage_accuracy"] = *weighted_mean(two, std::vector<double>(two.size(), 1.0));
    r.details["embedding"] = router.value()->embedding_name();
    r.method = std::string("The product's router (stage 1: ") + router.value()->embedding_name() +
               " embedding similarity to centroids fitted on the train probes; stage 2: the feature rules of "
               "rules/router_features.json on the top 3) routes the held-out dev probes; " +
               (statistic == "gain" ? "the value is two-stage minus stage-1 accuracy on the same probes (paired)"
                                    : statistic == "stage1" ? "the value is stage 1's accuracy" : "the value is the two-stage router's accuracy") +
               (statistic == "gain" ? ". Newcombe's paired interval over probes" : ". Wilson's interval over probes") +
               "; the router does not use the loaded model; "
               "no human annotators were measured.";
    r.tables.push_back(std::move(table));
    return r;
}

} // namespace octo
