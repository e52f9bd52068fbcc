// The answers' JSON (engine/serve/openai_response): the legacy completions log-probabilities as
// OpenAI writes them — a token that is not valid UTF-8 as "bytes:\xNN…" (byte tokens all read
// "\ufffd" and overwrote each other in the top_logprobs dict), the dict in order of probability
// (it was alphabetical) — and the keys of an answer in OpenAI's order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/serve/openai_response.h"
#include "engine/tokenizer/vocab.h"

namespace octo::serve {
namespace {

// <unk> <s> </s>, the byte tokens <0xE2> <0x80> <0x94>, then "a", "b".
Tokenizer byte_tokenizer() {
    Vocab v;
    v.model = "llama";
    const auto add = [&v](const std::string& text, TokenType type) {
        v.tokens.push_back(text);
        v.types.push_back(type);
        v.scores.push_back(0.0f);
        return static_cast<int32_t>(v.tokens.size() - 1);
    };
    v.unk_id = add("<unk>", TokenType::Unknown);
    v.bos_id = add("<s>", TokenType::Control);
    v.eos_id = add("</s>", TokenType::Control);
    add("<0xE2>", TokenType::Byte);
    add("<0x80>", TokenType::Byte);
    add("<0x94>", TokenType::Byte);
    add("a", TokenType::Normal);
    add("b", TokenType::Normal);
    set_default_flags(v);
    detect_special_tokens(v);
    auto t = Tokenizer::create(std::move(v));
    EXPECT_TRUE(t.ok());
    return std::move(t.value());
}

TEST(OpenAiResponse, LegacyLogprobsKeepByteTokensApartInOrderOfProbability) {
    const Tokenizer tokenizer = byte_tokenizer();
    CompletionRequest request;
    request.endpoint = Endpoint::Completion;
    request.logprobs = true;
    request.top_logprobs = 5;
    AnswerContext c;
    c.request = &request;
    c.tokenizer = &tokenizer;
    c.id = "cmpl-1";
    c.model = "m";

    TokenEvent e;
    e.id = 3;
    e.bytes = tokenizer.token_bytes(3); // "\xE2"
    e.logprobs.logprob = -0.5f;
    // Most probable first: two byte tokens, "b", a third byte token, "a".
    e.logprobs.top = {{3, -0.5f}, {4, -1.0f}, {7, -1.5f}, {5, -2.0f}, {6, -2.5f}};
    ChoiceRecord record;
    record.tokens = {e};
    GenerateResult result;
    result.text = "";
    record.result = result;

    const nlohmann::ordered_json answer = answer_json(c, {record});
    const auto& lp = answer["choices"][0]["logprobs"];
    EXPECT_EQ(lp["tokens"][0], "bytes:\\xe2");
    const auto& top = lp["top_logprobs"][0];
    ASSERT_EQ(top.size(), 5u) << top.dump();
    std::vector<std::string> keys;
    for (const auto& [key, value] : top.items()) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"bytes:\\xe2", "bytes:\\x80", "b", "bytes:\\x94", "a"}));
    // In the text sent, too (the order of an object's keys is the text's).
    const std::string text = answer.dump();
    EXPECT_LT(text.find(R"("bytes:\\x80")"), text.find(R"("b":)"));
    EXPECT_LT(text.find(R"("b":)"), text.find(R"("a":)"));
    // The envelope in OpenAI's order.
    std::vector<std::string> envelope;
    for (const auto& [key, value] : answer.items()) envelope.push_back(key);
    EXPECT_EQ(envelope, (std::vector<std::string>{"id", "object", "created", "model", "system_fingerprint", "choices", "usage"}));
}

} // namespace
} // namespace octo::serve
