#include "app/cli/run_json.h"

#include <optional>

#include "app/cli/cli_output.h"
#include "app/cli/subsystem_list.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/generation/constraint_json.h"
#include "engine/instrumentation/expert_routing.h"
#include "engine/instrumentation/subsystem.h"

namespace octo::cli {

namespace {

// The CPU backend's thread count; null for a device backend.
nlohmann::json cpu_threads(const Backend& backend) {
    const auto* cpu = dynamic_cast<const CpuBackend*>(&backend);
    return cpu ? nlohmann::json(cpu->n_threads()) : nlohmann::json(nullptr);
}

} // namespace

namespace {

nlohmann::json shares_json(const std::optional<SubsystemValues>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// Every computed metric by name.
nlohmann::json token_json(const Tokenizer& tok, const TokenEvent& e) {
    nlohmann::json top = nlohmann::json::array();
    for (const auto& alt : e.logprobs.top) {
        top.push_back({{"id", alt.id}, {"piece", valid_utf8(tok.token_bytes(alt.id))}, {"logprob", alt.logprob}});
    }
    return {{"id", e.id},       {"piece", valid_utf8(e.bytes)}, {"piece_bytes", hex_bytes(e.bytes)},
            {"logprob", e.logprobs.logprob}, {"top", top}, {"ms", e.ms}};
}

nlohmann::json subsystem_ids_json(const std::vector<int>& subsystems) {
    nlohmann::json ids = nlohmann::json::array();
    for (int s : subsystems) ids.push_back(subsystem_id(s));
    return ids;
}

} // namespace

nlohmann::json run_json(const BuiltPrompt& prompt, const InstrumentedResult& run, const RunJsonContext& context) {
    const GenerateResult& result = run.generation;
    std::vector<int32_t> generated_ids;
    nlohmann::json tokens = nlohmann::json::array();
    for (size_t i = 0; i < result.tokens.size(); ++i) {
        const TokenEvent& e = result.tokens[i];
        generated_ids.push_back(e.id);
        nlohmann::json t = token_json(context.tokenizer, e);
        t["subsystems"] = shares_json(run.token_metrics[i].get(run.default_metric));
        t["metrics"] = metrics_json(run.token_metrics[i]);
        if (context.with_attention) t["attention"] = e.probe.attention;
        if (context.n_expert > 0) t["experts"] = experts_json(e.probe, context.n_layer);
        if (e.constraint) t["constraint"] = constraint_json(*e.constraint, context.tokenizer, &context.map);
        tokens.push_back(std::move(t));
    }
    nlohmann::json prompt_subsystems = nlohmann::json::array();
    nlohmann::json prompt_metrics = nlohmann::json::array();
    for (const TokenMetrics& m : run.prompt_metrics) {
        prompt_subsystems.push_back(shares_json(m.get(run.default_metric)));
        prompt_metrics.push_back(metrics_json(m));
    }
    std::vector<int> all_subsystems;
    for (int s = 0; s < kSubsystemCount; ++s) all_subsystems.push_back(s);
    const double decode_s = result.decode_ms / 1000.0;
    nlohmann::json expert_switches = nlohmann::json::array();
    for (const ExpertSwitch& s : context.disabled_experts) expert_switches.push_back(expert_switch_text(s));
    nlohmann::json out = {
        {"prompt_ids", prompt.ids},
        {"prompt_text", valid_utf8(prompt.text)},
        {"generated_ids", generated_ids},
        {"text", valid_utf8(result.text)},
        {"tokens", tokens},
        {"stop_reason", stop_reason_name(result.stop_reason)},
        {"metric", metric_name(run.default_metric)},
        {"prompt_subsystems", prompt_subsystems},
        {"prompt_metrics", prompt_metrics},
        {"subsystem_ids", subsystem_ids_json(all_subsystems)},
        {"empty_subsystems", subsystem_ids_json(context.map.empty_subsystems())},
        {"head_map", context.map.describe()},
        {"ablation",
         {{"disabled", subsystem_list_json(context.disabled)}, {"mode", context.ablation}, {"experts", expert_switches},
          {"target", context.target}}},
        {"kv",
         {{"block_size", run.kv.block_size},
          {"blocks_total", run.kv.blocks_total},
          {"blocks_used", run.kv.blocks_used},
          {"blocks_cached", run.kv.blocks_cached},
          {"reused_tokens", result.reused_tokens},
          {"evaluated_tokens", result.evaluated_tokens}}},
        {"precision", std::string(precision_name(run.precision))},
        {"backend", context.backend.name()},
        {"threads", cpu_threads(context.backend)},
        {"timing",
         {{"prefill_ms", result.prefill_ms},
          {"decode_ms", result.decode_ms},
          {"tokens_per_s", decode_s > 0 ? static_cast<double>(result.n_decoded) / decode_s : 0.0}}},
    };
    if (context.n_expert > 0) {
        // Every evaluated position once: the prompt's, then each generated token's but the last
        // (the position that chose token i is the one before it).
        std::vector<const TokenProbe*> positions;
        nlohmann::json prompt_experts = nlohmann::json::array();
        for (const TokenProbe& p : result.prompt_probes) {
            positions.push_back(&p);
            prompt_experts.push_back(experts_json(p, context.n_layer));
        }
        for (size_t i = 1; i < result.tokens.size(); ++i) positions.push_back(&result.tokens[i].probe);
        out["prompt_experts"] = std::move(prompt_experts);
        out["expert_load"] = expert_load_json(expert_load(positions, context.n_layer, context.n_expert), context.n_layer,
                                              context.n_expert, positions.size());
    }
    return out;
}

} // namespace octo::cli
