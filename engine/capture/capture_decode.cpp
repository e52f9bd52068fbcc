#include <initializer_list>
#include <optional>

#include "engine/capture/capture_fields.h"
#include "engine/capture/capture_payload.h"
#include "engine/capture/run_spec_json.h"

namespace octo {

using nlohmann::json;

namespace {

constexpr int64_t kMaxDim = 1 << 16;          // layers, heads, router groups
constexpr int64_t kMaxEmbd = 1 << 20;
constexpr size_t kMaxItems = size_t{1} << 26; // tokens, blocks, history samples …
constexpr size_t kMaxTop = 64;                // alternatives per token
constexpr int64_t kMaxId = (int64_t{1} << 31) - 1;

// A fixed-length array of numbers (tuples such as KV history samples).
bool number_tuple(const json& item, size_t n) {
    if (!item.is_array() || item.size() != n) return false;
    for (const auto& v : item) {
        if (!v.is_number()) return false;
    }
    return true;
}

// Integer element k of a tuple checked by number_tuple, or `bad` set when it is not an integer in range.
int64_t tuple_int(const json& item, size_t k, int64_t min, int64_t max, bool& bad) {
    const json& v = item[k];
    if (!v.is_number_integer()) {
        bad = true;
        return 0;
    }
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(max)) {
        bad = true;
        return 0;
    }
    const int64_t x = v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
    if (x < min || x > max) bad = true;
    return x;
}

SubsystemValues subsystem_values(FieldReader& r, const char* key) {
    SubsystemValues out{};
    auto v = r.floats(key, kSubsystemCount);
    if (r.ok() && v.size() != kSubsystemCount) r.fail(key, "does not hold 8 values");
    if (r.ok()) std::copy(v.begin(), v.end(), out.begin());
    return out;
}

const json& json_empty_array() {
    static const json empty = json::array();
    return empty;
}

class Decoder {
public:
    Decoder(const json& root, uint32_t version, std::string& error)
        : json_(root), root_(root, "", error), error_(error), version_(version) {}

    Capture decode() {
        Capture c;
        decode_engine(c);
        decode_model(c.model, c.engine ? 0 : 1);
        c.app_version = root_.text("app_version");
        c.backend = root_.text("backend");
        c.device = root_.text("device");
        decode_settings(c.trace.spec);
        c.trace.precision = c.trace.spec.precision.value_or(Precision::Exact);
        // A local run's KV types: "default" or absent (files written before the default was F16)
        // means F32. A server's cache is its own.
        if (!c.engine) {
            RunSpec& s = c.trace.spec;
            s.kv_type_k = s.kv_type_k.value_or(TensorType::F32);
            s.kv_type_v = s.kv_type_v.value_or(TensorType::F32);
            c.trace.kv_types = KvTypes{*s.kv_type_k, *s.kv_type_v};
        }
        decode_head_map(c);
        c.trace.prompt_text = root_.bytes("prompt_text");
        decode_prompt(c);
        decode_tokens(c);
        decode_run_summary(c);
        if (c.engine) c.trace.outcome->fingerprint = c.engine->fingerprint; // kept once, in `engine`
        decode_kv(c);
        decode_route(c);
        decode_findings(c);
        decode_notes(c);
        if (root_.has("lenses")) decode_lenses(c); // absent in captures from before the logit lens
        return c;
    }

private:
    FieldReader reader(const std::string& path, const json& j) { return FieldReader(j, path, error_); }

    void decode_engine(Capture& c) {
        if (version_ < 3) return; // before remote runs: a local run
        if (!json_.contains("engine")) return root_.fail("engine", "is missing");
        if (!root_.has("engine")) return; // null: a local run
        FieldReader r = reader("engine", root_.object("engine"));
        CaptureEngine& e = c.engine.emplace();
        e.url = r.text("url");
        e.model = r.text("model");
        e.fingerprint = r.text("fingerprint");
        e.octoscope = r.boolean("octoscope");
    }

    // `min_dim`: 1 for a local run; 0 for a remote one, whose server may tell nothing of its model.
    void decode_model(ModelDescription& m, int64_t min_dim) {
        FieldReader r = reader("model", root_.object("model"));
        m.file_name = r.text("file_name");
        m.path = r.text("path");
        m.size = r.unsigned_integer("size");
        m.sha256 = r.text("sha256");
        m.name = r.text("name");
        m.architecture = r.text("architecture");
        m.n_layer = r.integer("n_layer", min_dim, kMaxDim);
        m.n_head = r.integer("n_head", min_dim, kMaxDim);
        m.n_embd = r.integer("n_embd", 0, kMaxEmbd);
        m.n_params = r.integer("n_params", 0);
        m.n_ctx = r.integer("n_ctx", 0, kMaxId);
        m.router_groups = r.integer("router_groups", 0, kMaxDim);
        if (r.has("n_expert")) { // written since mixtures of experts ran (absent: a dense model)
            m.n_expert = r.integer("n_expert", 0, kMaxDim);
            m.n_expert_used = r.integer("n_expert_used", 0, m.n_expert);
        }
        if (r.ok() && m.n_layer * m.n_head > kMaxEmbd) r.fail("n_head", "times n_layer is over " + std::to_string(kMaxEmbd));
        per_head_ = static_cast<size_t>(m.n_layer * m.n_head);
        n_embd_ = static_cast<size_t>(m.n_embd);
        gates_ = static_cast<size_t>(m.n_layer * m.router_groups);
        n_layer_ = static_cast<size_t>(m.n_layer);
        n_expert_ = m.n_expert;
        routing_ = static_cast<size_t>(m.n_layer * m.n_expert_used);
    }

    // Fields newer than the format may be absent (they keep RunSpec's defaults); version 1
    // predates the precision choice: its runs kept activations in float.
    void decode_settings(RunSpec& s) {
        FieldReader r = reader("settings", root_.object("settings"));
        if (version_ < 2) s.precision = Precision::Exact;
        const uint32_t version = version_;
        read_run_spec(r, s, [version](std::string_view key) {
            return key == "disabled_experts" || key == "record_router_probs" || key == "attention_keeps_kv" || key == "switch_target" ||
                   key == "enable_thinking" || key == "reasoning_effort" || key == "messages" || key == "top_logprobs" || key == "kv_type_k" ||
                   key == "kv_type_v" || key == "frequency_penalty" || key == "presence_penalty" || key == "logit_bias" || key == "grammar" ||
                   key == "json_schema" || key == "tools" || key == "tool_choice" ||
                   (key == "precision" && version < 2);
        });
    }

    // An optional part: present, or null when absent (missing is an error).
    bool present(const char* key) {
        if (root_.has(key)) return true;
        if (root_.ok() && !json_.contains(key)) root_.fail(key, "is missing");
        return false;
    }

    void decode_head_map(Capture& c) {
        if (!present("head_map")) return;
        FieldReader r = reader("head_map", root_.object("head_map"));
        const HeadMapSource source = enum_field(r, "source",
                                                {HeadMapSource::Default, HeadMapSource::File, HeadMapSource::Gguf,
                                                 HeadMapSource::Calibrated},
                                                head_map_source_name);
        std::string path = r.text("path");
        const json& doc = r.object("map");
        if (!r.ok()) return;
        if (c.model.n_layer < 1 || c.model.n_head < 1) return r.fail("map", "needs the model's n_layer and n_head");
        auto map = HeadMap::from_json(doc, c.model.n_layer, c.model.n_head, source, std::move(path));
        if (!map) r.fail("map", "is not a valid head map: " + map.error().message);
        else c.head_map = std::move(map.value());
    }

    TokenProbe decode_probe(const std::string& path, const json& j, size_t position) {
        FieldReader r = reader(path, j);
        TokenProbe p;
        p.head_norms = sized_floats(r, "head_norms", {0, per_head_});
        p.dla = sized_floats(r, "dla", {0, per_head_});
        p.gates = sized_floats(r, "gates", {0, gates_});
        p.attention = sized_floats(r, "attention", {0, per_head_ * (position + 1)});
        if (r.has("attention_sink")) p.attention_sink = sized_floats(r, "attention_sink", {0, per_head_}); // gpt-oss (absent before)
        p.hidden = sized_floats(r, "hidden", {0, n_embd_});
        p.head_outputs = r.floats("head_outputs", per_head_ * std::max<size_t>(n_embd_, 1));
        if (r.ok() && (per_head_ == 0 ? !p.head_outputs.empty() : p.head_outputs.size() % per_head_ != 0)) {
            r.fail("head_outputs", "is not n_layer × n_head × head_dim floats");
        }
        p.dla_target = static_cast<int32_t>(r.integer("dla_target", -1, kMaxId));
        p.final_inv_rms = static_cast<float>(r.number("final_inv_rms"));
        if (r.has("expert_ids")) { // mixture-of-experts routing (absent in older captures)
            const json& ids = r.array("expert_ids", routing_);
            if (r.ok() && ids.size() != 0 && ids.size() != routing_) {
                r.fail("expert_ids", "holds " + std::to_string(ids.size()) + " ids, expected " + std::to_string(routing_));
            }
            for (size_t i = 0; i < ids.size() && r.ok(); ++i) {
                // -1: a layer without experts (deepseek2's leading dense blocks)
                if (!ids[i].is_number_integer() || ids[i].get<int64_t>() < -1 || ids[i].get<int64_t>() >= n_expert_) {
                    r.fail("expert_ids", "item " + std::to_string(i) + " is not an expert of the model (or -1)");
                } else {
                    p.expert_ids.push_back(ids[i].get<int32_t>());
                }
            }
            p.expert_weights = sized_floats(r, "expert_weights", {0, routing_});
            p.shared_gate = sized_floats(r, "shared_gate", {0, n_layer_});
            p.router_probs = sized_floats(r, "router_probs", {0, n_layer_ * static_cast<size_t>(n_expert_)});
        }
        return p;
    }

    std::vector<float> sized_floats(FieldReader& r, const char* key, std::initializer_list<size_t> allowed) {
        auto v = r.floats(key, std::max(allowed));
        if (!r.ok()) return {};
        for (size_t n : allowed) {
            if (v.size() == n) return v;
        }
        std::string sizes;
        for (size_t n : allowed) sizes += (sizes.empty() ? "" : " or ") + std::to_string(n);
        r.fail(key, "holds " + std::to_string(v.size()) + " floats, expected " + sizes);
        return {};
    }

    TokenMetrics decode_metrics(const std::string& path, const json& j) {
        FieldReader r = reader(path, j);
        TokenMetrics m;
        if (r.has("norm_share")) m.norm_share = subsystem_values(r, "norm_share");
        if (r.has("relative")) m.relative = subsystem_values(r, "relative");
        if (r.has("dla")) m.dla = subsystem_values(r, "dla");
        if (r.has("gates")) m.gates = subsystem_values(r, "gates");
        if (r.has("experts")) m.experts = subsystem_values(r, "experts");
        return m;
    }

    void decode_prompt(Capture& c) {
        const json& tokens = root_.array("prompt_tokens", kMaxItems);
        for (size_t i = 0; i < tokens.size() && root_.ok(); ++i) {
            FieldReader r = reader(root_.child("prompt_tokens", i), tokens[i]);
            TraceToken t;
            t.id = static_cast<int32_t>(r.integer("id", 0, kMaxId));
            t.bytes = r.bytes("bytes");
            c.trace.tokens.push_back(std::move(t));
        }
        const size_t n_prompt = c.trace.tokens.size();
        c.trace.n_prompt = n_prompt;
        const json& probes = root_.array("prompt_probes", kMaxItems);
        if (root_.ok() && probes.size() != 0 && probes.size() != n_prompt) {
            root_.fail("prompt_probes", "has " + std::to_string(probes.size()) + " items for " + std::to_string(n_prompt) + " prompt tokens");
        }
        for (size_t i = 0; i < probes.size() && root_.ok(); ++i) {
            c.trace.tokens[i].probe = decode_probe(root_.child("prompt_probes", i), probes[i], i);
        }
        const json& metrics = root_.array("prompt_metrics", kMaxItems);
        if (root_.ok() && metrics.size() != 0 && metrics.size() != n_prompt) {
            root_.fail("prompt_metrics", "has " + std::to_string(metrics.size()) + " items for " + std::to_string(n_prompt) + " prompt tokens");
        }
        for (size_t i = 0; i < metrics.size() && root_.ok(); ++i) {
            c.trace.tokens[i].metrics = decode_metrics(root_.child("prompt_metrics", i), metrics[i]);
        }
    }

    void decode_tokens(Capture& c) {
        const size_t n_prompt = c.trace.n_prompt;
        const json& tokens = root_.array("tokens", kMaxItems);
        for (size_t i = 0; i < tokens.size() && root_.ok(); ++i) {
            const std::string path = root_.child("tokens", i);
            FieldReader r = reader(path, tokens[i]);
            TraceToken e;
            e.generated = true;
            // A remote run (`engine`): a server may send neither ids (-1) nor log-probabilities (null).
            e.id = static_cast<int32_t>(r.integer("id", c.engine ? -1 : 0, kMaxId));
            e.bytes = r.bytes("bytes");
            e.visible_text = r.bytes("visible_text");
            TokenLogprobs& logprobs = e.logprobs.emplace();
            if (c.engine && !r.has("logprob")) {
                e.logprobs.reset();
            } else {
                logprobs.logprob = r.number("logprob");
            }
            const json& top = e.logprobs ? r.array("top", kMaxTop) : json_empty_array();
            for (size_t k = 0; k < top.size() && r.ok(); ++k) {
                bool bad = !number_tuple(top[k], 2);
                const int64_t id = bad ? 0 : tuple_int(top[k], 0, 0, kMaxId, bad);
                if (bad) r.fail("top", "item " + std::to_string(k) + " is not [id, logprob]");
                else e.logprobs->top.push_back({static_cast<int32_t>(id), top[k][1].get<double>()});
            }
            e.ms = r.number("ms");
            // The token was chosen by position n_prompt - 1 + i.
            e.probe = decode_probe(path + ".probe", r.object("probe"), n_prompt + i - (n_prompt + i > 0 ? 1 : 0));
            e.metrics = decode_metrics(path + ".metrics", r.object("metrics"));
            if (r.has("constraint")) e.constraint = decode_constraint(path + ".constraint", r.object("constraint"));
            c.trace.tokens.push_back(std::move(e));
        }
    }

    // A generated token's constraint record (optional: runs without a grammar, older captures).
    ConstraintStep decode_constraint(const std::string& path, const json& j) {
        FieldReader r = reader(path, j);
        ConstraintStep step;
        step.removed_mass = r.number("removed_mass");
        if (r.ok() && !(step.removed_mass >= 0.0 && step.removed_mass <= 1.0 + 1e-9)) r.fail("removed_mass", "is not a probability");
        const json& removed = r.array("removed", kMaxTop);
        for (size_t k = 0; k < removed.size() && r.ok(); ++k) {
            bool bad = !number_tuple(removed[k], 2);
            const int64_t id = bad ? 0 : tuple_int(removed[k], 0, 0, kMaxId, bad);
            if (bad) r.fail("removed", "item " + std::to_string(k) + " is not [id, logprob]");
            else step.removed.push_back({static_cast<int32_t>(id), removed[k][1].get<double>()});
        }
        step.removed_dla = r.floats("removed_dla", static_cast<size_t>(kMaxId));
        step.mask_ms = r.number("mask_ms");
        return step;
    }

    void decode_run_summary(Capture& c) {
        RunOutcome& g = c.trace.outcome.emplace();
        g.text = root_.bytes("text");
        g.stop_reason = enum_field(root_, "stop_reason",
                                   {StopReason::MaxTokens, StopReason::EndOfGeneration, StopReason::StopString,
                                    StopReason::ContextFull, StopReason::Cancelled},
                                   stop_reason_name);
        g.prefill_ms = root_.number("prefill_ms");
        g.decode_ms = root_.number("decode_ms");
        g.n_decoded = root_.integer("n_decoded", 0);
        g.reused_tokens = root_.integer("reused_tokens", 0);
        g.evaluated_tokens = root_.integer("evaluated_tokens", 0);
        c.trace.default_metric = enum_field(root_, "default_metric",
                                          {Metric::NormShare, Metric::Relative, Metric::Dla, Metric::Gates, Metric::Experts}, metric_name);
    }

    void decode_kv(Capture& c) {
        KvPoolStats& kv = c.trace.outcome->kv;
        FieldReader r = reader("kv", root_.object("kv"));
        constexpr int64_t kMaxBlocks = int64_t{1} << 30;
        kv.block_size = static_cast<int32_t>(r.integer("block_size", 0, kMaxBlocks));
        kv.blocks_total = static_cast<int32_t>(r.integer("blocks_total", 0, kMaxBlocks));
        kv.blocks_used = static_cast<int32_t>(r.integer("blocks_used", 0, kMaxBlocks));
        kv.blocks_cached = static_cast<int32_t>(r.integer("blocks_cached", 0, kMaxBlocks));
        kv.blocks_free = static_cast<int32_t>(r.integer("blocks_free", 0, kMaxBlocks));
        kv.blocks_shared = static_cast<int32_t>(r.integer("blocks_shared", 0, kMaxBlocks));
        kv.evictions = r.integer("evictions", 0);
        kv.block_copies = r.integer("block_copies", 0);
        if (r.ok() && int64_t{kv.blocks_used} + kv.blocks_cached + kv.blocks_free != kv.blocks_total) {
            r.fail("blocks_total", "is not blocks_used + blocks_cached + blocks_free");
        }
        const json& sequences = r.array("sequences", kMaxItems);
        for (size_t i = 0; i < sequences.size() && r.ok(); ++i) {
            bool bad = !number_tuple(sequences[i], 5);
            KvSequenceStats s;
            if (!bad) {
                s.seq = static_cast<KvSeqId>(tuple_int(sequences[i], 0, 0, kMaxId, bad));
                s.tokens = static_cast<int32_t>(tuple_int(sequences[i], 1, 0, kMaxId, bad));
                s.blocks = static_cast<int32_t>(tuple_int(sequences[i], 2, 0, kMaxId, bad));
                s.shared_blocks = static_cast<int32_t>(tuple_int(sequences[i], 3, 0, kMaxId, bad));
                s.reused_tokens = static_cast<int32_t>(tuple_int(sequences[i], 4, 0, kMaxId, bad));
            }
            if (bad) r.fail("sequences", "item " + std::to_string(i) + " is not [seq, tokens, blocks, shared_blocks, reused_tokens]");
            else kv.sequences.push_back(s);
        }
        const std::string blocks = root_.bytes("kv_blocks");
        // Empty: a server's pool, which reports its totals but not each block.
        if (root_.ok() && r.ok() && !blocks.empty() && blocks.size() != static_cast<size_t>(kv.blocks_total)) {
            root_.fail("kv_blocks", "holds " + std::to_string(blocks.size()) + " blocks, kv.blocks_total is " + std::to_string(kv.blocks_total));
        }
        for (size_t i = 0; i < blocks.size() && root_.ok(); ++i) {
            const auto state = static_cast<uint8_t>(blocks[i]);
            if (state > static_cast<uint8_t>(KvBlockState::Cached)) root_.fail("kv_blocks", "block " + std::to_string(i) + " has an unknown state");
            else c.trace.outcome->kv_blocks.push_back(static_cast<KvBlockState>(state));
        }
        const json& history = root_.array("kv_history", kMaxItems);
        for (size_t i = 0; i < history.size() && root_.ok(); ++i) {
            bool bad = !number_tuple(history[i], 6);
            KvPoolSample s;
            if (!bad) {
                s.step = static_cast<uint64_t>(tuple_int(history[i], 0, 0, std::numeric_limits<int64_t>::max(), bad));
                s.blocks_used = static_cast<int32_t>(tuple_int(history[i], 1, 0, kMaxId, bad));
                s.blocks_cached = static_cast<int32_t>(tuple_int(history[i], 2, 0, kMaxId, bad));
                s.blocks_free = static_cast<int32_t>(tuple_int(history[i], 3, 0, kMaxId, bad));
                s.blocks_shared = static_cast<int32_t>(tuple_int(history[i], 4, 0, kMaxId, bad));
                s.sequences = static_cast<int32_t>(tuple_int(history[i], 5, 0, kMaxId, bad));
            }
            if (bad) root_.fail("kv_history", "item " + std::to_string(i) + " is not [step, used, cached, free, shared, sequences]");
            else c.trace.outcome->kv_history.push_back(s);
        }
    }

    void decode_route(Capture& c) {
        if (!present("route")) return;
        FieldReader r = reader("route", root_.object("route"));
        RouteDecision d;
        d.route = static_cast<int>(r.integer("route", 0, kSubsystemCount - 1));
        d.stage1_route = static_cast<int>(r.integer("stage1_route", 0, kSubsystemCount - 1));
        const json& top3 = r.array("top3", kSubsystemCount);
        for (size_t i = 0; i < top3.size() && r.ok(); ++i) {
            bool bad = !number_tuple(top3[i], 4);
            RouteCandidate cand;
            if (!bad) {
                cand.subsystem = static_cast<int>(tuple_int(top3[i], 0, 0, kSubsystemCount - 1, bad));
                cand.stage1 = top3[i][1].get<float>();
                cand.stage2 = top3[i][2].get<double>();
                cand.final_score = top3[i][3].get<double>();
            }
            if (bad) r.fail("top3", "item " + std::to_string(i) + " is not [subsystem, stage1, stage2, final]");
            else d.top3.push_back(cand);
        }
        d.similarity = subsystem_values(r, "similarity");
        const json& composition = r.array("composition", kSubsystemCount);
        if (r.ok() && !number_tuple(composition, kSubsystemCount)) r.fail("composition", "is not 8 numbers");
        for (size_t i = 0; i < kSubsystemCount && r.ok(); ++i) d.composition[i] = composition[i].get<double>();
        const json& features = r.array("features", kMaxItems);
        for (size_t i = 0; i < features.size() && r.ok(); ++i) {
            FieldReader f = reader(r.child("features", i), features[i]);
            FiredFeature feature;
            feature.id = f.text("id");
            feature.subsystem = static_cast<int>(f.integer("subsystem", 0, kSubsystemCount - 1));
            feature.value = f.number("value");
            feature.weight = f.number("weight");
            const json& spans = f.array("spans", kMaxItems);
            for (size_t k = 0; k < spans.size() && f.ok(); ++k) {
                bool bad = !number_tuple(spans[k], 2);
                const int64_t start = bad ? 0 : tuple_int(spans[k], 0, 0, std::numeric_limits<int64_t>::max(), bad);
                const int64_t end = bad ? 0 : tuple_int(spans[k], 1, start, std::numeric_limits<int64_t>::max(), bad);
                if (bad) f.fail("spans", "item " + std::to_string(k) + " is not [start, end] with start <= end");
                else feature.spans.push_back({static_cast<size_t>(start), static_cast<size_t>(end)});
            }
            d.features.push_back(std::move(feature));
        }
        if (r.ok()) c.route = std::move(d);
    }

    void decode_findings(Capture& c) {
        const json& findings = root_.array("findings", kMaxItems);
        for (size_t i = 0; i < findings.size() && root_.ok(); ++i) {
            FieldReader r = reader(root_.child("findings", i), findings[i]);
            Finding f;
            f.rule = r.text("rule");
            f.subsystem = static_cast<int>(r.integer("subsystem", 0, kSubsystemCount - 1));
            f.severity = enum_field(r, "severity", {Severity::Info, Severity::Warning, Severity::Error}, severity_name);
            f.place = enum_field(r, "place", {FindingPlace::Prompt, FindingPlace::Output}, finding_place_name);
            f.start = static_cast<size_t>(r.integer("start", 0));
            f.end = static_cast<size_t>(r.integer("end", static_cast<int64_t>(f.start)));
            f.evidence = r.bytes("evidence");
            f.detail.en = r.bytes("detail");
            if (r.has("detail_zh")) f.detail.zh = r.bytes("detail_zh"); // absent in captures from before it was written
            f.source = enum_field(r, "source", {RuleSource::Article, RuleSource::Project}, rule_source_name);
            c.findings.push_back(std::move(f));
        }
    }

    void decode_notes(Capture& c) {
        const int64_t n_sequence = static_cast<int64_t>(c.trace.tokens.size());
        const json& notes = root_.array("notes", kMaxItems);
        for (size_t i = 0; i < notes.size() && root_.ok(); ++i) {
            const json& n = notes[i];
            bool bad = !n.is_array() || n.size() != 2 || !n[1].is_binary() || !number_tuple(json::array({n[0]}), 1);
            const int64_t index = bad ? 0 : tuple_int(n, 0, 0, n_sequence - 1, bad);
            if (bad || c.notes.count(index)) {
                root_.fail("notes", "item " + std::to_string(i) + " is not [token index, text] with a new index below " + std::to_string(n_sequence));
            } else {
                c.notes.emplace(index, std::string(n[1].get_binary().begin(), n[1].get_binary().end()));
            }
        }
    }

    // [[position, chosen, [[[[token, prob], …], rank, prob] per layer], [[token, text], …]], …]
    void decode_lenses(Capture& c) {
        const int64_t n_sequence = static_cast<int64_t>(c.trace.tokens.size());
        const int64_t n_layer = c.model.n_layer;
        const json& lenses = root_.array("lenses", kMaxItems);
        for (size_t i = 0; i < lenses.size() && root_.ok(); ++i) {
            const json& l = lenses[i];
            bool bad = !l.is_array() || l.size() != 4 || !number_tuple(json::array({l[0], l[1]}), 2) || !l[2].is_array() || !l[3].is_array() ||
                       static_cast<int64_t>(l[2].size()) != n_layer;
            NamedLens named;
            const int64_t position = bad ? 0 : tuple_int(l, 0, 0, n_sequence - 1, bad);
            named.lens.position = position;
            named.lens.chosen = bad ? -1 : static_cast<int32_t>(tuple_int(l, 1, -1, kMaxId, bad));
            for (size_t k = 0; !bad && k < l[2].size(); ++k) {
                const json& layer = l[2][k];
                bad = !layer.is_array() || layer.size() != 3 || !layer[0].is_array() || layer[0].size() > kMaxTop ||
                      !number_tuple(json::array({layer[1], layer[2]}), 2);
                if (bad) break;
                LensLayer out;
                out.chosen_rank = tuple_int(layer, 1, 0, kMaxId, bad);
                out.chosen_prob = layer[2].get<float>();
                for (const json& e : layer[0]) {
                    bad = bad || !number_tuple(e, 2);
                    if (bad) break;
                    out.top.push_back({static_cast<int32_t>(tuple_int(e, 0, 0, kMaxId, bad)), e[1].get<float>()});
                }
                named.lens.layers.push_back(std::move(out));
            }
            for (size_t k = 0; !bad && k < l[3].size(); ++k) {
                const json& t = l[3][k];
                bad = !t.is_array() || t.size() != 2 || !t[1].is_binary() || !number_tuple(json::array({t[0]}), 1);
                if (!bad) named.texts[static_cast<int32_t>(tuple_int(t, 0, 0, kMaxId, bad))] = std::string(t[1].get_binary().begin(), t[1].get_binary().end());
            }
            if (bad || c.lenses.count(position)) {
                root_.fail("lenses", "item " + std::to_string(i) + " is not [position, chosen, " + std::to_string(n_layer) +
                                         " layers of [top, rank, probability], token texts] with a new position below " +
                                         std::to_string(n_sequence));
            } else {
                c.lenses.emplace(position, std::move(named));
            }
        }
    }

    const json& json_;
    FieldReader root_;
    std::string& error_;
    size_t per_head_ = 1;
    size_t n_embd_ = 0;
    size_t gates_ = 0;
    size_t n_layer_ = 0;
    int64_t n_expert_ = 0;
    size_t routing_ = 0; // n_layer × n_expert_used
    uint32_t version_;
};

} // namespace

Result<Capture> decode_capture(const json& payload, const std::string& origin, uint32_t version) {
    std::string error;
    Decoder decoder(payload, version, error);
    Capture capture = decoder.decode();
    if (!error.empty()) return make_error(ErrorCode::Format, origin + ": " + error);
    return capture;
}

} // namespace octo
