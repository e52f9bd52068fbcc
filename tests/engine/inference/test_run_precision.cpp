// The precision choice reaches the run (engine/backend/precision.h): sessions, instrumented runs
// and task evaluation take the asked precision or the model's default and report the one they
// took; on a quantised model reference and exact give other logits (on an F32 model the same);
// the KV pool never hands one precision's blocks to the other.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/evaluation/task_eval.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/inference/session.h"
#include "engine/kv/kv_store.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/error_norms.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

SyntheticModelSpec spec(TensorType type, const char* architecture = "llama") {
    SyntheticModelSpec s;
    s.architecture = architecture;
    s.weight_type = type;
    s.n_head = 8;
    s.n_head_kv = 4;
    s.context_length = 128;
    s.seed = 5;
    return s;
}

std::unique_ptr<CpuBackend> backend() { return std::move(CpuBackend::create({2, {}}).value()); }

std::vector<int32_t> prompt_ids(size_t n) {
    std::vector<int32_t> v;
    for (size_t i = 0; i < n; ++i) v.push_back(static_cast<int32_t>(4 + (i * 11) % 90));
    return v;
}

// The last position's logits of `prompt` in a fresh session at `precision` (and KV types `kv`).
std::vector<float> logits(const Model& model, Backend& b, std::optional<Precision> precision, KvTypeChoice kv = {}) {
    SessionOptions o;
    o.precision = precision;
    o.kv_types = kv;
    auto session = Session::create(model, b, o);
    EXPECT_TRUE(session) << session.error().message;
    const std::vector<int32_t> prompt = prompt_ids(20);
    (*session)->start(prompt);
    auto out = (*session)->eval(prompt);
    EXPECT_TRUE(out) << out.error().message;
    return {out->begin(), out->end()};
}

TEST(RunPrecision, SessionTakesTheOptionOrTheArchitecturesDefault) {
    auto b = backend();
    for (const char* arch : {"llama", "qwen2", "octet"}) {
        const test::LoadedModel m = test::load_synthetic(spec(TensorType::F32, arch));
        const Precision fallback = default_precision(arch);
        EXPECT_EQ(fallback, std::string_view(arch) == "octet" ? Precision::Exact : Precision::Reference) << arch;
        EXPECT_EQ(Session::create(*m.model, *b).value()->precision(), fallback) << arch;
        for (Precision p : {Precision::Reference, Precision::Exact}) {
            SessionOptions o;
            o.precision = p;
            EXPECT_EQ(Session::create(*m.model, *b, o).value()->precision(), p) << arch;
        }
    }
}

TEST(RunPrecision, QuantisedWeightsGiveOtherLogitsAtReference) {
    auto b = backend();
    const test::LoadedModel q8 = test::load_synthetic(spec(TensorType::Q8_0));
    const std::vector<float> reference = logits(*q8.model, *b, Precision::Reference);
    const std::vector<float> exact = logits(*q8.model, *b, Precision::Exact);
    ASSERT_EQ(reference.size(), exact.size());
    EXPECT_NE(reference, exact) << "Q8_0 activations change the products";
    EXPECT_EQ(logits(*q8.model, *b, std::nullopt), reference) << "llama's default is reference";
    EXPECT_EQ(logits(*q8.model, *b, Precision::Reference), reference) << "deterministic";
    // F32 weights are multiplied in float either way; reference takes RoPE's angles by the
    // reference's float recurrence (the last bits of the angles), exact in double. (Both with
    // an F32 cache: reference precision's default F16 cache rounds far more.)
    const test::LoadedModel f32 = test::load_synthetic(spec(TensorType::F32));
    const KvTypeChoice f32_cache{TensorType::F32, TensorType::F32};
    const std::vector<float> f32_reference = logits(*f32.model, *b, Precision::Reference, f32_cache);
    const std::vector<float> f32_exact = logits(*f32.model, *b, Precision::Exact, f32_cache);
    EXPECT_NE(f32_reference, f32_exact) << "the angles' last bits differ";
    EXPECT_LT(test::relative_l2(f32_reference, f32_exact), 1e-5);
}

TEST(RunPrecision, InstrumentedRunsReportItAndNeverShareBlocksAcrossPrecisions) {
    auto b = backend();
    const test::LoadedModel m = test::load_synthetic(spec(TensorType::Q8_0));
    const Tokenizer tok = std::move(Tokenizer::create(vocab_from_gguf(m.model->file()).value()).value());
    const HeadMap map = HeadMap::make_default(m.model->params().n_layer, m.model->params().n_head);
    auto kv = std::move(KvStore::create(*b, m.model->params(), kv_pool_for_context(m.model->n_ctx())).value());
    const auto run = [&](std::optional<Precision> precision) {
        RunSpec r;
        const std::vector<int32_t> ids = prompt_ids(40); // more than two 16-token blocks
        r.max_tokens = 2;
        r.stop_at_eog = false;
        r.record_attention = false;
        r.precision = precision;
        auto result = run_instrumented(*m.model, *b, tok, map, *kv, r, {.prompt_ids = ids});
        EXPECT_TRUE(result) << result.error().message;
        return std::move(result.value());
    };
    const InstrumentedResult first = run(std::nullopt);
    EXPECT_EQ(first.precision, Precision::Reference);
    const InstrumentedResult exact = run(Precision::Exact);
    EXPECT_EQ(exact.precision, Precision::Exact);
    EXPECT_EQ(exact.generation.reused_tokens, 0) << "the reference run's blocks are another context";
    EXPECT_NE(first.generation.tokens[0].logprobs.logprob, exact.generation.tokens[0].logprobs.logprob);
    const InstrumentedResult again = run(Precision::Reference);
    EXPECT_EQ(again.precision, Precision::Reference);
    EXPECT_GT(again.generation.reused_tokens, 0) << "the same precision reuses its prefix";
    EXPECT_EQ(again.generation.tokens[0].logprobs.logprob, first.generation.tokens[0].logprobs.logprob);
}

TEST(RunPrecision, TaskEvaluationTakesIt) {
    auto b = backend();
    const test::LoadedModel m = test::load_synthetic(spec(TensorType::Q8_0));
    const Tokenizer tok = std::move(Tokenizer::create(vocab_from_gguf(m.model->file()).value()).value());
    const HeadMap map = HeadMap::make_default(m.model->params().n_layer, m.model->params().n_head);
    const std::vector<TaskItem> items = {{"What is 1 + 1?", "2", 0, "en", false}};
    TaskEvalOptions o;
    o.max_tokens = 2;
    EXPECT_EQ(evaluate_tasks(*m.model, *b, tok, map, items, o).value().precision, Precision::Reference);
    o.precision = Precision::Exact;
    EXPECT_EQ(evaluate_tasks(*m.model, *b, tok, map, items, o).value().precision, Precision::Exact);
}

} // namespace
} // namespace octo
