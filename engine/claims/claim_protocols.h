// The claims lab's protocols: one experiment design each, parameterised by a claim's "params"
// (docs/claims.md has every protocol, its parameters and its statistics). One file per protocol:
//
//   router_accuracy     the router on its held-out probes: accuracy of either stage, or the paired gain
//   token_after_number  share of tokens after a digit token whose largest subsystem is the named one
//   position_profile    a subsystem's share at the start minus the end of answers (relative positions)
//   prompt_ab           paired A/B of two prompt templates on the same items: accuracy difference or error cut
//   degrade             one subsystem switched off: how much another's share rises on its items
//   cross_effect        the 8 × 8 matrix of accuracy drops under each group's ablation: order, or specialisation
//   latency             time to first token and total time over the probe prompts: bimodality, with the article's bands
//   kv_reuse            prompt tokens the shared KV pool reuses over realistic edit sessions
//   head_groups         octet trained with other group counts ("why 8"): needs the variant models
//   multi_turn          scripted conversations against the same facts in one prompt: coherence breaks
#pragma once

#include <string_view>

#include "engine/claims/claim_lab.h"

namespace octo {

// A protocol fills the result's estimate (absent: not measurable, with `reason`), method,
// details and tables; ClaimLab::run adds the id and the verdict.
using ProtocolFn = Result<ClaimResult> (*)(ClaimLab& lab, const Claim& claim);

struct ProtocolInfo {
    const char* id;
    ProtocolFn run;
};

const ProtocolInfo* find_protocol(std::string_view id);

Result<ClaimResult> protocol_router_accuracy(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_token_after_number(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_position_profile(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_prompt_ab(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_degrade(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_cross_effect(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_latency(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_kv_reuse(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_head_groups(ClaimLab& lab, const Claim& claim);
Result<ClaimResult> protocol_multi_turn(ClaimLab& lab, const Claim& claim);

// Helpers the protocols share.
ClaimResult not_measurable(std::string reason, std::string method = {});
std::string fmt(double value, int decimals = 4);
// Bars plots: {"kind": "bars", "labels", "series": [{"name", "values", "lo", "hi"}], "y_label"} —
// for each label one bar per series, each with its interval.
struct BarSeries {
    std::string name;
    std::vector<double> values;
    std::vector<Interval> ci;
};
nlohmann::json grouped_bars_plot(const std::vector<std::string>& labels, const std::vector<BarSeries>& series,
                                 const std::string& y_label);
// One series.
nlohmann::json bars_plot(const std::vector<std::string>& labels, const std::vector<double>& values,
                         const std::vector<Interval>& ci, const std::string& y_label);
// head_groups' switches: whether router group g serves subsystem s in a model with `groups` groups
// (tools/octet/model.py groups_of), and a map that puts exactly group g's heads (head k is gated
// by group k / (n_head / groups)) under rte-a and every other head under rte-b, so that switching
// rte-a off zeroes that one group.
bool group_serves(int64_t g, int s, int64_t groups);
Result<HeadMap> one_group_map(int64_t g, int64_t groups, int64_t n_layer, int64_t n_head);
// An integer parameter (≥ 1) or `fallback`.
int64_t int_param(const nlohmann::json& params, const char* key, int64_t fallback);

} // namespace octo
