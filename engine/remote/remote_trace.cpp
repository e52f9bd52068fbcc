#include "engine/remote/remote_trace.h"

#include <algorithm>

#include "engine/core/json_fields.h"
#include "engine/instrumentation/subsystem.h"

namespace octo::remote {

namespace {

using nlohmann::json;

std::optional<SubsystemValues>* slot(TokenMetrics& m, Metric metric) {
    switch (metric) {
    case Metric::NormShare: return &m.norm_share;
    case Metric::Relative: return &m.relative;
    case Metric::Dla: return &m.dla;
    case Metric::Gates: return &m.gates;
    case Metric::Experts: return &m.experts;
    }
    return nullptr;
}

// The extension's {"norm_share": [8 numbers], …}; anything else is left out.
TokenMetrics metrics_of(const json& metrics) {
    TokenMetrics out;
    if (!metrics.is_object()) return out;
    for (const Metric metric : kAllMetrics) {
        const auto it = metrics.find(metric_name(metric));
        if (it == metrics.end() || !it->is_array() || it->size() != kSubsystemCount) continue;
        SubsystemValues v{};
        bool numbers = true;
        for (size_t s = 0; s < v.size() && numbers; ++s) {
            numbers = (*it)[s].is_number();
            if (numbers) v[s] = (*it)[s].get<float>();
        }
        if (numbers) *slot(out, metric) = v;
    }
    return out;
}

std::vector<float> floats_of(const json& v) {
    std::vector<float> out;
    if (!v.is_array()) return out;
    for (const json& x : v) {
        if (!x.is_number()) return {};
        out.push_back(x.get<float>());
    }
    return out;
}

std::optional<StopReason> stop_reason_of(const std::string& name) {
    for (const StopReason r : {StopReason::MaxTokens, StopReason::EndOfGeneration, StopReason::StopString, StopReason::ContextFull,
                               StopReason::Cancelled}) {
        if (name == stop_reason_name(r)) return r;
    }
    return std::nullopt;
}

} // namespace

std::vector<TraceToken> prompt_tokens(const json& extension) {
    std::vector<TraceToken> out;
    const auto p = extension.is_object() ? extension.find("prompt") : extension.end();
    if (!extension.is_object() || p == extension.end() || !p->is_object()) return out;
    const json& ids = json_member(*p, "ids");
    const json& pieces = json_member(*p, "pieces");
    const json& metrics = json_member(*p, "metrics");
    for (size_t i = 0; ids.is_array() && i < ids.size(); ++i) {
        if (!ids[i].is_number_integer()) break;
        TraceToken token;
        token.id = ids[i].get<int32_t>();
        if (pieces.is_array() && i < pieces.size() && pieces[i].is_string()) token.bytes = pieces[i].get<std::string>();
        if (metrics.is_array() && i < metrics.size()) token.metrics = metrics_of(metrics[i]);
        out.push_back(std::move(token));
    }
    return out;
}

TraceToken trace_token(const RemoteToken& r, double previous_arrival_ms) {
    TraceToken token;
    token.generated = true;
    token.id = r.id.value_or(-1);
    if (!r.id && json_member(r.octoscope, "id").is_number_integer()) {
        token.id = r.octoscope["id"].get<int32_t>();
    }
    token.bytes = r.text;
    token.visible_text = r.text;
    token.ms = r.arrival_ms - previous_arrival_ms;
    if (r.logprob) {
        TokenLogprobs lp{*r.logprob, {}};
        for (const RemoteAlternative& a : r.top) {
            if (a.id) lp.top.push_back({*a.id, a.logprob});
        }
        token.logprobs = std::move(lp);
    }
    if (r.octoscope.is_object()) {
        token.metrics = metrics_of(json_member(r.octoscope, "metrics"));
        token.probe.head_norms = floats_of(json_member(r.octoscope, "heads"));
    }
    return token;
}

RunOutcome outcome_of_remote_run(const RunSpec& spec, const RemoteResult& result) {
    const json& ext = result.octoscope.is_object() ? result.octoscope : json::object();
    RunOutcome o;
    o.text = result.text;
    // An Octoscope server names the reason; another says "stop" for an end-of-generation token and
    // for a stop string alike, taken as the stop string when the run had any.
    const auto named = stop_reason_of(json_string_or(ext, "stop_reason"));
    o.stop_reason = named ? *named
                    : result.finish_reason == "stop" ? (spec.stop_strings.empty() ? StopReason::EndOfGeneration : StopReason::StopString)
                                                     : StopReason::MaxTokens;
    o.fingerprint = result.fingerprint;
    o.prefill_ms = result.ttft_ms;
    o.decode_ms = std::max(0.0, result.total_ms - result.ttft_ms);
    o.n_decoded = static_cast<int64_t>(result.tokens.size());
    if (const auto kv = ext.find("kv"); kv != ext.end() && kv->is_object()) {
        o.reused_tokens = json_integer_or(*kv, "reused_tokens", 0);
        o.evaluated_tokens = json_integer_or(*kv, "evaluated_tokens", 0);
        // The server's pool as the run left it: its totals only (no history, no block states).
        const auto count = [&](const char* key) {
            const auto it = kv->find(key);
            return it != kv->end() && it->is_number_integer() ? std::max<int32_t>(0, it->get<int32_t>()) : 0;
        };
        o.kv.block_size = count("block_size");
        o.kv.blocks_total = count("blocks_total");
        o.kv.blocks_used = std::min(count("blocks_used"), o.kv.blocks_total);
        o.kv.blocks_cached = std::min(count("blocks_cached"), o.kv.blocks_total - o.kv.blocks_used);
        o.kv.blocks_free = o.kv.blocks_total - o.kv.blocks_used - o.kv.blocks_cached;
    }
    return o;
}

RunTrace trace_of_remote_run(const RunSpec& spec, const RemoteResult& result) {
    RunTrace t;
    t.spec = spec;
    t.precision = Precision::Exact;
    const json& ext = result.octoscope.is_object() ? result.octoscope : json::object();
    if (auto m = parse_metric(json_string_or(ext, "metric")); m) t.default_metric = *m;
    t.tokens = prompt_tokens(ext);
    for (const TraceToken& p : t.tokens) t.prompt_text += p.bytes;
    t.n_prompt = t.tokens.size();
    double previous_ms = 0.0;
    for (const RemoteToken& r : result.tokens) {
        t.tokens.push_back(trace_token(r, previous_ms));
        previous_ms = r.arrival_ms;
    }
    t.outcome = outcome_of_remote_run(spec, result);
    return t;
}

json disabled_ids(const std::array<bool, kSubsystemCount>& disabled) {
    json off = json::array();
    for (int s = 0; s < kSubsystemCount; ++s) {
        if (disabled[static_cast<size_t>(s)]) off.push_back(subsystem_id(s));
    }
    return off;
}

Status check_spec_for_server(const RunSpec& spec, const RemoteModel& model, const std::string& metric, const std::string& engine) {
    const bool internals = std::any_of(spec.disabled.begin(), spec.disabled.end(), [](bool b) { return b; }) || !metric.empty() ||
                           spec.dla || spec.ablation_mode != AblationMode::Zero;
    if (internals && !model.octoscope) {
        return make_error(ErrorCode::InvalidArgument,
                          "--disable, --ablation, --metric and --attribution need a local model or an Octoscope server; " + engine +
                              " is another OpenAI-compatible server");
    }
    return Ok{};
}

RemoteRequest request_for_spec(const RunSpec& spec, const RemoteModel& model, const std::string& metric, bool heads) {
    RemoteRequest r;
    r.chat = spec.chat || !spec.messages.empty();
    if (!spec.messages.empty()) { // a whole conversation is the prompt (PromptSpec)
        r.messages = spec.messages;
    } else if (spec.chat) {
        if (!spec.system.empty()) r.messages.push_back({ChatRole::System, spec.system});
        r.messages.push_back({ChatRole::User, spec.prompt});
    } else {
        r.prompt = spec.prompt;
    }
    r.model = model.id;
    r.max_tokens = spec.max_tokens;
    r.sampling = spec.sampling;
    r.stop = spec.stop_strings;
    r.json_schema = spec.json_schema;
    r.grammar = spec.grammar;
    if (!spec.messages.empty()) {
        r.tools = spec.tools;
        r.tool_choice = spec.tool_choice;
    }
    if (model.octoscope) {
        json ext = {{"disable", disabled_ids(spec.disabled)}, {"ablation", ablation_mode_name(spec.ablation_mode)}, {"dla", spec.dla}, {"prompt", true}};
        if (!metric.empty()) ext["metric"] = metric;
        if (heads) ext["heads"] = true;
        r.octoscope = std::move(ext);
    }
    return r;
}

} // namespace octo::remote
