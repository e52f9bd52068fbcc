// Conversations run turn by turn (engine/conversation/conversation_run.h) on a real chat model
// (qwen2-tiny from ../shared/refdata, ChatML): every step reuses the blocks of the conversation
// so far, block by block, with the same measurements as a run that reuses nothing; each message's
// tokens are found; an edit keeps the blocks before it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/conversation/conversation_run.h"
#include "engine/host/model_run.h"
#include "tests/support/shared_data.h"

namespace octo {
namespace {

size_t common_prefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return n;
}

std::vector<ChatMessage> twenty_turns() {
    std::vector<ChatMessage> m;
    for (int k = 1; k <= 10; ++k) {
        m.push_back({ChatRole::User, "Turn " + std::to_string(k) + ": the box now holds " + std::to_string(k * 3) + " apples."});
        m.push_back({ChatRole::Assistant, "Noted, " + std::to_string(k * 3) + " apples after turn " + std::to_string(k) + "."});
    }
    return m;
}

class ConversationRunTest : public testing::Test {
protected:
    void SetUp() override {
        const auto dir = test::refdata_dir();
        if (!dir) GTEST_SKIP() << "../shared/refdata is absent";
        auto opened = open_model((*dir / "qwen2-tiny-f32.gguf").string(), {.backend = "cpu", .threads = 1, .n_ctx = 2048});
        ASSERT_TRUE(opened) << opened.error().message;
        model_ = std::make_unique<OpenedModel>(std::move(opened.value()));
    }
    Result<ConversationRun> run(const std::vector<ChatMessage>& messages, int64_t max_tokens = 4, bool attention = false) {
        RunSpec base;
        base.max_tokens = max_tokens;
        base.record_attention = attention;
        base.attention_keeps_kv = attention; // the workbench's conversations
        return run_conversation(messages, base, [&](const RunSpec& spec) { return run_traced(*model_, spec); });
    }
    std::unique_ptr<OpenedModel> model_;
};

TEST_F(ConversationRunTest, TwentyTurnsReuseTheConversationSoFarBlockByBlock) {
    const std::vector<ChatMessage> messages = twenty_turns();
    auto r = run(messages);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->steps.size(), 10u) << "one step per assistant turn; the file ends with one, so nothing is generated";
    EXPECT_FALSE(r->steps.back().generated);
    EXPECT_EQ(r->messages.size(), messages.size());
    const int32_t block = r->last()->outcome->kv.block_size;
    ASSERT_GT(block, 0);
    for (size_t k = 0; k < r->steps.size(); ++k) {
        const RunTrace& t = r->steps[k].trace;
        EXPECT_EQ(r->steps[k].message, 2 * k + 1);
        EXPECT_EQ(t.n_generated(), 0u) << "a given assistant turn is evaluated, not generated";
        // The pool reuses every whole block the previous step's prompt shares with this one (the
        // last prompt token is always recomputed).
        const size_t shared = k == 0 ? 0 : common_prefix(r->steps[k - 1].trace.prompt_ids(), t.prompt_ids());
        const size_t expected = std::min(shared, t.n_prompt - 1) / static_cast<size_t>(block) * static_cast<size_t>(block);
        EXPECT_EQ(t.outcome->reused_tokens, static_cast<int64_t>(expected)) << "step " << k;
        EXPECT_EQ(t.outcome->reused_tokens + t.outcome->evaluated_tokens, static_cast<int64_t>(t.n_prompt)) << "step " << k;
        if (k > 0) {
            EXPECT_GE(shared, r->steps[k - 1].trace.n_prompt - 8) << "each step extends the previous prompt but its generation prompt";
        }
    }
    // The last step's reused blocks hold what a run that reuses nothing computes, block by block.
    const RunTrace& reused = *r->last();
    model_->kv->pool().forget_cached();
    auto fresh = run_traced(*model_, reused.spec);
    ASSERT_TRUE(fresh) << fresh.error().message;
    EXPECT_EQ(fresh->outcome->reused_tokens, 0);
    ASSERT_EQ(fresh->n_prompt, reused.n_prompt);
    for (size_t p = 0; p < reused.n_prompt; ++p) {
        const auto& a = reused.tokens[p].metrics.norm_share;
        const auto& b = fresh->tokens[p].metrics.norm_share;
        ASSERT_TRUE(a && b) << "position " << p;
        ASSERT_EQ(*a, *b) << "block " << p / static_cast<size_t>(block) << ", position " << p;
    }
    // Every message's content is found, its tokens spell it.
    ASSERT_EQ(r->turns.size(), messages.size());
    for (const ConversationTurn& turn : r->turns) {
        ASSERT_TRUE(turn.content_begin) << "message " << turn.message;
        ASSERT_LT(turn.first_token, turn.end_token) << "message " << turn.message;
        std::string bytes;
        for (size_t i = turn.first_token; i < turn.end_token; ++i) bytes += reused.tokens[i].bytes;
        EXPECT_NE(bytes.find(messages[turn.message].content), std::string::npos) << bytes;
    }
}

TEST_F(ConversationRunTest, EditingATurnKeepsTheBlocksBeforeIt) {
    std::vector<ChatMessage> messages = twenty_turns();
    messages.resize(8);
    ASSERT_TRUE(run(messages));
    messages[6].content = "Turn 4: the box now holds 100 apples."; // a user turn in the middle
    auto edited = run(messages);
    ASSERT_TRUE(edited) << edited.error().message;
    ASSERT_EQ(edited->steps.size(), 4u);
    const RunTrace& before_edit = edited->steps[2].trace; // assistant message 5: everything before the edit
    EXPECT_EQ(before_edit.outcome->evaluated_tokens, 1 + static_cast<int64_t>((before_edit.n_prompt - 1) % before_edit.outcome->kv.block_size))
        << "an unchanged step recomputes only what lies past its last whole block";
    const RunTrace& after_edit = edited->steps[3].trace;
    const size_t edit_at = *edited->turns[6].content_begin;
    size_t edit_token = 0;
    while (edit_token < after_edit.n_prompt) {
        size_t bytes = 0;
        for (size_t i = 0; i <= edit_token; ++i) bytes += after_edit.tokens[i].bytes.size();
        if (bytes > edit_at) break;
        ++edit_token;
    }
    EXPECT_GE(after_edit.outcome->reused_tokens + after_edit.outcome->kv.block_size, static_cast<int64_t>(edit_token) - 1)
        << "the blocks before the edited turn are reused";
}

// The workbench records attention in conversations and still reuses the conversation so far: the
// reused positions come without weights, the new turn's positions with the weights a run that
// reuses nothing computes. Without attention_keeps_kv, attention turns reuse off.
TEST_F(ConversationRunTest, AttentionKeepsTheReuseAndTheNewTurnsWeights) {
    std::vector<ChatMessage> messages = twenty_turns();
    messages.resize(6);
    auto r = run(messages, 4, true);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->steps.size(), 3u);
    const RunTrace& last = *r->last();
    const int64_t reused = last.outcome->reused_tokens;
    ASSERT_GT(reused, 0) << "the conversation so far is reused with attention recorded";
    for (size_t p = 0; p < last.n_prompt; ++p) {
        EXPECT_EQ(last.tokens[p].probe.attention.empty(), static_cast<int64_t>(p) < reused) << "position " << p;
    }
    RunSpec fresh_spec = last.spec;
    fresh_spec.attention_keeps_kv = false;
    auto fresh = run_traced(*model_, fresh_spec);
    ASSERT_TRUE(fresh) << fresh.error().message;
    EXPECT_EQ(fresh->outcome->reused_tokens, 0) << "attention without attention_keeps_kv reuses nothing";
    ASSERT_EQ(fresh->n_prompt, last.n_prompt);
    for (size_t p = static_cast<size_t>(reused); p < last.n_prompt; ++p) {
        const std::vector<float>& a = last.tokens[p].probe.attention;
        const std::vector<float>& b = fresh->tokens[p].probe.attention;
        ASSERT_EQ(a.size(), b.size()) << "position " << p;
        for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-5f) << "position " << p << ", weight " << i;
    }
}

TEST_F(ConversationRunTest, AMissingLastAssistantTurnIsGenerated) {
    const std::vector<ChatMessage> messages = {{ChatRole::User, "Hi"}, {ChatRole::User, "Two user turns in a row."}};
    auto r = run(messages, 5);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->steps.size(), 1u);
    EXPECT_TRUE(r->steps[0].generated);
    ASSERT_EQ(r->messages.size(), 3u);
    EXPECT_EQ(r->messages[2].role, ChatRole::Assistant);
    EXPECT_EQ(r->messages[2].content, r->last()->outcome->text);
    EXPECT_EQ(r->turns[2].first_token, r->last()->n_prompt);
    EXPECT_EQ(r->turns[2].end_token, r->last()->tokens.size());
    EXPECT_FALSE(run({}, 5)) << "no messages";
    EXPECT_FALSE(run({{ChatRole::User, "u"}, {ChatRole::System, "late"}}, 5)) << "a system message after the first";
}

} // namespace
} // namespace octo
