// The paged KV pool behind sessions: prefix reuse gives bit-identical logits and measurements
// while evaluating fewer tokens; another ablation (or another model) never reuses; idle cached
// prefixes are evicted before the pool fails; a sequence that cannot fit fails cleanly.
// Covers: kv_store.cpp
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/generation/generator.h"
#include "engine/inference/session.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/kv/kv_store.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/error_norms.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

using test::LoadedModel;

SyntheticModelSpec spec() {
    SyntheticModelSpec s;
    s.n_head = 8;
    s.n_head_kv = 4;
    s.n_layer = 2;
    s.context_length = 128;
    s.seed = 11;
    return s;
}

std::unique_ptr<CpuBackend> backend() { return std::move(CpuBackend::create({2, {}}).value()); }

std::vector<int32_t> ids(size_t n, int32_t salt = 0) {
    std::vector<int32_t> v;
    for (size_t i = 0; i < n; ++i) v.push_back(static_cast<int32_t>(4 + (i * 7 + static_cast<size_t>(salt) * 13) % 90));
    return v;
}

using test::bit_identical;

// A pool of the types a session takes with `kv` at the model's default precision (F16 for these
// llama models unless asked otherwise), so that it and a session's own pool compute alike.
std::unique_ptr<KvStore> make_store(Backend& b, const Model& m, int32_t block_size, int32_t n_blocks, KvTypeChoice kv = {}) {
    const KvTypes types = resolve_kv_types(kv, default_precision(m.params().architecture), b);
    return std::move(KvStore::create(b, m.params(), KvPoolConfig{block_size, n_blocks}, types).value());
}

struct Outcome {
    int64_t reused = 0;
    std::vector<float> logits; // last token's
    std::vector<TokenProbe> probes; // every prompt position's
};

Outcome run(Session& s, const std::vector<int32_t>& prompt) {
    Outcome r;
    r.reused = s.start(prompt);
    auto out = s.eval(std::span<const int32_t>(prompt).subspan(static_cast<size_t>(r.reused)));
    EXPECT_TRUE(out) << out.error().message;
    if (out) r.logits.assign(out->begin(), out->end());
    r.probes.assign(s.reused_probes().begin(), s.reused_probes().end());
    r.probes.insert(r.probes.end(), s.probes().begin(), s.probes().end());
    return r;
}

TEST(PrefixReuse, LogitsAndNormsBitIdenticalWithFewerTokensEvaluated) {
    const LoadedModel m = test::load_synthetic(spec());
    auto b = backend();
    for (const KvTypeChoice kv : {KvTypeChoice{}, KvTypeChoice{TensorType::F32, TensorType::F32},
                                  KvTypeChoice{TensorType::Q8_0, TensorType::Q8_0}, KvTypeChoice{TensorType::Q4_0, TensorType::F16}}) {
        SCOPED_TRACE(kv.k ? std::string(kv_type_name(*kv.k)) + " keys" : std::string("the default cache (f16)"));
        auto store = make_store(*b, *m.model, 4, 32, kv);
        ASSERT_EQ(store->types().k, kv.k.value_or(TensorType::F16));
        SessionOptions o;
        o.kv = store.get();
        o.kv_types = kv;
        o.instrument.head_norms = true;
        auto s = Session::create(*m.model, *b, o).value();

        const std::vector<int32_t> first = ids(23);
        std::vector<int32_t> edited(first.begin(), first.begin() + 17); // the same start, another ending
        for (int32_t t : ids(9, 5)) edited.push_back(t);
        EXPECT_EQ(run(*s, first).reused, 0);
        const Outcome reused = run(*s, edited);
        EXPECT_EQ(reused.reused, 16); // 4 full blocks of 4 match; position 16 starts the 5th block

        SessionOptions cold = o;
        cold.kv = nullptr; // a private pool: nothing cached
        auto fresh = Session::create(*m.model, *b, cold).value();
        const Outcome want = run(*fresh, edited);
        EXPECT_EQ(want.reused, 0);
        EXPECT_TRUE(bit_identical(reused.logits, want.logits));
        ASSERT_EQ(reused.probes.size(), edited.size());
        for (size_t p = 0; p < edited.size(); ++p) {
            EXPECT_TRUE(bit_identical(reused.probes[p].head_norms, want.probes[p].head_norms)) << "position " << p;
        }
        // The whole prompt again: everything but the last token is reused (it is always recomputed).
        EXPECT_EQ(run(*s, edited).reused, 24);
    }
}

// At reference precision a generated token's K/V are summed as the reference sums a lone token,
// not as part of a prompt (KvBatchCells::prompt_batch_end), so only prompt blocks are published:
// a next prompt that repeats the prompt and the answer reuses the prompt's blocks alone, and its
// logits equal a fresh session's bit for bit.
TEST(PrefixReuse, ReferencePrecisionReusesOnlyPromptBlocks) {
    SyntheticModelSpec q8 = spec();
    q8.weight_type = TensorType::Q8_0;
    const LoadedModel m = test::load_synthetic(q8);
    auto b = backend();
    auto store = make_store(*b, *m.model, 4, 32);
    SessionOptions o;
    o.kv = store.get();
    o.precision = Precision::Reference;
    auto s = Session::create(*m.model, *b, o).value();
    const std::vector<int32_t> prompt = ids(10);
    EXPECT_EQ(run(*s, prompt).reused, 0);
    std::vector<int32_t> turn = prompt; // the prompt, then eight tokens evaluated one at a time
    for (int32_t t : ids(8, 3)) {
        ASSERT_TRUE(s->eval(std::span<const int32_t>(&t, 1)));
        turn.push_back(t);
    }
    turn.push_back(7);
    const Outcome next = run(*s, turn);
    EXPECT_EQ(next.reused, 8); // blocks 0 and 1 lie inside the 10-token prompt; block 2 holds generated tokens

    SessionOptions cold = o;
    cold.kv = nullptr;
    auto fresh = Session::create(*m.model, *b, cold).value();
    EXPECT_TRUE(bit_identical(next.logits, run(*fresh, turn).logits));

    SessionOptions exact = o; // exact precision has one order: every full block is reused
    exact.precision = Precision::Exact;
    auto store2 = make_store(*b, *m.model, 4, 32);
    exact.kv = store2.get();
    auto e = Session::create(*m.model, *b, exact).value();
    run(*e, prompt);
    for (size_t i = prompt.size(); i + 1 < turn.size(); ++i) ASSERT_TRUE(e->eval(std::span<const int32_t>(&turn[i], 1)));
    EXPECT_EQ(run(*e, turn).reused, 16);
}

// Sliding windows (gemma2: the even layers see the last 5 positions) mask by position, so a
// reused block far behind a layer's window is masked exactly as in a fresh run: bit-identical
// logits and measurements with 16 of 22 positions reused.
TEST(PrefixReuse, SlidingWindowLayersMaskReusedBlocksAsAFreshRun) {
    SyntheticModelSpec gemma = spec();
    gemma.architecture = "gemma2";
    gemma.sliding_window = 5;
    const LoadedModel m = test::load_synthetic(gemma);
    ASSERT_TRUE(m.model);
    ASSERT_EQ(m.model->params().layer_window(0), 5);
    auto b = backend();
    auto store = make_store(*b, *m.model, 4, 32);
    SessionOptions o;
    o.kv = store.get();
    o.instrument.head_norms = true;
    auto s = Session::create(*m.model, *b, o).value();
    const std::vector<int32_t> first = ids(23);
    std::vector<int32_t> edited(first.begin(), first.begin() + 17);
    for (int32_t t : ids(5, 3)) edited.push_back(t);
    EXPECT_EQ(run(*s, first).reused, 0);
    const Outcome reused = run(*s, edited);
    EXPECT_EQ(reused.reused, 16);

    SessionOptions cold = o;
    cold.kv = nullptr;
    auto fresh = Session::create(*m.model, *b, cold).value();
    const Outcome want = run(*fresh, edited);
    EXPECT_TRUE(bit_identical(reused.logits, want.logits));
    for (size_t p = 0; p < edited.size(); ++p) {
        EXPECT_TRUE(bit_identical(reused.probes[p].head_norms, want.probes[p].head_norms)) << "position " << p;
    }
}

TEST(PrefixReuse, GenerateReportsReusedAndEvaluatedTokens) {
    const LoadedModel m = test::load_synthetic(spec());
    auto b = backend();
    auto store = make_store(*b, *m.model, 4, 32);
    SessionOptions o;
    o.kv = store.get();
    auto s = Session::create(*m.model, *b, o).value();
    Vocab v;
    v.model = "gpt2";
    v.pre = "default";
    for (int64_t i = 0; i < m.model->params().n_vocab; ++i) v.tokens.push_back("t" + std::to_string(i));
    const Tokenizer tokenizer = std::move(Tokenizer::create(std::move(v)).value());
    GenerateRequest request;
    request.prompt_ids = ids(30);
    request.max_tokens = 5;
    request.stop_at_eog = false;
    const GenerateResult cold = generate(*s, tokenizer, request).value();
    EXPECT_EQ(cold.reused_tokens, 0);
    EXPECT_EQ(cold.evaluated_tokens, 30 + 4);
    request.prompt_ids.back() = 50; // the last token edited
    const GenerateResult warm = generate(*s, tokenizer, request).value();
    EXPECT_EQ(warm.reused_tokens, 28);
    EXPECT_EQ(warm.evaluated_tokens, 2 + 4);
    auto fresh = Session::create(*m.model, *b, SessionOptions{}).value();
    const GenerateResult want = generate(*fresh, tokenizer, request).value();
    ASSERT_EQ(want.tokens.size(), warm.tokens.size());
    for (size_t i = 0; i < want.tokens.size(); ++i) {
        EXPECT_EQ(want.tokens[i].id, warm.tokens[i].id);
        EXPECT_EQ(want.tokens[i].logprobs.logprob, warm.tokens[i].logprobs.logprob);
    }
}

TEST(PrefixReuse, AnotherAblationNeverReuses) {
    const LoadedModel m = test::load_synthetic(spec());
    const ModelParams& p = m.model->params();
    auto b = backend();
    auto store = make_store(*b, *m.model, 4, 64);
    const HeadMap map = HeadMap::make_default(p.n_layer, p.n_head);
    const std::vector<int32_t> prompt = ids(21);

    SessionOptions plain;
    plain.kv = store.get();
    SessionOptions zero_c = plain;
    zero_c.ablation = ablate_subsystems(map, {false, false, true}, AblationMode::Zero);
    SessionOptions zero_d = plain;
    zero_d.ablation = ablate_subsystems(map, {false, false, false, true}, AblationMode::Zero);
    SessionOptions mean_c = plain;
    mean_c.ablation = ablate_subsystems(map, {false, false, true}, AblationMode::Mean,
                                        std::vector<float>(static_cast<size_t>(p.n_layer * p.n_embd), 0.25f));
    SessionOptions mean_c2 = mean_c;
    mean_c2.ablation.baseline.assign(mean_c2.ablation.baseline.size(), 0.5f);

    auto a = Session::create(*m.model, *b, plain).value();
    EXPECT_EQ(run(*a, prompt).reused, 0);
    EXPECT_EQ(run(*a, prompt).reused, 20);
    for (const SessionOptions* o : {&zero_c, &zero_d, &mean_c, &mean_c2}) {
        auto s = Session::create(*m.model, *b, *o).value();
        EXPECT_EQ(run(*s, prompt).reused, 0);  // computed under another ablation: not reused
        EXPECT_EQ(run(*s, prompt).reused, 20); // its own blocks are
    }
    // Ablated K/V differ, so the reuse above really was of the session's own blocks.
    auto c = Session::create(*m.model, *b, zero_c).value();
    auto fresh_c = Session::create(*m.model, *b, SessionOptions{0, 0, false, nullptr, {}, zero_c.ablation}).value();
    EXPECT_TRUE(bit_identical(run(*c, prompt).logits, run(*fresh_c, prompt).logits));
    EXPECT_FALSE(bit_identical(run(*c, prompt).logits, run(*a, prompt).logits));
}

TEST(PrefixReuse, MeasurementsMustMatchToReuse) {
    const LoadedModel m = test::load_synthetic(spec());
    auto b = backend();
    auto store = make_store(*b, *m.model, 4, 64);
    const std::vector<int32_t> prompt = ids(13);
    SessionOptions plain;
    plain.kv = store.get();
    auto a = Session::create(*m.model, *b, plain).value();
    run(*a, prompt);
    SessionOptions norms = plain;
    norms.instrument.head_norms = true;
    auto n = Session::create(*m.model, *b, norms).value();
    EXPECT_EQ(run(*n, prompt).reused, 0); // cached without norms
    EXPECT_EQ(run(*n, prompt).reused, 12);
    SessionOptions attention = norms;
    attention.instrument.attention = true; // not cached: never reused, never published
    auto w = Session::create(*m.model, *b, attention).value();
    EXPECT_EQ(run(*w, prompt).reused, 0);
    EXPECT_EQ(run(*w, prompt).reused, 0);
}

TEST(PrefixReuse, IdlePrefixesAreEvictedBeforeThePoolFails) {
    const LoadedModel m = test::load_synthetic(spec());
    auto b = backend();
    auto store = make_store(*b, *m.model, 4, 8); // 32 positions in all
    SessionOptions o;
    o.kv = store.get();
    auto s = Session::create(*m.model, *b, o).value();
    run(*s, ids(30, 1));
    run(*s, ids(30, 2)); // needs the blocks the first prompt left cached
    EXPECT_GT(store->pool().stats().evictions, 0);

    // Two live sequences that together exceed the pool: the second fails cleanly...
    auto t = Session::create(*m.model, *b, o).value();
    const std::vector<int32_t> other = ids(20, 3);
    EXPECT_EQ(t->start(other), 0);
    auto out = t->eval(other);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error().code, ErrorCode::OutOfMemory);
    EXPECT_NE(out.error().message.find("out of blocks"), std::string::npos) << out.error().message;
    EXPECT_EQ(t->position(), 0);
    // ...and works once the first releases its blocks.
    s->reset();
    EXPECT_TRUE(t->eval(other));
    EXPECT_EQ(t->position(), 20);

    // A single sequence longer than the whole pool: a clear error, the session stays usable.
    SessionOptions big = o;
    big.n_ctx = 64;
    auto u = Session::create(*m.model, *b, big).value();
    u->start({});
    auto too_long = u->eval(ids(40, 4));
    ASSERT_FALSE(too_long);
    EXPECT_EQ(too_long.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(too_long.error().message.find("whole pool"), std::string::npos) << too_long.error().message;
    t->reset();
    EXPECT_TRUE(u->eval(ids(10, 4)));
}

} // namespace
} // namespace octo
