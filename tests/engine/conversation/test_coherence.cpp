// The coherence measures (engine/conversation/coherence.h, docs/coherence.md): each finding's
// kind, key and the bytes it points at, in English and Chinese, and the conversations that must
// not be flagged (paraphrases, corrections the assistant adopts, questions).
// Covers: coherence_eval.cpp
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/conversation/coherence.h"
#include "engine/conversation/coherence_eval.h"

namespace octo {
namespace {

const std::string kLexicon = std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/coherence/sentiment_lexicon.json";

const SentimentLexicon& lexicon() {
    static const SentimentLexicon lex = [] {
        auto l = read_sentiment_lexicon(kLexicon);
        EXPECT_TRUE(l) << (l ? "" : l.error().message);
        return l ? l.value() : SentimentLexicon{};
    }();
    return lex;
}

ChatMessage user(std::string text) { return {ChatRole::User, std::move(text)}; }
ChatMessage assistant(std::string text) { return {ChatRole::Assistant, std::move(text)}; }

std::string text_of(const std::vector<ChatMessage>& m, const MessageSpan& s) { return m[s.message].content.substr(s.begin, s.end - s.begin); }

int count(const CoherenceReport& r, CoherenceKind kind) {
    int n = 0;
    for (const CoherenceFinding& f : r.findings) n += f.kind == kind ? 1 : 0;
    return n;
}

TEST(Coherence, ATurnThatSwapsTwoNamesIsFlagged) {
    const std::vector<ChatMessage> m = {
        user("Alice is the manager and Bob is the engineer. Who should approve the budget?"),
        assistant("Noted: Alice is the manager. The manager should approve it, so Alice Chen is the one to ask."),
        user("And who fixes the build?"),
        assistant("The engineer fixes the build."),
        user("Summarise the roles."),
        assistant("Bob, the manager, approves budgets, and Alice, the engineer, fixes builds."),
    };
    const CoherenceReport r = measure_coherence(m, lexicon());
    ASSERT_EQ(count(r, CoherenceKind::EntityReference), 2) << coherence_json(r, m).dump(2);
    const CoherenceFinding& f = r.findings[0];
    EXPECT_EQ(f.key, "the manager");
    EXPECT_EQ(f.earlier.message, 1u) << "the latest statement: the assistant's own restatement";
    EXPECT_EQ(f.later.message, 5u);
    EXPECT_EQ(text_of(m, f.earlier), "Alice is the manager");
    EXPECT_EQ(text_of(m, f.later), "Bob, the manager");
    EXPECT_NE(f.explanation.find("was Alice"), std::string::npos) << f.explanation;
    EXPECT_NE(f.suggestion_en.find("system message (\"Alice is the manager\")"), std::string::npos) << f.suggestion_en;
    EXPECT_NE(f.suggestion_zh.find("系统消息"), std::string::npos);
    EXPECT_EQ(r.findings[1].key, "the engineer");
    // One window of 3 assistant turns, broken on entity reference only.
    ASSERT_EQ(r.windows.size(), 1u);
    EXPECT_EQ(r.windows[0].breaks[0], 2);
    EXPECT_DOUBLE_EQ(r.coherent_share[0], 0.0);
    EXPECT_DOUBLE_EQ(r.coherent_share[1], 1.0);
}

TEST(Coherence, AParaphraseIsNotFlagged) {
    const std::vector<ChatMessage> m = {
        user("Alice is the manager and Bob is the engineer. The trip to the plant is 12 km."),
        assistant("Understood: the manager is Alice and the engineer is Bob."),
        user("How far is the plant?"),
        assistant("The trip is 12 kilometres, so about 12000 m."),
        user("And who leads?"),
        assistant("The manager, Alice, leads; Bob is the engineer."),
    };
    const CoherenceReport r = measure_coherence(m, lexicon());
    EXPECT_TRUE(r.findings.empty()) << coherence_json(r, m).dump(2);
    EXPECT_DOUBLE_EQ(r.coherent_share[0], 1.0);
}

TEST(Coherence, QuantitiesDatesAndNumbersThatChange) {
    const std::vector<ChatMessage> m = {
        user("The trip is 12 km and the meeting is on May 3, 2025."),
        assistant("Noted. The trip is 12 km."),
        assistant("The trip is 15 km, and the meeting is on 2025-05-04."),
        assistant("So the answer is 42."),
        assistant("Correction: the answer is 40."),
    };
    const CoherenceReport r = measure_coherence(m, lexicon());
    ASSERT_EQ(r.findings.size(), 3u) << coherence_json(r, m).dump(2);
    EXPECT_EQ(r.findings[0].key, "trip (length)");
    EXPECT_EQ(text_of(m, r.findings[0].earlier), "12 km");
    EXPECT_EQ(r.findings[0].earlier.message, 1u) << "compared with the latest statement";
    EXPECT_EQ(text_of(m, r.findings[0].later), "15 km");
    EXPECT_EQ(r.findings[1].key, "meeting (date)");
    EXPECT_EQ(text_of(m, r.findings[1].later), "2025-05-04");
    EXPECT_EQ(r.findings[2].kind, CoherenceKind::LogicalContinuity);
    EXPECT_EQ(r.findings[2].key, "answer (number)");
}

TEST(Coherence, ACorrectionTheAssistantAdoptsIsNoBreak) {
    const std::vector<ChatMessage> m = {
        assistant("The trip is 12 km."), // an assistant turn first: any order OpenAI accepts
        user("No, the trip is 15 km."),
        user("Please use that."),
        assistant("Right, the trip is 15 km."),
        assistant("Is the trip 20 km? No."),
    };
    const CoherenceReport r = measure_coherence(m, lexicon());
    EXPECT_TRUE(r.findings.empty()) << coherence_json(r, m).dump(2);
}

TEST(Coherence, NegationIsALogicalBreak) {
    const std::vector<ChatMessage> m = {
        user("Alice likes green tea."),
        assistant("Since Alice likes green tea, bring some."),
        assistant("Alice does not like green tea, so bring coffee."),
    };
    const CoherenceReport r = measure_coherence(m, lexicon());
    ASSERT_EQ(count(r, CoherenceKind::LogicalContinuity), 1) << coherence_json(r, m).dump(2);
    EXPECT_EQ(r.findings[0].key, "alice like green tea");
    EXPECT_EQ(text_of(m, r.findings[0].later), "Alice does not like green tea");
}

TEST(Coherence, ChineseNamesQuantitiesAndNegation) {
    const std::vector<ChatMessage> m = {
        user("爱丽丝是经理，鲍勃是工程师。这次旅行是12公里。"),
        assistant("好的，爱丽丝是经理。旅行是12公里。"),
        assistant("鲍勃是经理，旅行是15公里。"),
        assistant("会议室有投影仪。"),
        assistant("会议室没有投影仪。"),
    };
    const CoherenceReport r = measure_coherence(m, lexicon());
    ASSERT_EQ(r.findings.size(), 3u) << coherence_json(r, m).dump(2);
    EXPECT_EQ(r.findings[0].key, "经理");
    EXPECT_EQ(text_of(m, r.findings[0].later), "鲍勃是经理");
    EXPECT_EQ(r.findings[1].key, "旅行 (length)");
    EXPECT_EQ(text_of(m, r.findings[1].later), "15公里");
    EXPECT_EQ(r.findings[2].kind, CoherenceKind::LogicalContinuity);
    // A paraphrase in Chinese is not flagged.
    const std::vector<ChatMessage> same = {user("爱丽丝是经理。"), assistant("明白，爱丽丝是经理。"), assistant("经理是爱丽丝。")};
    EXPECT_TRUE(measure_coherence(same, lexicon()).findings.empty());
}

TEST(Coherence, SentimentJumpsBetweenAdjacentAssistantTurns) {
    const std::vector<ChatMessage> m = {
        user("How did the launch go?"),
        assistant("It was a great success and the team is happy."),
        assistant("The results are good."),
        assistant("It was a terrible failure and everyone is upset."),
        assistant("结果不好，大家很失望。"),
    };
    const CoherenceReport r = measure_coherence(m, lexicon());
    ASSERT_EQ(r.sentiment.size(), 4u);
    EXPECT_DOUBLE_EQ(r.sentiment[0].score, 1.0);
    EXPECT_DOUBLE_EQ(r.sentiment[2].score, -1.0);
    EXPECT_DOUBLE_EQ(r.sentiment[3].score, -1.0) << "不好 is negated 好";
    ASSERT_EQ(count(r, CoherenceKind::SentimentStability), 1) << coherence_json(r, m).dump(2);
    EXPECT_EQ(text_of(m, r.findings[0].earlier), "good");
    EXPECT_EQ(text_of(m, r.findings[0].later), "terrible");
    // "not good" is negative: no jump from a negative turn.
    const std::vector<ChatMessage> steady = {assistant("This is bad."), assistant("It is not good.")};
    EXPECT_EQ(count(measure_coherence(steady, lexicon()), CoherenceKind::SentimentStability), 0);
    // Windows: 4 assistant turns give 2 windows of 3.
    EXPECT_EQ(r.windows.size(), 2u);
}

TEST(Coherence, ALexiconFileThatIsWrongIsAnError) {
    EXPECT_FALSE(read_sentiment_lexicon("/nonexistent/lexicon.json"));
    const std::string path = testing::TempDir() + "/bad_lexicon.json";
    {
        std::FILE* f = std::fopen(path.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs(R"({"en": {"positive": ["good"], "negative": [], "negators": ["not"]}, "zh": {}})", f);
        std::fclose(f);
    }
    auto lex = read_sentiment_lexicon(path);
    std::remove(path.c_str());
    ASSERT_FALSE(lex);
    EXPECT_NE(lex.error().message.find("en.negative"), std::string::npos) << lex.error().message;
}

// Precision and recall are counted per (kind, assistant message): two findings of one kind in
// one message count once; a label no finding matches is missed.
TEST(CoherenceEval, CountsMatchesPerKindAndMessage) {
    std::vector<LabelledConversation> set;
    set.push_back({"swap",
                   {user("Alice is the manager and Bob is the engineer."), assistant("Bob, the manager, and Alice, the engineer.")},
                   {{CoherenceKind::EntityReference, 1}}}); // two findings, one label: tp 1
    set.push_back({"missed", {user("Anna is the pilot."), assistant("She is not the pilot.")}, {{CoherenceKind::EntityReference, 1}}});
    set.push_back({"spurious", {user("The box weighs 3 kg."), assistant("Now that it is full, the box weighs 6 kg.")}, {}});
    const CoherenceScore s = score_coherence(set, lexicon(), {});
    const DetectionScore& e = s.kinds[static_cast<size_t>(CoherenceKind::EntityReference)];
    EXPECT_EQ(e.true_positives, 1);
    EXPECT_EQ(e.false_negatives, 1);
    EXPECT_EQ(e.false_positives, 1) << "the box changed in the story; the rules cannot tell";
    EXPECT_DOUBLE_EQ(s.all.precision(), 0.5);
    EXPECT_DOUBLE_EQ(s.all.recall(), 0.5);
    EXPECT_NEAR(s.all.precision_ci().lo, wilson_interval(1, 2).lo, 1e-15);
    ASSERT_EQ(s.missed.size(), 1u);
    EXPECT_EQ(s.missed[0], "missed: entity_reference at message 1");
    ASSERT_EQ(s.spurious.size(), 1u);
    EXPECT_EQ(s.spurious[0], "spurious: entity_reference at message 1");
}

TEST(CoherenceEval, TheDefaultsAreWhatTheCalibrationSetChooses) {
    auto calibration = read_coherence_set(std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/coherence/calibration.json");
    ASSERT_TRUE(calibration) << calibration.error().message;
    auto heldout = read_coherence_set(std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/coherence/heldout.json");
    ASSERT_TRUE(heldout) << heldout.error().message;
    EXPECT_GE(calibration->size(), 15u);
    EXPECT_GE(heldout->size(), 15u);
    for (const auto& c : calibration.value()) {
        for (const auto& h : heldout.value()) EXPECT_NE(c.id, h.id) << "the sets are disjoint";
    }
    const CoherenceThresholds chosen = calibrate_coherence(calibration.value(), lexicon());
    const CoherenceThresholds defaults;
    EXPECT_DOUBLE_EQ(chosen.sentiment_jump, defaults.sentiment_jump);
    EXPECT_DOUBLE_EQ(chosen.number_tolerance, defaults.number_tolerance);
}

TEST(CoherenceEval, MalformedSetsAreErrors) {
    const std::string path = testing::TempDir() + "/bad_set.json";
    for (const char* body : {R"({"conversations": [{"id": "a", "messages": [{"role": "user", "content": "x"}], "breaks": [{"kind": "entity_reference", "message": 0}]}]})",
                             R"({"conversations": [{"id": "a", "messages": [{"role": "assistant", "content": "x"}], "breaks": [{"kind": "vibes", "message": 0}]}]})",
                             R"({"conversations": [{"messages": []}]})", R"([])"}) {
        {
            std::FILE* f = std::fopen(path.c_str(), "w");
            ASSERT_NE(f, nullptr);
            std::fputs(body, f);
            std::fclose(f);
        }
        EXPECT_FALSE(read_coherence_set(path)) << body;
    }
    std::remove(path.c_str());
}

} // namespace
} // namespace octo
