#include "engine/remote/remote_trace.h"

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

RunTrace trace_of_remote_run(const RunSpec& spec, const RemoteResult& result) {
    RunTrace t;
    t.spec = spec;
    t.precision = Precision::Exact;
    const json& ext = result.octoscope.is_object() ? result.octoscope : json::object();
    if (auto m = parse_metric(ext.value("metric", std::string())); m) t.default_metric = *m;

    // The prompt (an Octoscope server asked for it).
    if (const auto p = ext.find("prompt"); p != ext.end() && p->is_object()) {
        const json ids = p->value("ids", json::array());
        const json pieces = p->value("pieces", json::array());
        const json metrics = p->value("metrics", json::array());
        for (size_t i = 0; ids.is_array() && i < ids.size(); ++i) {
            if (!ids[i].is_number_integer()) break;
            TraceToken token;
            token.id = ids[i].get<int32_t>();
            if (pieces.is_array() && i < pieces.size() && pieces[i].is_string()) token.bytes = pieces[i].get<std::string>();
            if (metrics.is_array() && i < metrics.size()) token.metrics = metrics_of(metrics[i]);
            t.prompt_text += token.bytes;
            t.tokens.push_back(std::move(token));
        }
    }
    t.n_prompt = t.tokens.size();

    double previous_ms = 0.0;
    for (const RemoteToken& r : result.tokens) {
        TraceToken token;
        token.generated = true;
        token.id = r.id.value_or(-1);
        if (!r.id && r.octoscope.is_object() && r.octoscope.value("id", json()).is_number_integer()) {
            token.id = r.octoscope["id"].get<int32_t>();
        }
        token.bytes = r.text;
        token.visible_text = r.text;
        token.ms = r.arrival_ms - previous_ms;
        previous_ms = r.arrival_ms;
        if (r.logprob) {
            TokenLogprobs lp{*r.logprob, {}};
            for (const RemoteAlternative& a : r.top) {
                if (a.id) lp.top.push_back({*a.id, a.logprob});
            }
            token.logprobs = std::move(lp);
        }
        if (r.octoscope.is_object()) {
            token.metrics = metrics_of(r.octoscope.value("metrics", json::object()));
            token.probe.head_norms = floats_of(r.octoscope.value("heads", json::array()));
        }
        t.tokens.push_back(std::move(token));
    }

    RunOutcome& o = t.outcome.emplace();
    o.text = result.text;
    // An Octoscope server names the reason; another says "stop" for an end-of-generation token and
    // for a stop string alike, taken as the stop string when the run had any.
    const auto named = stop_reason_of(ext.value("stop_reason", std::string()));
    o.stop_reason = named ? *named
                    : result.finish_reason == "stop" ? (spec.stop_strings.empty() ? StopReason::EndOfGeneration : StopReason::StopString)
                                                     : StopReason::MaxTokens;
    o.prefill_ms = result.ttft_ms;
    o.decode_ms = std::max(0.0, result.total_ms - result.ttft_ms);
    o.n_decoded = static_cast<int64_t>(result.tokens.size());
    if (const auto kv = ext.find("kv"); kv != ext.end() && kv->is_object()) {
        o.reused_tokens = kv->value("reused_tokens", int64_t{0});
        o.evaluated_tokens = kv->value("evaluated_tokens", int64_t{0});
    }
    return t;
}

} // namespace octo::remote
