// A/B comparison of two runs (of one model, or two files of one): where their generated tokens
// part, how the chosen tokens' log-probabilities differ token by token, how their subsystem
// shares and layer × head norms differ on average, and, for mixtures of experts, how often the
// same experts were chosen. Pure arithmetic on what the runs measured; the caller runs both
// (same seed) and collects what each run measured.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/generation/generator.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/instrumentation/subsystem_grouping.h"

namespace octo {

// What one run generated, token by token.
struct ComparedRun {
    std::vector<int32_t> ids;                   // generated token ids
    std::vector<double> logprobs;               // [ids] log-probability of each chosen token
    std::vector<SubsystemValues> shares;        // [ids] subsystem shares of one metric, or empty
    std::vector<std::vector<float>> head_norms; // [ids][n_layer * n_head], or empty
    // A mixture of experts: the experts each position chose, as TokenProbe::expert_ids
    // ([n_layer][n_used], −1 in a dense layer) — the prompt's positions, then [ids] the positions
    // that chose each generated token — with the model's n_layer; empty without routing.
    std::vector<std::vector<int32_t>> prompt_experts;
    std::vector<std::vector<int32_t>> experts;
    int64_t n_layer = 0;
};

struct RunComparison {
    // First generated index whose token differs, or where only one run has a token; none when
    // both generated exactly the same tokens.
    std::optional<size_t> first_divergence;
    std::vector<double> logprob_delta; // [min length] b − a, each run's own chosen token
    double mean_logprob_a = 0.0;       // over each run's generated tokens (0 when none)
    double mean_logprob_b = 0.0;
    std::optional<SubsystemValues> mean_shares_a; // mean over generated tokens; none when unmeasured
    std::optional<SubsystemValues> mean_shares_b;
    std::optional<SubsystemValues> share_delta;   // b − a
    std::vector<float> head_delta; // [n_layer * n_head] mean norm b − a; empty unless both measured
                                   // with the same shape
    std::optional<size_t> largest_head_change; // index into head_delta of the largest |change|
    // Expert routing, where both runs routed (mixtures of experts with the same layer count): per
    // layer the mean overlap |A ∩ B| / |A ∪ B| of the experts chosen at the same position, over
    // the positions whose context is the same in both — the prompt's (when both prompts have as
    // many positions) and the generated ones before the answers part; −1 for a dense layer.
    // Empty when either run has no routing or none of those positions.
    std::vector<double> expert_overlap;
    std::optional<double> mean_expert_overlap; // over the layers with experts
};

RunComparison compare_runs(const ComparedRun& a, const ComparedRun& b);

// Numbers for token texts, the same number for the same text: runs whose ids do not mean the same
// (two vocabularies, or a server that sends no ids) are compared by what their tokens say. The
// numbers are negative (-1, -2, …), so they never equal a real token id.
class TokenTextIds {
public:
    int32_t of(const std::string& text) {
        return ids_.try_emplace(text, -1 - static_cast<int32_t>(ids_.size())).first->second;
    }

private:
    std::map<std::string, int32_t> ids_;
};

// A run's generated tokens as compared: `metric`'s shares (where computed) and the head norms.
ComparedRun compared_run(const GenerateResult& generation, const std::vector<TokenMetrics>& token_metrics,
                         Metric metric, int64_t n_layer = 0); // n_layer: the routing is kept (mixtures of experts)

} // namespace octo
