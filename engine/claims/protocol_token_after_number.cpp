// token_after_number: over greedy answers to task items of every subsystem, the tokens that
// follow a token containing a digit (the prompt's last token counts for the first answer token);
// the value is the share of them whose largest subsystem share is the named subsystem. An
// end-of-generation token is not counted (as in every protocol: it is no token of the answer).
// params: "subsystem" (default rte-c), "items" per subsystem, "max_tokens".
// Units of the bootstrap: items (their tokens are not independent), stratified by subsystem.
#include <algorithm>
#include <cctype>

#include "engine/claims/claim_protocols.h"
#include "engine/core/json_fields.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

namespace {

bool has_digit(const std::string& bytes) {
    return std::any_of(bytes.begin(), bytes.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

int top_of(const SubsystemValues& v) {
    return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

} // namespace

Result<ClaimResult> protocol_token_after_number(ClaimLab& lab, const Claim& claim) {
    std::string why;
    if (!lab.has_subsystems(&why)) return not_measurable(why);
    const auto target = subsystem_index(json_string_or(claim.params, "subsystem", "rte-c"));
    if (!target) return make_error(ErrorCode::Format, "claim " + claim.id + ": unknown \"subsystem\"");
    const int64_t max_tokens = int_param(claim.params, "max_tokens", 16);
    auto subsystems = subsystem_list_param(claim.params, "subsystems");
    if (!subsystems) return subsystems.error();
    const std::vector<const TaskItem*> items = lab.select_items(*subsystems, lab.items_per_subsystem(claim, 24));

    // Per item: how many qualifying tokens, and how many of them each subsystem tops.
    std::vector<int> strata;
    std::vector<double> count;
    std::vector<std::array<double, kSubsystemCount>> tops;
    ClaimTable table{"tokens", {"item", "subsystem", "previous_token", "token", "top_subsystem", "target_share"}, {}};
    std::vector<RunSpec> requests;
    for (const TaskItem* item : items) requests.push_back(claim_question(item->prompt, max_tokens));
    if (auto fetched = lab.prefetch(requests); !fetched) return fetched.error();
    for (size_t i = 0; i < items.size(); ++i) {
        auto a = lab.answer(claim_question(items[i]->prompt, max_tokens));
        if (!a) return a.error();
        const ClaimAnswer& ans = *a.value();
        std::array<double, kSubsystemCount> top{};
        double n = 0;
        for (size_t k = 0; k < ans.tokens.size(); ++k) {
            const std::string& previous = k == 0 ? ans.last_prompt_token : ans.tokens[k - 1];
            if (!has_digit(previous) || !ans.shares[k] || ans.is_eog[k]) continue; // end-of-generation is no token of the answer
            const int t = top_of(*ans.shares[k]);
            top[static_cast<size_t>(t)] += 1.0;
            n += 1.0;
            table.rows.push_back({std::to_string(i), std::string(subsystem_id(items[i]->subsystem)), previous, ans.tokens[k],
                                  std::string(subsystem_id(t)), fmt((*ans.shares[k])[static_cast<size_t>(*target)])});
        }
        if (n > 0) { // items without such a token carry no information
            strata.push_back(items[i]->subsystem);
            count.push_back(n);
            tops.push_back(top);
        }
        if (!lab.step(static_cast<int64_t>(i + 1), static_cast<int64_t>(items.size()))) {
            return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
    }
    auto share_of = [&](int s, const BootstrapOptions& options) {
        std::vector<double> hits;
        for (const auto& top : tops) hits.push_back(top[static_cast<size_t>(s)]);
        return clustered_share_estimate(strata, hits, count, options);
    };
    const BootstrapOptions bo = lab.bootstrap_options(claim);
    ClaimResult r;
    r.estimate = share_of(*target, bo);
    if (!r.estimate) return not_measurable("no answer token followed a digit token on the selected items");
    double tokens = 0;
    for (const double c : count) tokens += c;
    std::vector<std::string> labels;
    std::vector<double> values;
    std::vector<Interval> ci;
    for (int s = 0; s < kSubsystemCount; ++s) {
        const auto e = share_of(s, BootstrapOptions{bo.resamples, bo.seed + static_cast<uint64_t>(s) + 1});
        labels.emplace_back(subsystem_id(s));
        values.push_back(e ? e->value : 0.0);
        ci.push_back(e ? e->ci95 : Interval{});
    }
    r.details["plot"] = bars_plot(labels, values, ci, "share of tokens after a digit that the subsystem tops");
    r.details["tokens"] = tokens;
    r.details["metric"] = metric_name(lab.metric());
    r.method = "Greedy answers (at most " + std::to_string(max_tokens) + " tokens) to " + std::to_string(items.size()) +
               " task items of the octet test split; every answer token whose previous token holds a digit (" +
               fmt(tokens, 0) + " tokens) is attributed to the subsystem with the largest " + metric_name(lab.metric()) +
               " share at the position that chose it (" + lab.map_name() + "). Value: the share attributed to " +
               std::string(subsystem_id(*target)) + ". Expanded percentile bootstrap over the items that have such a token (n), stratified by the item's subsystem.";
    r.tables.push_back(std::move(table));
    return r;
}

} // namespace octo
