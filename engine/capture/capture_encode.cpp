#include "engine/capture/capture_fields.h"
#include "engine/capture/capture_payload.h"
#include "engine/capture/run_spec_json.h"

namespace octo {

using nlohmann::json;

namespace {

json bytes_value(const std::string& s) { return json::binary(std::vector<uint8_t>(s.begin(), s.end())); }

json model_json(const ModelDescription& m) {
    return {{"file_name", m.file_name}, {"path", m.path},         {"size", m.size},
            {"sha256", m.sha256},       {"name", m.name},         {"architecture", m.architecture},
            {"n_layer", m.n_layer},     {"n_head", m.n_head},     {"n_embd", m.n_embd},
            {"n_params", m.n_params},   {"n_ctx", m.n_ctx},       {"router_groups", m.router_groups},
            {"n_expert", m.n_expert},   {"n_expert_used", m.n_expert_used}};
}

json head_map_json(const std::optional<HeadMap>& map) {
    if (!map) return nullptr;
    return {{"source", head_map_source_name(map->source())}, {"path", map->path()}, {"map", map->to_json()}};
}

json probe_json(const TokenProbe& p) {
    return {{"head_norms", f32_blob(p.head_norms)}, {"head_outputs", f32_blob(p.head_outputs)},
            {"dla", f32_blob(p.dla)},               {"dla_target", p.dla_target},
            {"final_inv_rms", p.final_inv_rms},     {"gates", f32_blob(p.gates)},
            {"attention", f32_blob(p.attention)},   {"attention_sink", f32_blob(p.attention_sink)},
            {"hidden", f32_blob(p.hidden)},
            {"expert_ids", p.expert_ids},           {"expert_weights", f32_blob(p.expert_weights)},
            {"shared_gate", f32_blob(p.shared_gate)}, {"router_probs", f32_blob(p.router_probs)}};
}

json metrics_json_blobs(const TokenMetrics& m) {
    json out = json::object();
    for (Metric metric : kAllMetrics) {
        if (const auto& v = m.get(metric)) out[metric_name(metric)] = f32_blob(*v);
    }
    return out;
}

json token_json(const TraceToken& t) {
    const TokenLogprobs logprobs = t.logprobs.value_or(TokenLogprobs{});
    json top = json::array();
    for (const auto& alt : logprobs.top) top.push_back(json::array({alt.id, alt.logprob}));
    json out = {{"id", t.id},          {"bytes", bytes_value(t.bytes)}, {"visible_text", bytes_value(t.visible_text)},
                {"logprob", t.logprobs ? json(logprobs.logprob) : json(nullptr)}, {"top", top}, {"ms", t.ms},
                {"probe", probe_json(t.probe)}, {"metrics", metrics_json_blobs(t.metrics)}};
    if (t.constraint) { // a constrained run (structured output): what the grammar's mask did here
        json removed = json::array();
        for (const auto& r : t.constraint->removed) removed.push_back(json::array({r.id, r.logprob}));
        out["constraint"] = {{"removed_mass", t.constraint->removed_mass},
                             {"removed", std::move(removed)},
                             {"removed_dla", f32_blob(t.constraint->removed_dla)},
                             {"mask_ms", t.constraint->mask_ms}};
    }
    return out;
}

json kv_json(const KvPoolStats& kv) {
    json sequences = json::array();
    for (const auto& s : kv.sequences) {
        sequences.push_back(json::array({s.seq, s.tokens, s.blocks, s.shared_blocks, s.reused_tokens}));
    }
    return {{"block_size", kv.block_size},       {"blocks_total", kv.blocks_total}, {"blocks_used", kv.blocks_used},
            {"blocks_cached", kv.blocks_cached}, {"blocks_free", kv.blocks_free},   {"blocks_shared", kv.blocks_shared},
            {"evictions", kv.evictions},         {"block_copies", kv.block_copies}, {"sequences", sequences}};
}

json route_json(const std::optional<RouteDecision>& route) {
    if (!route) return nullptr;
    json top3 = json::array();
    for (const auto& c : route->top3) top3.push_back(json::array({c.subsystem, c.stage1, c.stage2, c.final_score}));
    json features = json::array();
    for (const auto& f : route->features) {
        json spans = json::array();
        for (const auto& s : f.spans) spans.push_back(json::array({s.start, s.end}));
        features.push_back({{"id", f.id}, {"subsystem", f.subsystem}, {"value", f.value}, {"weight", f.weight},
                            {"spans", spans}});
    }
    return {{"route", route->route},           {"stage1_route", route->stage1_route},
            {"top3", top3},                    {"similarity", f32_blob(route->similarity)},
            {"composition", route->composition}, {"features", features}};
}

json finding_json(const Finding& f) {
    return {{"rule", f.rule},           {"subsystem", f.subsystem},
            {"severity", severity_name(f.severity)}, {"place", finding_place_name(f.place)},
            {"start", f.start},         {"end", f.end},
            {"evidence", bytes_value(f.evidence)}, {"detail", bytes_value(f.detail.en)}, {"detail_zh", bytes_value(f.detail.zh)},
            {"source", rule_source_name(f.source)}};
}

} // namespace

json encode_capture(const Capture& c) {
    const RunTrace& t = c.trace;
    const RunOutcome g = t.outcome.value_or(RunOutcome{}); // serialize_capture refuses a run without one
    json prompt_tokens = json::array();
    json prompt_probes = json::array();
    json prompt_metrics = json::array();
    for (const TraceToken& p : t.prompt()) {
        prompt_tokens.push_back({{"id", p.id}, {"bytes", bytes_value(p.bytes)}});
        prompt_probes.push_back(probe_json(p.probe));
        prompt_metrics.push_back(metrics_json_blobs(p.metrics));
    }
    json tokens = json::array();
    for (const TraceToken& token : t.generated()) tokens.push_back(token_json(token));
    std::vector<uint8_t> kv_blocks;
    for (KvBlockState s : g.kv_blocks) kv_blocks.push_back(static_cast<uint8_t>(s));
    json kv_history = json::array();
    for (const auto& s : g.kv_history) {
        kv_history.push_back(json::array({s.step, s.blocks_used, s.blocks_cached, s.blocks_free, s.blocks_shared, s.sequences}));
    }
    json findings = json::array();
    for (const auto& f : c.findings) findings.push_back(finding_json(f));
    json notes = json::array();
    for (const auto& [index, text] : c.notes) notes.push_back(json::array({index, bytes_value(text)}));
    // [[position, chosen, [[[[token, prob], …], rank, prob] per layer], [[token, text], …]], …]
    json lenses = json::array();
    for (const auto& [position, named] : c.lenses) {
        json layers = json::array();
        for (const LensLayer& layer : named.lens.layers) {
            json top = json::array();
            for (const LensEntry& e : layer.top) top.push_back(json::array({e.token, e.prob}));
            layers.push_back(json::array({top, layer.chosen_rank, layer.chosen_prob}));
        }
        json texts = json::array();
        for (const auto& [id, text] : named.texts) texts.push_back(json::array({id, bytes_value(text)}));
        lenses.push_back(json::array({position, named.lens.chosen, layers, texts}));
    }
    json engine = nullptr;
    if (c.engine) {
        engine = {{"url", c.engine->url}, {"model", c.engine->model}, {"fingerprint", c.engine->fingerprint},
                  {"octoscope", c.engine->octoscope}};
    }
    return {{"model", model_json(c.model)},
            {"engine", engine},
            {"app_version", c.app_version},
            {"backend", c.backend},
            {"device", c.device},
            {"settings", run_spec_json(t.repeat_spec(), ByteStrings::Binary)}, // the precision taken: a replay repeats it
            {"head_map", head_map_json(c.head_map)},
            {"prompt_text", bytes_value(t.prompt_text)},
            {"prompt_tokens", prompt_tokens},
            {"prompt_probes", prompt_probes},
            {"prompt_metrics", prompt_metrics},
            {"tokens", tokens},
            {"text", bytes_value(g.text)},
            {"stop_reason", stop_reason_name(g.stop_reason)},
            {"prefill_ms", g.prefill_ms},
            {"decode_ms", g.decode_ms},
            {"n_decoded", g.n_decoded},
            {"reused_tokens", g.reused_tokens},
            {"evaluated_tokens", g.evaluated_tokens},
            {"default_metric", metric_name(t.default_metric)},
            {"kv", kv_json(g.kv)},
            {"kv_blocks", json::binary(std::move(kv_blocks))},
            {"kv_history", kv_history},
            {"route", route_json(c.route)},
            {"findings", findings},
            {"notes", notes},
            {"lenses", lenses}};
}

} // namespace octo
