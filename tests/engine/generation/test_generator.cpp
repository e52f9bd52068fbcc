// The generation loop: stopping rules, cancel, context limits, and the per-token report,
// on a random-weight test model with a hand-built vocabulary ("t0" ... "t95").
#include <gtest/gtest.h>

#include <atomic>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/generation/generator.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

std::string token_text(int64_t id) { return std::string("t").append(std::to_string(id)); }

Tokenizer make_tokenizer(int64_t n_vocab, int32_t eos_id, int32_t bos_id = -1) {
    Vocab v;
    v.bos_id = bos_id;
    v.model = "gpt2";
    v.pre = "default";
    for (int64_t i = 0; i < n_vocab; ++i) v.tokens.push_back(token_text(i));
    v.eos_id = eos_id;
    if (eos_id >= 0) v.eog_ids = {eos_id};
    auto t = Tokenizer::create(std::move(v));
    EXPECT_TRUE(t.ok()) << t.error().message;
    return std::move(t.value());
}

class Generator : public ::testing::Test {
protected:
    void SetUp() override {
        loaded_ = test::load_synthetic({.context_length = 32});
        ASSERT_TRUE(loaded_.model);
        model_ = loaded_.model.get();
        backend_ = std::move(CpuBackend::create({2, std::nullopt}).value());
        n_vocab_ = model_->params().n_vocab;
    }

    std::unique_ptr<Session> session(int64_t n_ctx = 0) {
        auto s = Session::create(*model_, *backend_, {n_ctx, 0, false, nullptr, {}, {}});
        EXPECT_TRUE(s.ok());
        return std::move(s.value());
    }

    GenerateRequest request(int64_t max_tokens) {
        GenerateRequest r;
        r.prompt_ids = {1, 2, 3, 4};
        r.max_tokens = max_tokens;
        return r;
    }

    test::LoadedModel loaded_;
    const Model* model_ = nullptr;
    std::unique_ptr<CpuBackend> backend_;
    int64_t n_vocab_ = 0;
};

TEST_F(Generator, StopsAtMaxTokensAndReportsEachToken) {
    auto tok = make_tokenizer(n_vocab_, -1);
    auto s = session();
    std::vector<int32_t> streamed;
    auto r = generate(*s, tok, request(6), [&](const TokenEvent& e) { streamed.push_back(e.id); });
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->tokens.size(), 6u);
    EXPECT_EQ(r->stop_reason, StopReason::MaxTokens);
    std::string text;
    for (size_t k = 0; k < r->tokens.size(); ++k) {
        const TokenEvent& e = r->tokens[k];
        EXPECT_EQ(streamed[k], e.id);
        EXPECT_EQ(e.bytes, token_text(e.id));
        ASSERT_EQ(e.logprobs.top.size(), 5u);
        EXPECT_EQ(e.logprobs.top[0].id, e.id) << "greedy takes the most likely token";
        text += e.bytes;
    }
    EXPECT_EQ(r->text, text);
    EXPECT_EQ(r->n_decoded, 5); // the first token comes from the prompt's logits
}

TEST_F(Generator, EndOfGenerationTokenStopsAndIsNotShown) {
    auto first = generate(*session(), make_tokenizer(n_vocab_, -1), request(1));
    ASSERT_TRUE(first.ok());
    const int32_t greedy_first = first->tokens[0].id;
    // Declare that very token the end of generation: the run must stop right there.
    auto r = generate(*session(), make_tokenizer(n_vocab_, greedy_first), request(10));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->tokens.size(), 1u);
    EXPECT_EQ(r->stop_reason, StopReason::EndOfGeneration);
    EXPECT_EQ(r->text, "");
    GenerateRequest keep_going = request(3);
    keep_going.stop_at_eog = false;
    auto r2 = generate(*session(), make_tokenizer(n_vocab_, greedy_first), keep_going);
    ASSERT_TRUE(r2.ok());
    EXPECT_EQ(r2->tokens.size(), 3u);
}

// A generated BOS shows no text (its bytes "t…" here, "<s>" in a Llama vocabulary, were in the
// answer); the tokens around it are unchanged.
TEST_F(Generator, AGeneratedBosIsNotShownAsText) {
    const auto plain = generate(*session(), make_tokenizer(n_vocab_, -1), request(3));
    ASSERT_TRUE(plain.ok());
    const int32_t second = plain->tokens[1].id;
    ASSERT_NE(plain->tokens[0].id, second) << "the test needs another first token";
    const auto r = generate(*session(), make_tokenizer(n_vocab_, -1, second), request(3));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->tokens.size(), 3u);
    EXPECT_EQ(r->tokens[1].id, second);
    EXPECT_EQ(r->tokens[1].bytes, token_text(second)) << "the token keeps its bytes";
    EXPECT_EQ(r->tokens[1].visible_text, "");
    EXPECT_EQ(r->text, plain->tokens[0].bytes + (plain->tokens[2].id == second ? "" : plain->tokens[2].bytes));
}

TEST_F(Generator, StopStringEndsGenerationAndIsNotShown) {
    auto tok = make_tokenizer(n_vocab_, -1);
    auto plain = generate(*session(), tok, request(4));
    ASSERT_TRUE(plain.ok());
    GenerateRequest r = request(10);
    r.stop_strings = {plain->tokens[2].bytes};
    auto stopped = generate(*session(), tok, r);
    ASSERT_TRUE(stopped.ok());
    EXPECT_EQ(stopped->stop_reason, StopReason::StopString);
    // Same tokens up to the one that completed the stop string (unless it occurred earlier).
    const std::string expected_prefix = plain->tokens[0].bytes + plain->tokens[1].bytes;
    EXPECT_LE(stopped->text.size(), expected_prefix.size());
    EXPECT_EQ(expected_prefix.find(stopped->text), 0u);
    EXPECT_EQ(stopped->text.find(r.stop_strings[0]), std::string::npos);
}

TEST_F(Generator, CancelAllowsAtMostOneMoreTokenEvent) {
    auto tok = make_tokenizer(n_vocab_, -1);
    std::atomic<bool> cancel{false};
    GenerateRequest r = request(20);
    r.cancel = &cancel;
    size_t events_after_cancel = 0;
    bool cancelled = false;
    auto result = generate(*session(), tok, r, [&](const TokenEvent&) {
        if (cancelled) ++events_after_cancel;
        if (!cancelled) {
            cancel = true; // acknowledged from the first event on
            cancelled = true;
        }
    });
    ASSERT_TRUE(result.ok());
    EXPECT_LE(events_after_cancel, 1u);
    EXPECT_EQ(result->stop_reason, StopReason::Cancelled);
}

TEST_F(Generator, FullContextStopsAndLongPromptIsAnError) {
    auto tok = make_tokenizer(n_vocab_, -1);
    auto r = generate(*session(6), tok, request(10)); // 4 prompt tokens + 2 evaluated generated ones
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->stop_reason, StopReason::ContextFull);
    EXPECT_EQ(r->tokens.size(), 3u);

    auto too_long = generate(*session(3), tok, request(10));
    ASSERT_FALSE(too_long.ok());
    EXPECT_EQ(too_long.error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(too_long.error().message, "the prompt has 4 tokens but the context holds 3");
}

TEST_F(Generator, SeededSamplingIsRepeatable) {
    auto tok = make_tokenizer(n_vocab_, -1);
    GenerateRequest r = request(8);
    r.sampling.temperature = 1.0f;
    r.sampling.seed = 42;
    auto a = generate(*session(), tok, r);
    auto b = generate(*session(), tok, r);
    ASSERT_TRUE(a.ok() && b.ok());
    for (size_t k = 0; k < 8; ++k) EXPECT_EQ(a->tokens[k].id, b->tokens[k].id);
}

} // namespace
} // namespace octo
