// Captures (engine/capture): save → open gives back every field, floats bit for bit; a re-run's
// comparison; the model identity check.
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
#include "tests/engine/capture_sample.h"

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

    const RunSpec& s = a.settings;
    const RunSpec& t = b.settings;
    EXPECT_EQ(s.prompt, t.prompt);
    EXPECT_EQ(s.chat, t.chat);
    EXPECT_EQ(s.system, t.system);
    EXPECT_EQ(s.parse_special, t.parse_special);
    EXPECT_EQ(s.stop_strings, t.stop_strings);
    EXPECT_EQ(s.max_tokens, t.max_tokens);
    EXPECT_EQ(s.stop_at_eog, t.stop_at_eog);
    EXPECT_EQ(s.sampling.temperature, t.sampling.temperature);
    EXPECT_EQ(s.sampling.seed, t.sampling.seed);
    EXPECT_EQ(s.sampling.top_k, t.sampling.top_k);
    EXPECT_EQ(s.sampling.top_p, t.sampling.top_p);
    EXPECT_EQ(s.sampling.repeat_penalty, t.sampling.repeat_penalty);
    EXPECT_EQ(s.sampling.repeat_last_n, t.sampling.repeat_last_n);
    EXPECT_EQ(s.disabled, t.disabled);
    EXPECT_EQ(s.ablation_mode, t.ablation_mode);
    EXPECT_EQ(s.dla, t.dla);
    EXPECT_EQ(s.record_attention, t.record_attention);
    EXPECT_EQ(s.n_ctx, t.n_ctx);
    EXPECT_EQ(s.threads, t.threads);
    EXPECT_EQ(s.precision, t.precision);

    ASSERT_EQ(a.head_map.has_value(), b.head_map.has_value());
    if (a.head_map) {
        EXPECT_EQ(a.head_map->to_json(), b.head_map->to_json());
        EXPECT_EQ(a.head_map->source(), b.head_map->source());
        EXPECT_EQ(a.head_map->path(), b.head_map->path());
    }
    EXPECT_EQ(a.prompt_text, b.prompt_text);
    ASSERT_EQ(a.prompt_tokens.size(), b.prompt_tokens.size());
    for (size_t i = 0; i < a.prompt_tokens.size(); ++i) {
        EXPECT_EQ(a.prompt_tokens[i].id, b.prompt_tokens[i].id);
        EXPECT_EQ(a.prompt_tokens[i].bytes, b.prompt_tokens[i].bytes);
    }

    const GenerateResult& g = a.run.generation;
    const GenerateResult& h = b.run.generation;
    ASSERT_EQ(g.tokens.size(), h.tokens.size());
    for (size_t i = 0; i < g.tokens.size(); ++i) {
        const std::string what = "token " + std::to_string(i);
        EXPECT_EQ(g.tokens[i].id, h.tokens[i].id) << what;
        EXPECT_EQ(g.tokens[i].bytes, h.tokens[i].bytes) << what;
        EXPECT_EQ(g.tokens[i].visible_text, h.tokens[i].visible_text) << what;
        EXPECT_TRUE(same_bits(g.tokens[i].logprobs.logprob, h.tokens[i].logprobs.logprob)) << what;
        ASSERT_EQ(g.tokens[i].logprobs.top.size(), h.tokens[i].logprobs.top.size()) << what;
        for (size_t k = 0; k < g.tokens[i].logprobs.top.size(); ++k) {
            EXPECT_EQ(g.tokens[i].logprobs.top[k].id, h.tokens[i].logprobs.top[k].id) << what;
            EXPECT_TRUE(same_bits(g.tokens[i].logprobs.top[k].logprob, h.tokens[i].logprobs.top[k].logprob)) << what;
        }
        EXPECT_TRUE(same_bits(g.tokens[i].ms, h.tokens[i].ms)) << what;
        expect_same_probe(g.tokens[i].probe, h.tokens[i].probe, what);
        expect_same_metrics(a.run.token_metrics[i], b.run.token_metrics[i], what);
    }
    ASSERT_EQ(b.run.token_metrics.size(), h.tokens.size());
    EXPECT_EQ(g.text, h.text);
    EXPECT_EQ(g.stop_reason, h.stop_reason);
    EXPECT_TRUE(same_bits(g.prefill_ms, h.prefill_ms));
    EXPECT_TRUE(same_bits(g.decode_ms, h.decode_ms));
    EXPECT_EQ(g.n_decoded, h.n_decoded);
    EXPECT_EQ(g.reused_tokens, h.reused_tokens);
    EXPECT_EQ(g.evaluated_tokens, h.evaluated_tokens);
    ASSERT_EQ(g.prompt_probes.size(), h.prompt_probes.size());
    for (size_t i = 0; i < g.prompt_probes.size(); ++i) {
        expect_same_probe(g.prompt_probes[i], h.prompt_probes[i], "prompt " + std::to_string(i));
    }
    ASSERT_EQ(a.run.prompt_metrics.size(), b.run.prompt_metrics.size());
    for (size_t i = 0; i < a.run.prompt_metrics.size(); ++i) {
        expect_same_metrics(a.run.prompt_metrics[i], b.run.prompt_metrics[i], "prompt " + std::to_string(i));
    }
    EXPECT_EQ(a.run.default_metric, b.run.default_metric);

    const KvPoolStats& k = a.run.kv;
    const KvPoolStats& l = b.run.kv;
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
    EXPECT_EQ(a.run.kv_blocks, b.run.kv_blocks);
    ASSERT_EQ(a.kv_history.size(), b.kv_history.size());
    for (size_t i = 0; i < a.kv_history.size(); ++i) {
        EXPECT_EQ(a.kv_history[i].step, b.kv_history[i].step);
        EXPECT_EQ(a.kv_history[i].blocks_used, b.kv_history[i].blocks_used);
        EXPECT_EQ(a.kv_history[i].blocks_cached, b.kv_history[i].blocks_cached);
        EXPECT_EQ(a.kv_history[i].blocks_free, b.kv_history[i].blocks_free);
        EXPECT_EQ(a.kv_history[i].blocks_shared, b.kv_history[i].blocks_shared);
        EXPECT_EQ(a.kv_history[i].sequences, b.kv_history[i].sequences);
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
        EXPECT_EQ(f.detail, e.detail);
        EXPECT_EQ(f.source, e.source);
    }
    EXPECT_EQ(a.notes, b.notes);
}

TEST(Capture, SampleRecordsEveryMeasurement) {
    const Capture c = test::sample_capture();
    ASSERT_EQ(c.run.generation.tokens.size(), 3u);
    const TokenProbe& p = c.run.generation.tokens[2].probe;
    const size_t per_head = static_cast<size_t>(c.model.n_layer * c.model.n_head);
    EXPECT_EQ(p.head_norms.size(), per_head);
    EXPECT_EQ(p.dla.size(), per_head);
    EXPECT_EQ(p.gates.size(), static_cast<size_t>(c.model.n_layer * 4));
    EXPECT_EQ(p.attention.size(), per_head * (c.prompt_tokens.size() + 2)); // position n_prompt + 1
    EXPECT_TRUE(c.run.token_metrics[0].dla.has_value());
    EXPECT_TRUE(c.run.token_metrics[0].gates.has_value());
    EXPECT_EQ(c.run.generation.prompt_probes.size(), c.prompt_tokens.size());
    EXPECT_FALSE(c.kv_history.empty());
    EXPECT_EQ(c.run.kv_blocks.size(), static_cast<size_t>(c.run.kv.blocks_total));
    EXPECT_EQ(c.settings.precision, Precision::Reference);
    EXPECT_EQ(c.run.precision, Precision::Reference); // the settings' precision reached the run
}

TEST(Capture, RoundTripGivesBackEveryFieldBitForBit) {
    const Capture c = test::sample_capture();
    auto bytes = serialize_capture(c);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    auto back = parse_capture({reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()}, "sample.octo");
    ASSERT_TRUE(back.ok()) << back.error().message;
    expect_same(c, back.value());
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
    EXPECT_EQ(old->settings.precision, Precision::Exact);
    Capture expected = c;
    expected.settings.precision = Precision::Exact;
    expect_same(expected, old.value()); // nothing else changes
    auto current = file(kCaptureFormatVersion);
    ASSERT_FALSE(current.ok());
    EXPECT_NE(current.error().message.find("field \"settings.precision\" is missing"), std::string::npos)
        << current.error().message;
}

TEST(Capture, EveryPrecisionRoundTrips) {
    for (Precision p : {Precision::Reference, Precision::Exact}) {
        Capture c = test::sample_capture(1);
        c.settings.precision = p;
        auto bytes = serialize_capture(c).value();
        auto back = parse_capture({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "p.octo");
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(back->settings.precision, p) << precision_name(p);
        EXPECT_EQ(instrumented_request(back->settings, {1, 2}).precision, p) << "a replay asks for it";
    }
}

TEST(Capture, EmptyOptionalPartsStayEmpty) {
    Capture c = test::sample_capture(1);
    c.route.reset();
    c.findings.clear();
    c.notes.clear();
    c.head_map.reset();
    auto bytes = serialize_capture(c).value();
    auto back = parse_capture({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "x.octo");
    ASSERT_TRUE(back.ok()) << back.error().message;
    expect_same(c, back.value());
}

TEST(CaptureReplay, ComparesPromptAndEveryToken) {
    const Capture c = test::sample_capture(4);
    std::vector<int32_t> prompt;
    for (const auto& t : c.prompt_tokens) prompt.push_back(t.id);
    GenerateResult same = c.run.generation;
    ReplayComparison r = compare_replay(c, prompt, same);
    EXPECT_TRUE(r.identical);
    EXPECT_TRUE(r.prompt_identical);
    EXPECT_FALSE(r.first_divergence);
    EXPECT_EQ(r.tokens_compared, 4u);

    GenerateResult changed = same;
    changed.tokens[2].id += 1;
    r = compare_replay(c, prompt, changed);
    EXPECT_FALSE(r.identical);
    EXPECT_EQ(r.first_divergence, 2u);

    GenerateResult shorter = same;
    shorter.tokens.resize(3);
    r = compare_replay(c, prompt, shorter);
    EXPECT_FALSE(r.identical);
    EXPECT_EQ(r.first_divergence, 3u);
    EXPECT_EQ(r.tokens_compared, 3u);

    std::vector<int32_t> other_prompt = prompt;
    other_prompt.push_back(5);
    r = compare_replay(c, other_prompt, same);
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
    CaptureModel m;
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
