// Captures (engine/capture): save → open gives back every field, floats bit for bit; a re-run's
// comparison; the model identity check.
// Covers: capture_container.cpp, capture_encode.cpp, capture_decode.cpp, capture_fields.cpp,
//   capture_identity.cpp, capture_io.cpp, capture_replay.cpp, engine/model/model_description.cpp,
//   engine/generation/constraint_json.cpp
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/capture/capture_container.h"
#include "engine/capture/capture_identity.h"
#include "engine/capture/capture_io.h"
#include "engine/capture/capture_payload.h"
#include "engine/capture/capture_replay.h"
#include "engine/generation/run_spec.h"
#include "engine/core/sha256.h"
#include "tests/engine/capture/capture_sample.h"

namespace octo {
namespace {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_probe(const TokenProbe& a, const TokenProbe& b, const std::string& what) {
    EXPECT_TRUE(same_bits(a.head_norms, b.head_norms)) << what;
    EXPECT_TRUE(same_bits(a.head_outputs, b.head_outputs)) << what;
    EXPECT_TRUE(same_bits(a.dla, b.dla)) << what;
    EXPECT_EQ(a.dla_target, b.dla_target) << what;
    EXPECT_TRUE(same_bits(a.final_inv_rms, b.final_inv_rms)) << what;
    EXPECT_TRUE(same_bits(a.gates, b.gates)) << what;
    EXPECT_TRUE(same_bits(a.attention, b.attention)) << what;
    EXPECT_TRUE(same_bits(a.attention_sink, b.attention_sink)) << what;
    EXPECT_TRUE(same_bits(a.hidden, b.hidden)) << what;
}

void expect_same_metrics(const TokenMetrics& a, const TokenMetrics& b, const std::string& what) {
    for (Metric m : {Metric::NormShare, Metric::Relative, Metric::Dla, Metric::Gates}) {
        ASSERT_EQ(a.get(m).has_value(), b.get(m).has_value()) << what << " " << metric_name(m);
        if (a.get(m)) {
            EXPECT_EQ(std::memcmp(a.get(m)->data(), b.get(m)->data(), sizeof(SubsystemValues)), 0) << what;
        }
    }
}

void expect_same(const Capture& a, const Capture& b) {
    EXPECT_EQ(a.model.file_name, b.model.file_name);
    EXPECT_EQ(a.model.path, b.model.path);
    EXPECT_EQ(a.model.size, b.model.size);
    EXPECT_EQ(a.model.sha256, b.model.sha256);
    EXPECT_EQ(a.model.name, b.model.name);
    EXPECT_EQ(a.model.architecture, b.model.architecture);
    EXPECT_EQ(a.model.n_layer, b.model.n_layer);
    EXPECT_EQ(a.model.n_head, b.model.n_head);
    EXPECT_EQ(a.model.n_embd, b.model.n_embd);
    EXPECT_EQ(a.model.n_params, b.model.n_params);
    EXPECT_EQ(a.model.n_ctx, b.model.n_ctx);
    EXPECT_EQ(a.model.router_groups, b.model.router_groups);
    EXPECT_EQ(a.app_version, b.app_version);
    EXPECT_EQ(a.backend, b.backend);
    EXPECT_EQ(a.device, b.device);

    // the run's settings as asked, with what the run took (the precision, the KV types) filled in
    EXPECT_TRUE(a.trace.repeat_spec() == b.trace.spec) << "the run's settings (every field: RunSpec's operator==)";
    EXPECT_EQ(a.trace.kv_types, b.trace.kv_types);

    ASSERT_EQ(a.head_map.has_value(), b.head_map.has_value());
    if (a.head_map) {
        EXPECT_EQ(a.head_map->to_json(), b.head_map->to_json());
        EXPECT_EQ(a.head_map->source(), b.head_map->source());
        EXPECT_EQ(a.head_map->path(), b.head_map->path());
    }
    EXPECT_EQ(a.trace.precision, b.trace.precision);
    EXPECT_EQ(a.trace.prompt_text, b.trace.prompt_text);
    ASSERT_EQ(a.trace.n_prompt, b.trace.n_prompt);
    ASSERT_EQ(a.trace.tokens.size(), b.trace.tokens.size());
    for (size_t i = 0; i < a.trace.tokens.size(); ++i) {
        const TraceToken& x = a.trace.tokens[i];
        const TraceToken& y = b.trace.tokens[i];
        const std::string what = "token " + std::to_string(i);
        EXPECT_EQ(x.id, y.id) << what;
        EXPECT_EQ(x.bytes, y.bytes) << what;
        EXPECT_EQ(x.generated, y.generated) << what;
        EXPECT_EQ(x.visible_text, y.visible_text) << what;
        ASSERT_EQ(x.logprobs.has_value(), y.logprobs.has_value()) << what;
        if (x.logprobs) {
            EXPECT_TRUE(same_bits(x.logprobs->logprob, y.logprobs->logprob)) << what;
            ASSERT_EQ(x.logprobs->top.size(), y.logprobs->top.size()) << what;
            for (size_t k = 0; k < x.logprobs->top.size(); ++k) {
                EXPECT_EQ(x.logprobs->top[k].id, y.logprobs->top[k].id) << what;
                EXPECT_TRUE(same_bits(x.logprobs->top[k].logprob, y.logprobs->top[k].logprob)) << what;
            }
        }
        EXPECT_TRUE(same_bits(x.ms, y.ms)) << what;
        ASSERT_EQ(x.constraint.has_value(), y.constraint.has_value()) << what;
        if (x.constraint) {
            EXPECT_TRUE(same_bits(x.constraint->removed_mass, y.constraint->removed_mass)) << what;
            ASSERT_EQ(x.constraint->removed.size(), y.constraint->removed.size()) << what;
            for (size_t k = 0; k < x.constraint->removed.size(); ++k) {
                EXPECT_EQ(x.constraint->removed[k].id, y.constraint->removed[k].id) << what;
                EXPECT_TRUE(same_bits(x.constraint->removed[k].logprob, y.constraint->removed[k].logprob)) << what;
            }
            EXPECT_EQ(x.constraint->removed_dla, y.constraint->removed_dla) << what;
            EXPECT_TRUE(same_bits(x.constraint->mask_ms, y.constraint->mask_ms)) << what;
        }
        expect_same_probe(x.probe, y.probe, what);
        expect_same_metrics(x.metrics, y.metrics, what);
    }
    EXPECT_EQ(a.trace.default_metric, b.trace.default_metric);

    ASSERT_TRUE(a.trace.outcome && b.trace.outcome);
    const RunOutcome& g = *a.trace.outcome;
    const RunOutcome& h = *b.trace.outcome;
    EXPECT_EQ(g.text, h.text);
    EXPECT_EQ(g.stop_reason, h.stop_reason);
    EXPECT_TRUE(same_bits(g.prefill_ms, h.prefill_ms));
    EXPECT_TRUE(same_bits(g.decode_ms, h.decode_ms));
    EXPECT_EQ(g.n_decoded, h.n_decoded);
    EXPECT_EQ(g.reused_tokens, h.reused_tokens);
    EXPECT_EQ(g.evaluated_tokens, h.evaluated_tokens);

    const KvPoolStats& k = g.kv;
    const KvPoolStats& l = h.kv;
    EXPECT_EQ(k.block_size, l.block_size);
    EXPECT_EQ(k.blocks_total, l.blocks_total);
    EXPECT_EQ(k.blocks_used, l.blocks_used);
    EXPECT_EQ(k.blocks_cached, l.blocks_cached);
    EXPECT_EQ(k.blocks_free, l.blocks_free);
    EXPECT_EQ(k.blocks_shared, l.blocks_shared);
    EXPECT_EQ(k.evictions, l.evictions);
    EXPECT_EQ(k.block_copies, l.block_copies);
    ASSERT_EQ(k.sequences.size(), l.sequences.size());
    for (size_t i = 0; i < k.sequences.size(); ++i) {
        EXPECT_EQ(k.sequences[i].seq, l.sequences[i].seq);
        EXPECT_EQ(k.sequences[i].tokens, l.sequences[i].tokens);
        EXPECT_EQ(k.sequences[i].blocks, l.sequences[i].blocks);
        EXPECT_EQ(k.sequences[i].shared_blocks, l.sequences[i].shared_blocks);
        EXPECT_EQ(k.sequences[i].reused_tokens, l.sequences[i].reused_tokens);
    }
    EXPECT_EQ(g.kv_blocks, h.kv_blocks);
    ASSERT_EQ(g.kv_history.size(), h.kv_history.size());
    for (size_t i = 0; i < g.kv_history.size(); ++i) {
        EXPECT_EQ(g.kv_history[i].step, h.kv_history[i].step);
        EXPECT_EQ(g.kv_history[i].blocks_used, h.kv_history[i].blocks_used);
        EXPECT_EQ(g.kv_history[i].blocks_cached, h.kv_history[i].blocks_cached);
        EXPECT_EQ(g.kv_history[i].blocks_free, h.kv_history[i].blocks_free);
        EXPECT_EQ(g.kv_history[i].blocks_shared, h.kv_history[i].blocks_shared);
        EXPECT_EQ(g.kv_history[i].sequences, h.kv_history[i].sequences);
    }

    ASSERT_EQ(a.route.has_value(), b.route.has_value());
    if (a.route) {
        EXPECT_EQ(a.route->route, b.route->route);
        EXPECT_EQ(a.route->stage1_route, b.route->stage1_route);
        ASSERT_EQ(a.route->top3.size(), b.route->top3.size());
        for (size_t i = 0; i < a.route->top3.size(); ++i) {
            EXPECT_EQ(a.route->top3[i].subsystem, b.route->top3[i].subsystem);
            EXPECT_EQ(a.route->top3[i].stage1, b.route->top3[i].stage1);
            EXPECT_TRUE(same_bits(a.route->top3[i].stage2, b.route->top3[i].stage2));
            EXPECT_TRUE(same_bits(a.route->top3[i].final_score, b.route->top3[i].final_score));
        }
        EXPECT_EQ(a.route->similarity, b.route->similarity);
        EXPECT_EQ(a.route->composition, b.route->composition);
        ASSERT_EQ(a.route->features.size(), b.route->features.size());
        for (size_t i = 0; i < a.route->features.size(); ++i) {
            const auto& f = a.route->features[i];
            const auto& e = b.route->features[i];
            EXPECT_EQ(f.id, e.id);
            EXPECT_EQ(f.subsystem, e.subsystem);
            EXPECT_EQ(f.value, e.value);
            EXPECT_EQ(f.weight, e.weight);
            ASSERT_EQ(f.spans.size(), e.spans.size());
            for (size_t j = 0; j < f.spans.size(); ++j) {
                EXPECT_EQ(f.spans[j].start, e.spans[j].start);
                EXPECT_EQ(f.spans[j].end, e.spans[j].end);
            }
        }
    }
    ASSERT_EQ(a.findings.size(), b.findings.size());
    for (size_t i = 0; i < a.findings.size(); ++i) {
        const Finding& f = a.findings[i];
        const Finding& e = b.findings[i];
        EXPECT_EQ(f.rule, e.rule);
        EXPECT_EQ(f.subsystem, e.subsystem);
        EXPECT_EQ(f.severity, e.severity);
        EXPECT_EQ(f.place, e.place);
        EXPECT_EQ(f.start, e.start);
        EXPECT_EQ(f.end, e.end);
        EXPECT_EQ(f.evidence, e.evidence);
        EXPECT_EQ(f.detail.en, e.detail.en);
        EXPECT_EQ(f.detail.zh, e.detail.zh);
        EXPECT_EQ(f.source, e.source);
    }
    EXPECT_EQ(a.notes, b.notes);
    EXPECT_EQ(a.lenses, b.lenses);
}

TEST(Capture, SampleRecordsEveryMeasurement) {
    const Capture c = test::sample_capture();
    const RunTrace& t = c.trace;
    ASSERT_EQ(t.n_generated(), 3u);
    const TokenProbe& p = t.generated()[2].probe;
    const size_t per_head = static_cast<size_t>(c.model.n_layer * c.model.n_head);
    EXPECT_EQ(p.head_norms.size(), per_head);
    EXPECT_EQ(p.dla.size(), per_head);
    EXPECT_EQ(p.gates.size(), static_cast<size_t>(c.model.n_layer * 4));
    EXPECT_EQ(p.attention.size(), per_head * (t.n_prompt + 2)); // position n_prompt + 1
    EXPECT_TRUE(t.generated()[0].metrics.dla.has_value());
    EXPECT_TRUE(t.generated()[0].metrics.gates.has_value());
    for (const TraceToken& prompt : t.prompt()) {
        EXPECT_EQ(prompt.probe.head_norms.size(), per_head);
        EXPECT_TRUE(prompt.metrics.norm_share.has_value());
        EXPECT_FALSE(prompt.generated);
    }
    for (const TraceToken& generated : t.generated()) EXPECT_TRUE(generated.generated && generated.logprobs);
    ASSERT_TRUE(t.outcome);
    EXPECT_FALSE(t.outcome->kv_history.empty());
    EXPECT_EQ(t.outcome->kv_blocks.size(), static_cast<size_t>(t.outcome->kv.blocks_total));
    EXPECT_EQ(t.spec.precision, Precision::Reference);
    EXPECT_EQ(t.precision, Precision::Reference); // the spec's precision reached the run
    EXPECT_EQ(t.default_metric, Metric::Gates);    // octet has a router
}

// A run still going has no outcome: there is nothing to capture yet, and saving says so.
TEST(Capture, ARunWithoutAnOutcomeIsRefused) {
    Capture c = test::sample_capture(1);
    c.trace.outcome.reset();
    auto bytes = serialize_capture(c);
    ASSERT_FALSE(bytes.ok());
    EXPECT_EQ(bytes.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(bytes.error().message.find("has not finished"), std::string::npos) << bytes.error().message;
}

TEST(Capture, RoundTripGivesBackEveryFieldBitForBit) {
    const Capture c = test::sample_capture();
    auto bytes = serialize_capture(c);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    auto back = parse_capture({reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()}, "sample.octo");
    ASSERT_TRUE(back.ok()) << back.error().message;
    expect_same(c, back.value());
}

// A model with attention sinks (gpt-oss) records each head's sink weight beside its attention
// weights: it comes back bit for bit, and a sink vector of the wrong size is refused.
TEST(Capture, AttentionSinksRoundTrip) {
    Capture c = test::sample_capture();
    const size_t per_head = static_cast<size_t>(c.model.n_layer * c.model.n_head);
    TraceToken& t = c.trace.tokens.back();
    for (size_t i = 0; i < per_head; ++i) t.probe.attention_sink.push_back(0.03125f * static_cast<float>(i % 7));
    auto bytes = serialize_capture(c);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    auto back = parse_capture({reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()}, "sinks.octo");
    ASSERT_TRUE(back.ok()) << back.error().message;
    expect_same(c, back.value());
    t.probe.attention_sink.pop_back();
    auto short_bytes = serialize_capture(c);
    ASSERT_TRUE(short_bytes.ok());
    auto refused = parse_capture({reinterpret_cast<const uint8_t*>(short_bytes->data()), short_bytes->size()}, "short.octo");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("attention_sink"), std::string::npos) << refused.error().message;
}

// A constrained run (structured output) keeps what the grammar's mask did at each generated
// token, so that a capture opened later shows the bent steps; an impossible mass is refused.
TEST(Capture, ConstraintRecordsRoundTrip) {
    Capture c = test::sample_capture();
    const size_t per_head = static_cast<size_t>(c.model.n_layer * c.model.n_head);
    for (size_t i = c.trace.n_prompt; i < c.trace.tokens.size(); ++i) {
        ConstraintStep step;
        step.removed_mass = 0.125 * static_cast<double>(i % 8);
        step.removed = {{3, -0.25}, {9, -1.5}};
        if (i % 2 == 0) step.removed_dla.assign(per_head, 0.5f);
        step.mask_ms = 0.75;
        c.trace.tokens[i].constraint = step;
    }
    auto bytes = serialize_capture(c);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    auto back = parse_capture({reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()}, "constrained.octo");
    ASSERT_TRUE(back.ok()) << back.error().message;
    expect_same(c, back.value());
    c.trace.tokens.back().constraint->removed_mass = 2.0;
    auto bad = serialize_capture(c);
    ASSERT_TRUE(bad.ok());
    auto refused = parse_capture({reinterpret_cast<const uint8_t*>(bad->data()), bad->size()}, "bad.octo");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("removed_mass"), std::string::npos) << refused.error().message;
}

TEST(Capture, SaveAndOpenThroughAFile) {
    const Capture c = test::sample_capture(2);
    const auto path = std::filesystem::temp_directory_path() / "octoscope_capture_roundtrip.octo";
    ASSERT_TRUE(save_capture(c, path.string()).ok());
    auto back = open_capture(path.string());
    ASSERT_TRUE(back.ok()) << back.error().message;
    expect_same(c, back.value());
    std::filesystem::remove(path);
    auto missing = open_capture(path.string());
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::Io);
    EXPECT_NE(missing.error().message.find(path.string()), std::string::npos);
}

// Version 1 had no precision: its runs kept activations in float, so such a file reads as exact.
// From version 2 on the field is required like every other setting.
TEST(Capture, VersionOneFileWithoutPrecisionReadsAsExact) {
    const Capture c = test::sample_capture(1);
    nlohmann::json payload = encode_capture(c);
    ASSERT_EQ(payload["settings"]["precision"], "reference");
    payload["settings"].erase("precision");
    const std::vector<uint8_t> cbor = nlohmann::json::to_cbor(payload);
    const std::string_view view(reinterpret_cast<const char*>(cbor.data()), cbor.size());
    const auto file = [&](uint32_t version) {
        const std::string bytes = pack_capture_container(view, version).value();
        return parse_capture({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "old.octo");
    };
    auto old = file(1);
    ASSERT_TRUE(old.ok()) << old.error().message;
    EXPECT_EQ(old->trace.spec.precision, Precision::Exact);
    EXPECT_EQ(old->trace.precision, Precision::Exact);
    Capture expected = c;
    expected.trace.spec.precision = Precision::Exact;
    expected.trace.precision = Precision::Exact;
    expect_same(expected, old.value()); // nothing else changes
    auto current = file(kCaptureFormatVersion);
    ASSERT_FALSE(current.ok());
    EXPECT_NE(current.error().message.find("field \"settings.precision\" is missing"), std::string::npos)
        << current.error().message;
}

TEST(Capture, EveryPrecisionRoundTrips) {
    for (Precision p : {Precision::Reference, Precision::Exact}) {
        Capture c = test::sample_capture(1);
        c.trace.spec.precision = std::nullopt; // asked for the model's default …
        c.trace.precision = p;                  // … which was p: the file says p
        auto bytes = serialize_capture(c).value();
        auto back = parse_capture({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "p.octo");
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(back->trace.spec.precision, p) << precision_name(p);
        EXPECT_EQ(back->trace.precision, p) << precision_name(p);
        EXPECT_EQ(back->trace.repeat_spec().precision, p) << "a replay asks for it";
    }
}

// A local run's file names the KV types it took, never "default"; files from before the default
// was F16 say "default" (or nothing), which reads as F32.
TEST(Capture, KvTypesTakenAreWrittenAndOldDefaultsReadAsF32) {
    Capture c = test::sample_capture(1);
    c.trace.spec.kv_type_k = c.trace.spec.kv_type_v = std::nullopt; // asked for the default …
    c.trace.kv_types = KvTypes{TensorType::F16, TensorType::F16};     // … which was F16
    nlohmann::json payload = encode_capture(c);
    EXPECT_EQ(payload["settings"]["kv_type_k"], "f16");
    EXPECT_EQ(payload["settings"]["kv_type_v"], "f16");
    const auto decode = [](const nlohmann::json& p) {
        const std::vector<uint8_t> cbor = nlohmann::json::to_cbor(p);
        const std::string bytes =
            pack_capture_container({reinterpret_cast<const char*>(cbor.data()), cbor.size()}, kCaptureFormatVersion).value();
        return parse_capture({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "kv.octo");
    };
    auto back = decode(payload);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->trace.repeat_spec().kv_type_k, TensorType::F16) << "a replay asks for it";
    EXPECT_EQ(back->trace.kv_types, (KvTypes{TensorType::F16, TensorType::F16}));
    payload["settings"]["kv_type_k"] = "default";
    payload["settings"].erase("kv_type_v");
    auto old = decode(payload);
    ASSERT_TRUE(old.ok()) << old.error().message;
    EXPECT_EQ(old->trace.spec.kv_type_k, TensorType::F32);
    EXPECT_EQ(old->trace.spec.kv_type_v, TensorType::F32);
    EXPECT_EQ(old->trace.kv_types, (KvTypes{TensorType::F32, TensorType::F32}));
}

TEST(Capture, EmptyOptionalPartsStayEmpty) {
    Capture c = test::sample_capture(1);
    c.route.reset();
    c.findings.clear();
    c.notes.clear();
    c.lenses.clear();
    c.head_map.reset();
    auto bytes = serialize_capture(c).value();
    auto back = parse_capture({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "x.octo");
    ASSERT_TRUE(back.ok()) << back.error().message;
    expect_same(c, back.value());
}

TEST(CaptureReplay, ComparesPromptAndEveryToken) {
    const Capture c = test::sample_capture(4);
    const RunTrace& same = c.trace;
    ReplayComparison r = compare_replay(c.trace, same);
    EXPECT_TRUE(r.identical);
    EXPECT_TRUE(r.prompt_identical);
    EXPECT_FALSE(r.first_divergence);
    EXPECT_EQ(r.tokens_compared, 4u);

    RunTrace changed = same;
    changed.tokens[same.n_prompt + 2].id += 1;
    r = compare_replay(c.trace, changed);
    EXPECT_FALSE(r.identical);
    EXPECT_EQ(r.first_divergence, 2u);

    RunTrace shorter = same;
    shorter.tokens.resize(same.n_prompt + 3);
    r = compare_replay(c.trace, shorter);
    EXPECT_FALSE(r.identical);
    EXPECT_EQ(r.first_divergence, 3u);
    EXPECT_EQ(r.tokens_compared, 3u);

    RunTrace other_prompt = same;
    other_prompt.tokens.insert(other_prompt.tokens.begin() + static_cast<std::ptrdiff_t>(same.n_prompt), TraceToken{.id = 5, .bytes = "x"});
    other_prompt.n_prompt += 1;
    r = compare_replay(c.trace, other_prompt);
    EXPECT_FALSE(r.identical);
    EXPECT_FALSE(r.prompt_identical);
    EXPECT_FALSE(r.first_divergence);
}

TEST(CaptureIdentity, AcceptsOnlyTheSameFile) {
    const auto dir = std::filesystem::temp_directory_path();
    const auto a = dir / "octoscope_capture_model_a.bin";
    const auto b = dir / "octoscope_capture_model_b.bin";
    std::ofstream(a, std::ios::binary) << "model bytes one";
    std::ofstream(b, std::ios::binary) << "model bytes two";
    ModelDescription m;
    m.file_name = "a.bin";
    m.size = 15;
    m.sha256 = "6d4bd6d8bd3ec2ad6ba3b1e0a6f0d3a8b0f6d2c6cbd6b5b4a2c1e0f1d2c3b4a5"; // not the file's
    auto wrong_sha = check_capture_model(m, b.string());
    ASSERT_FALSE(wrong_sha.ok());
    EXPECT_NE(wrong_sha.error().message.find("SHA-256"), std::string::npos);
    EXPECT_NE(wrong_sha.error().message.find(b.string()), std::string::npos);
    m.sha256 = sha256_file(a.string()).value();
    EXPECT_TRUE(check_capture_model(m, a.string()).ok());
    m.size = 99;
    auto wrong_size = check_capture_model(m, a.string());
    ASSERT_FALSE(wrong_size.ok());
    EXPECT_NE(wrong_size.error().message.find("15 bytes"), std::string::npos);
    std::filesystem::remove(a);
    std::filesystem::remove(b);
}

} // namespace
} // namespace octo
