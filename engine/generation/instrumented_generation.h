// A generation run with everything the workbench shows: per-head measurements turned into the
// subsystem metrics of every prompt and generated token, subsystems ablated (zero or mean), and
// the KV pool's reuse. The CLI's `generate` and `eval` and the GUI all run through here.
//
// Mean ablation needs a baseline: the prompt is first run without ablation recording head
// outputs, and each head's mean output over the prompt (without position 0, BOS) replaces the
// ablated heads in the real run.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "engine/backend/precision.h"
#include "engine/generation/generator.h"
#include "engine/generation/run_spec.h"
#include "engine/generation/token_metrics.h"
#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/instrumentation/subsystem_grouping.h"
#include "engine/kv/kv_store.h"

namespace octo {

// The metric a run is shown by first: the router's gates on a model that has one, else norm share.
Metric default_metric(const Model& model);

// What a run needs beside its RunSpec: the prompt's token ids (built from the spec's PromptSpec by
// build_prompt, or sent as ids), and the handles of the open model and of this one call.
struct RunInputs {
    std::span<const int32_t> prompt_ids;
    const ExpertMap* expert_map = nullptr;     // computes the experts metric and switches experts (null: none)
    const std::atomic<bool>* cancel = nullptr; // checked by the session and before each token
};

// The generator's request for `spec` on `inputs` (GenerateRequest is GenerationSpec with the ids).
GenerateRequest generate_request(const RunSpec& spec, const RunInputs& inputs);

struct InstrumentedResult {
    GenerateResult generation;               // probes included
    std::vector<TokenMetrics> prompt_metrics; // [n_prompt] each prompt position's own
    std::vector<TokenMetrics> token_metrics;  // [generated] of the position that chose the token
    Metric default_metric = Metric::NormShare; // gates for models with a router
    Precision precision = Precision::Exact;   // the precision the run took (request's, or the model's default)
    KvTypes kv_types;                         // how the pool it ran in stores keys and values
    KvPoolStats kv;                           // the pool as the run left it (its sequence still held)
    std::vector<KvBlockState> kv_blocks;      // every block's state then, by block id
};

// What a run reports as it goes, with each position's metrics computed once: the result keeps
// the same values. on_prompt comes once, when the first token is chosen (or when the run ends
// without one), before that token's on_token.
struct InstrumentedCallbacks {
    std::function<void(const std::vector<TokenProbe>& probes, const std::vector<TokenMetrics>& metrics)> on_prompt;
    std::function<void(const TokenEvent& event, const TokenMetrics& metrics)> on_token;
};

// The options of the session run_instrumented runs `spec` in: head norms always, DLA, attention
// and router probabilities on request, the ablation of the disabled subsystems (their heads, or
// with SwitchTarget::Experts their experts) and of the switched-off experts. Mean ablation runs
// the prompt once first for its baseline (in `kv`). The session takes the model's context as
// opened (spec.n_ctx and spec.threads are what a caller opens it with). Errors: those of
// run_instrumented's set-up.
Result<SessionOptions> instrumented_session_options(const Model& model, Backend& backend, const HeadMap& map,
                                                    KvStore& kv, const RunSpec& spec, const RunInputs& inputs);

// Each position's metrics as a run reaches it, computed once: the prompt's first (they fix the
// relative metric's baseline, the prompt without BOS), then each generated token's. A failed
// metric gives empty metrics and keeps the first error (error()).
class RunMetrics {
public:
    RunMetrics(const HeadMap& map, int64_t n_router_groups, const HeadMap* expert_map);
    const std::vector<TokenMetrics>& prompt(const std::vector<TokenProbe>& probes);
    TokenMetrics token(const TokenProbe& probe);
    const std::optional<Error>& error() const { return error_; }

private:
    const HeadMap& map_;
    int64_t n_router_groups_;
    const HeadMap* expert_map_;
    std::vector<float> baseline_norms_;
    std::vector<TokenMetrics> prompt_;
    std::optional<Error> error_;
};

// Runs `spec` on `inputs.prompt_ids` on `model` with `map`, in the shared pool `kv` (prefix reuse
// across runs). Errors: the session's or generation's, InvalidArgument for mean ablation of a
// one-token prompt, an expert switch the model does not have, or switches on experts without an
// expert map.
Result<InstrumentedResult> run_instrumented(const Model& model, Backend& backend, const Tokenizer& tokenizer,
                                            const HeadMap& map, KvStore& kv, const RunSpec& spec,
                                            const RunInputs& inputs, const InstrumentedCallbacks& callbacks = {});

// The relative metric's baseline: each head's mean norm over the prompt without position 0
// (BOS); empty when the prompt has fewer than 2 positions.
std::vector<float> relative_baseline(std::span<const TokenProbe> prompt_probes);

// The metrics of one position from its probe; `baseline_norms` is the relative metric's
// baseline (empty: relative is not computed).
Result<TokenMetrics> token_metrics(const HeadMap& map, const TokenProbe& probe, std::span<const float> baseline_norms,
                                   int64_t n_router_groups, const HeadMap* expert_map = nullptr);

// The experts metric of one position: routing weights summed per subsystem of `expert_map` over
// every layer, normalised to sum 1; nullopt when the probe has no routing.
std::optional<SubsystemValues> expert_share(const HeadMap& expert_map, const TokenProbe& probe);

} // namespace octo
