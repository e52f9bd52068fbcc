#include "engine/generation/instrumented_generation.h"

#include <algorithm>
#include <optional>

#include "engine/instrumentation/expert_routing.h"
#include "engine/instrumentation/metrics.h"

namespace octo {

namespace {

// Mean head outputs over the prompt without position 0: the mean-ablation baseline.
Result<std::vector<float>> mean_baseline(const Model& model, Backend& backend, KvStore& kv, const RunSpec& spec,
                                         const RunInputs& inputs) {
    const std::span<const int32_t> prompt = inputs.prompt_ids;
    if (prompt.size() < 2) {
        return make_error(ErrorCode::InvalidArgument, "mean ablation needs a prompt of at least 2 tokens "
                                                      "(the baseline is the mean over the prompt without BOS)");
    }
    SessionOptions o;
    o.precision = spec.precision;
    o.cancel = inputs.cancel;
    o.kv = &kv;
    o.instrument.head_outputs = true;
    auto session = Session::create(model, backend, o);
    if (!session) return session.error();
    (*session)->start(prompt);
    if (auto out = (*session)->eval(prompt); !out) return out.error();
    return mean_head_outputs((*session)->probes().subspan(1));
}

} // namespace

const char* switch_target_name(SwitchTarget target) { return target == SwitchTarget::Experts ? "experts" : "heads"; }

Metric default_metric(const Model& model) {
    return model.weights().has_router() ? Metric::Gates : Metric::NormShare;
}

std::vector<float> relative_baseline(std::span<const TokenProbe> prompt_probes) {
    if (prompt_probes.size() < 2) return {};
    auto mean = mean_head_norms(prompt_probes.subspan(1));
    return mean ? std::move(mean.value()) : std::vector<float>{};
}

std::optional<SubsystemValues> expert_share(const HeadMap& expert_map, const TokenProbe& probe) {
    const int64_t n_layer = expert_map.n_layer(), n_expert = expert_map.n_head();
    if (probe.expert_ids.empty() || n_layer <= 0 || probe.expert_ids.size() % static_cast<size_t>(n_layer) != 0) return std::nullopt;
    std::array<double, kSubsystemCount> sum{};
    double total = 0.0;
    for (int64_t l = 0; l < n_layer; ++l) {
        for (const ExpertChoice& c : chosen_experts(probe, l, n_layer)) {
            if (c.id < 0 || c.id >= n_expert) return std::nullopt;
            sum[static_cast<size_t>(expert_map.subsystem_of(l, c.id))] += c.weight;
            total += c.weight;
        }
    }
    SubsystemValues v{};
    for (size_t s = 0; s < kSubsystemCount; ++s) v[s] = total > 0 ? static_cast<float>(sum[s] / total) : 0.0f;
    return v;
}

Result<TokenMetrics> token_metrics(const HeadMap& map, const TokenProbe& probe, std::span<const float> baseline_norms,
                                   int64_t n_router_groups, const HeadMap* expert_map) {
    TokenMetrics m;
    if (expert_map) m.experts = expert_share(*expert_map, probe);
    if (!probe.head_norms.empty()) {
        auto v = norm_share(map, probe.head_norms);
        if (!v) return v.error();
        m.norm_share = v.value();
        if (!baseline_norms.empty()) {
            auto r = relative_share(map, probe.head_norms, baseline_norms);
            if (!r) return r.error();
            m.relative = r.value();
        }
    }
    if (!probe.dla.empty()) {
        auto v = dla_share(map, probe.dla);
        if (!v) return v.error();
        m.dla = v.value();
    }
    if (!probe.gates.empty()) {
        auto v = gate_share(map, probe.gates, n_router_groups);
        if (!v) return v.error();
        m.gates = v.value();
    }
    return m;
}

GenerateRequest generate_request(const RunSpec& spec, const RunInputs& inputs) {
    GenerateRequest g;
    static_cast<GenerationSpec&>(g) = spec;
    g.prompt_ids.assign(inputs.prompt_ids.begin(), inputs.prompt_ids.end());
    g.cancel = inputs.cancel;
    return g;
}

Result<SessionOptions> instrumented_session_options(const Model& model, Backend& backend, const HeadMap& map,
                                                    KvStore& kv, const RunSpec& spec, const RunInputs& inputs) {
    // The pool's types are the model's as opened; a run may name them, not change them.
    if (const KvTypeChoice asked = kv_types_of(spec); asked.k.value_or(kv.types().k) != kv.types().k ||
                                                      asked.v.value_or(kv.types().v) != kv.types().v) {
        const auto name = [](std::optional<TensorType> t) { return t ? std::string(kv_type_name(*t)) : std::string("any"); };
        return make_error(ErrorCode::InvalidArgument,
                          "the run asks for a KV cache of keys " + name(asked.k) + ", values " + name(asked.v) +
                              " but the model was opened with keys " + name(kv.types().k) + ", values " +
                              name(kv.types().v) + " (open it with --kv-type-k / --kv-type-v)");
    }
    SessionOptions o;
    o.precision = spec.precision;
    o.cancel = inputs.cancel;
    o.kv = &kv;
    o.instrument.head_norms = true;
    o.instrument.dla = spec.dla;
    o.instrument.attention = spec.record_attention;
    o.reuse_with_attention = spec.attention_keeps_kv;
    o.instrument.router_probs = spec.record_router_probs;
    const ModelParams& params = model.params();
    std::vector<ExpertSwitch> expert_switches = spec.disabled_experts;
    std::array<bool, kSubsystemCount> disabled_heads = spec.disabled;
    if (spec.switch_target == SwitchTarget::Experts) { // the subsystems' experts instead of their heads
        if (!inputs.expert_map) {
            return make_error(ErrorCode::InvalidArgument, "switching subsystems' experts off needs an expert map "
                                                          "(octoscope-cli calibrate --experts)");
        }
        const HeadMap& m = inputs.expert_map->map;
        for (int64_t l = 0; l < m.n_layer(); ++l) {
            for (int64_t e = 0; e < m.n_head(); ++e) {
                if (spec.disabled[static_cast<size_t>(m.subsystem_of(l, e))]) expert_switches.push_back({l, e});
            }
        }
        disabled_heads = {};
    }
    auto experts = ablate_experts(expert_switches, params.n_layer, params.n_expert, params.n_expert_used);
    if (!experts) return experts.error();
    o.experts = std::move(experts.value());
    std::vector<float> baseline;
    const bool any_disabled = std::find(disabled_heads.begin(), disabled_heads.end(), true) != disabled_heads.end();
    if (any_disabled && spec.ablation_mode == AblationMode::Mean) {
        auto mean = mean_baseline(model, backend, kv, spec, inputs);
        if (!mean) return mean.error();
        baseline = std::move(mean.value());
    }
    o.ablation = ablate_subsystems(map, disabled_heads, spec.ablation_mode, std::move(baseline));
    return o;
}

RunMetrics::RunMetrics(const HeadMap& map, int64_t n_router_groups, const HeadMap* expert_map)
    : map_(map), n_router_groups_(n_router_groups), expert_map_(expert_map) {}

const std::vector<TokenMetrics>& RunMetrics::prompt(const std::vector<TokenProbe>& probes) {
    baseline_norms_ = relative_baseline(probes);
    prompt_.clear();
    for (const TokenProbe& p : probes) prompt_.push_back(token(p));
    return prompt_;
}

TokenMetrics RunMetrics::token(const TokenProbe& probe) {
    auto m = token_metrics(map_, probe, baseline_norms_, n_router_groups_, expert_map_);
    if (!m && !error_) error_ = m.error();
    return m ? std::move(m.value()) : TokenMetrics{};
}

Result<InstrumentedResult> run_instrumented(const Model& model, Backend& backend, const Tokenizer& tokenizer,
                                            const HeadMap& map, KvStore& kv, const RunSpec& spec,
                                            const RunInputs& inputs, const InstrumentedCallbacks& callbacks) {
    auto options = instrumented_session_options(model, backend, map, kv, spec, inputs);
    if (!options) return options.error();
    auto session = Session::create(model, backend, options.value());
    if (!session) return session.error();

    InstrumentedResult r;
    RunMetrics metrics(map, model.weights().n_router_groups, inputs.expert_map ? &inputs.expert_map->map : nullptr);
    GenerateRequest g = generate_request(spec, inputs);
    g.on_prompt = [&](const std::vector<TokenProbe>& probes) {
        r.prompt_metrics = metrics.prompt(probes);
        if (callbacks.on_prompt) callbacks.on_prompt(probes, r.prompt_metrics);
    };
    auto generation = generate(*session.value(), tokenizer, g, [&](const TokenEvent& e) {
        r.token_metrics.push_back(metrics.token(e.probe));
        if (callbacks.on_token) callbacks.on_token(e, r.token_metrics.back());
    });
    if (!generation) return generation.error();
    if (metrics.error()) return *metrics.error();

    r.generation = std::move(generation.value());
    r.default_metric = default_metric(model);
    r.precision = session.value()->precision();
    r.kv_types = kv.types();
    r.kv = kv.pool().stats();
    r.kv_blocks = kv.pool().block_states();
    return r;
}

} // namespace octo
