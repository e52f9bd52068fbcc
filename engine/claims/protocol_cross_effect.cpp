// cross_effect: the 8 × 8 matrix of accuracy drops — entry (i, j) is the accuracy on subsystem
// j's items without ablation minus with group i switched off (zero ablation), paired by item.
// "statistic": "order" — the article's "subsystems have an order (entities before relations)":
// drop(second's items | first off) − drop(first's items | second off), positive when the first
// feeds the second more than the reverse; "specialisation" — each subsystem's items depend on
// its own group most: the mean over j of drop(j | j) − the mean of drop(j | i ≠ j).
// params: "first", "second" (order), "items" per subsystem, "max_tokens".
#include "engine/claims/claim_protocols.h"
#include "engine/core/json_fields.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

namespace {

using DropMatrix = std::array<std::array<double, kSubsystemCount>, kSubsystemCount>;
// right[u][0]: item u answered right without ablation; right[u][1 + i]: with group i off.
using Rightness = std::vector<std::array<double, kSubsystemCount + 1>>;

// drop[i][j] under weights w; nullopt when a subsystem drew no item.
std::optional<DropMatrix> drop_matrix(const Rightness& right, const std::vector<int>& strata, std::span<const double> w) {
    DropMatrix drop{};
    std::array<double, kSubsystemCount> n{};
    for (size_t u = 0; u < right.size(); ++u) {
        const auto j = static_cast<size_t>(strata[u]);
        n[j] += w[u];
        for (size_t i = 0; i < kSubsystemCount; ++i) drop[i][j] += w[u] * (right[u][0] - right[u][i + 1]);
    }
    for (size_t j = 0; j < kSubsystemCount; ++j) {
        if (n[j] <= 0) return std::nullopt;
        for (size_t i = 0; i < kSubsystemCount; ++i) drop[i][j] /= n[j];
    }
    return drop;
}

// "order": two paired comparisons on disjoint items, drop(second's items | first off) and
// drop(first's items | second off), each with Newcombe's paired interval (condition a: the group
// switched off, b: nothing switched off, so p_b - p_a is the drop), combined by MOVER. Only these
// two subsystems' items enter the statistic. False when one of them has no items.
bool order_estimate(const Rightness& right, const std::vector<int>& strata, size_t f, size_t s, ClaimResult& r) {
    auto counts_of = [&](size_t items_of, size_t off) {
        PairedCounts c;
        for (size_t u = 0; u < right.size(); ++u) {
            if (static_cast<size_t>(strata[u]) != items_of) continue;
            c.add(right[u][off + 1] > 0.5, right[u][0] > 0.5);
        }
        return c;
    };
    const PairedCounts forward = counts_of(s, f), backward = counts_of(f, s);
    if (forward.n() == 0 || backward.n() == 0) return false;
    const Estimate e1 = paired_difference_estimate(forward), e2 = paired_difference_estimate(backward);
    Estimate e;
    e.value = e1.value - e2.value;
    e.ci95 = mover_difference(e1.value, e1.ci95, e2.value, e2.ci95);
    e.n = forward.n() + backward.n();
    e.method = IntervalMethod::MoverOfPaired;
    e.at_level = [forward, backward, d1 = e1.value, d2 = e2.value](double alpha) {
        return mover_difference(d1, newcombe_paired_interval(forward, alpha), d2, newcombe_paired_interval(backward, alpha));
    };
    r.estimate = e;
    if (both_at_one_bound(forward) && both_at_one_bound(backward)) {
        r.reason = "on both subsystems' items the answers were the same (all right or all wrong) with and without each switch";
    }
    r.details["drop_forward"] = {{"value", e1.value}, {"ci95", {e1.ci95.lo, e1.ci95.hi}}, {"mcnemar_exact_p", *e1.p_value}};
    r.details["drop_backward"] = {{"value", e2.value}, {"ci95", {e2.ci95.lo, e2.ci95.hi}}, {"mcnemar_exact_p", *e2.p_value}};
    return true;
}

// The drop matrix as the plot and a table, and each subsystem's accuracy without ablation.
ClaimTable describe_matrix(const DropMatrix& m, const Rightness& right, const std::vector<int>& strata, ClaimResult& r) {
    nlohmann::json values = nlohmann::json::array();
    ClaimTable table{"matrix", {"switched_off"}, {}};
    std::vector<std::string> names;
    for (int j = 0; j < kSubsystemCount; ++j) {
        names.emplace_back(subsystem_id(j));
        table.columns.push_back(std::string(subsystem_id(j)) + "_items");
    }
    for (size_t i = 0; i < kSubsystemCount; ++i) {
        nlohmann::json row = nlohmann::json::array();
        std::vector<std::string> cells{names[i]};
        for (size_t j = 0; j < kSubsystemCount; ++j) {
            row.push_back(m[i][j]);
            cells.push_back(fmt(m[i][j]));
        }
        values.push_back(row);
        table.rows.push_back(std::move(cells));
    }
    std::vector<double> base(kSubsystemCount, 0.0), n(kSubsystemCount, 0.0);
    for (size_t u = 0; u < right.size(); ++u) {
        base[static_cast<size_t>(strata[u])] += right[u][0];
        n[static_cast<size_t>(strata[u])] += 1;
    }
    nlohmann::json baseline = nlohmann::json::object();
    for (size_t j = 0; j < kSubsystemCount; ++j) baseline[names[j]] = n[j] > 0 ? base[j] / n[j] : 0.0;
    r.details["plot"] = {{"kind", "matrix"}, {"rows", names}, {"cols", names}, {"values", values},
                         {"row_label", "switched off"}, {"col_label", "items of"}, {"value_label", "accuracy drop"}};
    r.details["baseline_accuracy"] = baseline;
    return table;
}

} // namespace

Result<ClaimResult> protocol_cross_effect(ClaimLab& lab, const Claim& claim) {
    std::string why;
    if (!lab.has_subsystems(&why)) return not_measurable(why);
    const std::string statistic = json_string_or(claim.params, "statistic", "order");
    if (statistic != "order" && statistic != "specialisation") {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"statistic\" must be order or specialisation");
    }
    const auto first = subsystem_index(json_string_or(claim.params, "first", "rte-a"));
    const auto second = subsystem_index(json_string_or(claim.params, "second", "rte-b"));
    if (!first || !second || *first == *second) {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"first\" and \"second\" must be two different subsystems");
    }
    const int64_t max_tokens = int_param(claim.params, "max_tokens", 16);
    std::vector<int> all;
    for (int s = 0; s < kSubsystemCount; ++s) all.push_back(s);
    const std::vector<const TaskItem*> items = lab.select_items(all, lab.items_per_subsystem(claim, 16));

    // right[u][0]: without ablation; right[u][1 + i]: with group i off.
    Rightness right(items.size());
    std::vector<int> strata;
    const int64_t total = static_cast<int64_t>(items.size()) * (kSubsystemCount + 1);
    int64_t done = 0;
    std::vector<RunSpec> requests;
    for (const TaskItem* item : items) {
        for (int c = 0; c <= kSubsystemCount; ++c) {
            RunSpec req = claim_question(item->prompt, max_tokens);
            if (c > 0) req.disabled[static_cast<size_t>(c - 1)] = true;
            requests.push_back(req);
        }
    }
    if (auto fetched = lab.prefetch(requests); !fetched) return fetched.error();
    for (size_t u = 0; u < items.size(); ++u) {
        strata.push_back(items[u]->subsystem);
        for (int c = 0; c <= kSubsystemCount; ++c) {
            RunSpec req = claim_question(items[u]->prompt, max_tokens);
            if (c > 0) req.disabled[static_cast<size_t>(c - 1)] = true;
            auto a = lab.answer(req);
            if (!a) return a.error();
            right[u][static_cast<size_t>(c)] = answer_correct(*a.value(), *items[u], AnswerMatch::Exact) ? 1.0 : 0.0;
            if (!lab.step(++done, total)) return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
    }
    const auto matrix = [&](std::span<const double> w) { return drop_matrix(right, strata, w); };
    const auto f = static_cast<size_t>(*first);
    const auto s = static_cast<size_t>(*second);
    auto stat = [&](std::span<const double> w) -> std::optional<double> {
        const auto m = matrix(w);
        if (!m) return std::nullopt;
        if (statistic == "order") return (*m)[f][s] - (*m)[s][f];
        double sum = 0;
        for (size_t j = 0; j < kSubsystemCount; ++j) {
            double others = 0;
            for (size_t i = 0; i < kSubsystemCount; ++i) others += i == j ? 0.0 : (*m)[i][j];
            sum += (*m)[j][j] - others / (kSubsystemCount - 1);
        }
        return sum / kSubsystemCount;
    };
    ClaimResult r;
    if (statistic == "order") {
        if (!order_estimate(right, strata, f, s, r)) return not_measurable("some subsystem has no task items");
    } else {
        r.estimate = bootstrap(strata, stat, lab.bootstrap_options(claim));
        if (!r.estimate) return not_measurable("some subsystem has no task items");
    }

    ClaimTable table = describe_matrix(*matrix(std::vector<double>(items.size(), 1.0)), right, strata, r);
    std::vector<std::string> names;
    for (int k = 0; k < kSubsystemCount; ++k) names.emplace_back(subsystem_id(k));
    r.method = "Greedy answers (at most " + std::to_string(max_tokens) + " tokens) to " + std::to_string(items.size()) +
               " task items (" + std::to_string(items.size() / kSubsystemCount) + " per subsystem), once without ablation and once with each head group switched off (zero ablation under the " +
               lab.map_name() + "); entry (i, j) of the matrix is subsystem j's accuracy drop with group i off, paired by item. " +
               (statistic == "order" ? "Value: drop(" + names[s] + " items | " + names[f] + " off) − drop(" + names[f] + " items | " + names[s] + " off)."
                                     : std::string("Value: the mean over subsystems of the drop its own switch causes minus the mean drop the other seven cause.")) +
               (statistic == "order" ? " Each drop has Newcombe's paired interval over its subsystem's items; the difference MOVER's "
                                       "(square-and-add) interval; n counts the two subsystems' items only."
                                     : " Expanded percentile bootstrap over items, stratified by subsystem.");
    r.tables.push_back(std::move(table));
    return r;
}

} // namespace octo
