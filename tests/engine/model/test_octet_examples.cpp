// Help → Examples (resources/examples/octet_examples.json): every example is run on the built-in
// model octet through the engine — the prompt through the model's prompt template, greedy, until
// end of generation — and must give exactly the answer the file states. The answers were written
// by hand from what each prompt asks (docs/octet.md's answer conventions), never taken from a run.
// The file must also cover every subsystem, in English at least, with a description in English
// and Chinese for each example.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/conversation/coherence.h"
#include "engine/generation/generator.h"
#include "engine/generation/prompt_builder.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"

namespace octo {
namespace {

const std::filesystem::path kResources = std::filesystem::path(OCTOSCOPE_SOURCE_DIR) / "resources";

nlohmann::json read_examples() {
    std::ifstream in(kResources / "examples" / "octet_examples.json");
    EXPECT_TRUE(in) << "resources/examples/octet_examples.json is missing";
    return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

TEST(OctetExamples, CoverEverySubsystemWithBothDescriptions) {
    const nlohmann::json doc = read_examples();
    ASSERT_TRUE(doc.is_object()) << "the examples file is not valid JSON";
    ASSERT_TRUE(doc["examples"].is_array());
    std::set<std::pair<std::string, std::string>> seen; // (subsystem, lang)
    std::set<std::string> prompts;
    for (const auto& e : doc["examples"]) {
        const std::string subsystem = e.value("subsystem", "");
        const std::string lang = e.value("lang", "");
        ASSERT_TRUE(subsystem.size() == 5 && subsystem.starts_with("rte-") && subsystem[4] >= 'a' && subsystem[4] <= 'h') << subsystem;
        ASSERT_TRUE(lang == "en" || lang == "zh") << lang;
        EXPECT_FALSE(e.value("prompt", "").empty());
        EXPECT_FALSE(e.value("answer", "").empty());
        EXPECT_FALSE(e["description"].value("en", "").empty()) << e["prompt"];
        EXPECT_FALSE(e["description"].value("zh", "").empty()) << e["prompt"];
        EXPECT_TRUE(prompts.insert(e.value("prompt", "")).second) << "listed twice: " << e["prompt"];
        seen.insert({subsystem, lang});
    }
    for (char s = 'a'; s <= 'h'; ++s) {
        EXPECT_TRUE(seen.contains({std::string("rte-") + s, "en"})) << "no English example for rte-" << s;
    }
}

TEST(OctetExamples, OctetGivesEveryStatedAnswer) {
    const nlohmann::json doc = read_examples();
    ASSERT_TRUE(doc.is_object() && doc["examples"].is_array());
    auto model = Model::load((kResources / "octet" / "octet.gguf").string());
    ASSERT_TRUE(model) << model.error().message;
    auto vocab = vocab_from_gguf((*model)->file());
    ASSERT_TRUE(vocab) << vocab.error().message;
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    ASSERT_TRUE(tokenizer) << tokenizer.error().message;
    auto backend = CpuBackend::create({2, {}});
    ASSERT_TRUE(backend) << backend.error().message;
    auto session = Session::create(**model, **backend); // the model's default precision, as the workbench
    ASSERT_TRUE(session) << session.error().message;
    size_t checked = 0;
    for (const auto& e : doc["examples"]) {
        PromptSpec spec;
        spec.prompt = e["prompt"].get<std::string>();
        auto prompt = build_prompt((*model)->file(), *tokenizer, spec);
        ASSERT_TRUE(prompt) << prompt.error().message;
        GenerateRequest request; // temperature 0: greedy
        request.prompt_ids = prompt->ids;
        request.max_tokens = 64;
        auto out = generate(**session, *tokenizer, request);
        ASSERT_TRUE(out) << out.error().message;
        EXPECT_EQ(out->stop_reason, StopReason::EndOfGeneration) << spec.prompt;
        EXPECT_EQ(out->text, e["answer"].get<std::string>()) << e["subsystem"] << " " << e["lang"] << ": " << spec.prompt;
        ++checked;
    }
    EXPECT_GE(checked, 8u);

    // The conversations: each user turn of a script gets the stated answer, with the answers
    // before it in the conversation (octet reads the last user message through its prompt template).
    size_t turns = 0;
    for (const auto& c : doc["conversations"]) {
        if (c["answers"].empty()) continue;
        std::vector<ChatMessage> messages;
        size_t k = 0;
        for (const auto& m : c["messages"]) {
            ASSERT_EQ(m["role"], "user") << "a script holds user turns only";
            messages.push_back({ChatRole::User, m["content"].get<std::string>()});
            PromptSpec spec;
            spec.messages = messages;
            auto prompt = build_prompt((*model)->file(), *tokenizer, spec);
            ASSERT_TRUE(prompt) << prompt.error().message;
            GenerateRequest request;
            request.prompt_ids = prompt->ids;
            request.max_tokens = 64;
            auto out = generate(**session, *tokenizer, request);
            ASSERT_TRUE(out) << out.error().message;
            ASSERT_LT(k, c["answers"].size()) << "one answer per user turn";
            EXPECT_EQ(out->text, c["answers"][k].get<std::string>()) << "turn " << k + 1 << ": " << messages.back().content;
            messages.push_back({ChatRole::Assistant, out->text});
            ++k;
            ++turns;
        }
        EXPECT_EQ(k, c["answers"].size());
    }
    EXPECT_GE(turns, 6u);
}

// The conversations whose assistant turns are given show one coherence break each, in their last
// turn (what their descriptions promise the advisor flags).
TEST(OctetExamples, GivenConversationsBreakInTheirLastTurn) {
    const nlohmann::json doc = read_examples();
    ASSERT_TRUE(doc.is_object() && doc["conversations"].is_array());
    auto lexicon = read_default_sentiment_lexicon(kResources.string());
    ASSERT_TRUE(lexicon) << lexicon.error().message;
    size_t given = 0;
    for (const auto& c : doc["conversations"]) {
        if (!c["answers"].empty()) continue;
        std::vector<ChatMessage> messages;
        for (const auto& m : c["messages"]) {
            const std::string role = m["role"];
            messages.push_back({role == "assistant" ? ChatRole::Assistant : role == "system" ? ChatRole::System : ChatRole::User,
                                m["content"].get<std::string>()});
        }
        const CoherenceReport report = measure_coherence(messages, *lexicon);
        ASSERT_EQ(report.findings.size(), 1u) << c["messages"][0]["content"];
        EXPECT_EQ(report.findings[0].later.message, messages.size() - 1);
        ++given;
    }
    EXPECT_GE(given, 2u) << "an English and a Chinese break";
}

} // namespace
} // namespace octo
