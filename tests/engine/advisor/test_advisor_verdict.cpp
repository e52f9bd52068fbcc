// The verdict on a rewrite (engine/advisor/rewrite_verdict.h): B's answer against A's, from the
// answers' texts — worse when JSON no longer parses, fewer asked fields are present, an output
// check fails that passed before or arithmetic is now wrong; better the other way round; no
// change otherwise. Answers and expected sentences are written by hand.
// Covers: rewrite_verdict.cpp
#include <gtest/gtest.h>

#include "engine/advisor/rewrite_verdict.h"
#include "tests/engine/advisor/shipped_advisor_rules.h"

namespace octo {
namespace {

const AdvisorRules& shipped() { return test::shipped_advisor_rules(); }

const std::string kAlice = "Return the answer as JSON: name and age of Alice, 30";
const std::string kAliceB = kAlice + R"( Reply with JSON only, exactly in this schema: {"name": string, "age": number})";

TEST(AdvisorVerdict, JsonThatNoLongerParsesIsWorse) {
    const RewriteVerdict v = judge_rewrite(shipped(), kAlice, R"({"name": "Alice", "age": 30})", kAliceB, R"({"name": "Alice" "age": 30})");
    EXPECT_EQ(v.kind, VerdictKind::Worse);
    EXPECT_STREQ(verdict_kind_name(v.kind), "worse");
    // The broken JSON also hides "age" (read up to the error): A 2, B 1 of 2 fields.
    EXPECT_EQ(v.summary.en, "The rewrite made the answer worse: the JSON no longer parses; fewer of the asked fields in the "
                            "JSON (name, age): A 2, B 1 of 2.");
    EXPECT_EQ(v.summary.zh, "改写让回答变差了：JSON 不再能解析；JSON 中所问的字段变少了（name, age）：A 2 个，B 1 个，共 2 个。");
    EXPECT_TRUE(v.better.empty());
}

TEST(AdvisorVerdict, FewerAskedFieldsIsWorse) {
    // Both parse, but B answers with other keys (the defect's generic schema).
    const RewriteVerdict v =
        judge_rewrite(shipped(), kAlice, R"({"name": "Alice", "age": 30})", kAlice + " schema", R"({"result": "Alice", "confidence": 0.9})");
    EXPECT_EQ(v.kind, VerdictKind::Worse);
    ASSERT_EQ(v.worse.size(), 1u);
    EXPECT_EQ(v.worse[0].en, "fewer of the asked fields in the JSON (name, age): A 2, B 0 of 2");
    // Key spelling: "Name" and "AGE" are the asked fields.
    EXPECT_EQ(judge_rewrite(shipped(), kAlice, R"({"result": 1})", kAliceB, R"({"Name": "Alice", "AGE": 30})").kind, VerdictKind::Better);
}

TEST(AdvisorVerdict, BetterWhenJsonNowParsesWithTheFields) {
    const RewriteVerdict v = judge_rewrite(shipped(), kAlice, "Alice is 30 years old.", kAliceB,
                                           "```json\n{\"name\": \"Alice\", \"age\": 30}\n```");
    EXPECT_EQ(v.kind, VerdictKind::Better);
    EXPECT_EQ(v.summary.en, "The rewrite made the answer better: the JSON now parses; more of the asked fields in the JSON "
                            "(name, age): A 0, B 2 of 2.");
    EXPECT_TRUE(v.worse.empty());
}

TEST(AdvisorVerdict, ArithmeticNowWrongIsWorse) {
    const std::string prompt = "Compute the growth from 3731.5 to 3832.9.";
    const RewriteVerdict v = judge_rewrite(shipped(), prompt, "(3832.9-3731.5)/3731.5 ≈ 2.7%", prompt + " Be exact.",
                                           "(3832.9-3731.5)/3731.5 ≈ 2.8%");
    EXPECT_EQ(v.kind, VerdictKind::Worse);
    EXPECT_EQ(v.summary.en, "The rewrite made the answer worse: arithmetic is now wrong (A 0, B 1).");
    EXPECT_EQ(v.summary.zh, "改写让回答变差了：算术现在出错了（A 0 处，B 1 处）。");
    // And the other way round.
    EXPECT_EQ(judge_rewrite(shipped(), prompt, "(3832.9-3731.5)/3731.5 ≈ 2.8%", prompt, "(3832.9-3731.5)/3731.5 ≈ 2.7%").kind,
              VerdictKind::Better);
}

TEST(AdvisorVerdict, AnOutputCheckThatFailsNowIsWorse) {
    const std::string prompt = "Compare two phones in a table.";
    const std::string good = "| a | b |\n|---|---|\n| 1 | 2 |\n";
    const std::string torn = "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n";
    const RewriteVerdict v = judge_rewrite(shipped(), prompt, good, prompt, torn);
    EXPECT_EQ(v.kind, VerdictKind::Worse);
    ASSERT_EQ(v.worse.size(), 1u);
    EXPECT_EQ(v.worse[0].en, "the output check \"Markdown table rows with different column counts\" fails, which passed before (A 0, B 1)");
}

TEST(AdvisorVerdict, WorseWinsOverBetterButBothAreSaid) {
    // B's JSON parses now (better) but its arithmetic is wrong (worse).
    const std::string prompt = "Give the sum as JSON.";
    const RewriteVerdict v = judge_rewrite(shipped(), prompt, "2 + 2 = 4, so {\"sum\": 4", prompt, "2 + 2 = 5, so {\"sum\": 5}");
    EXPECT_EQ(v.kind, VerdictKind::Worse);
    EXPECT_EQ(v.summary.en, "The rewrite made the answer worse: arithmetic is now wrong (A 0, B 1). It did improve: the JSON now parses.");
}

TEST(AdvisorVerdict, NoChange) {
    const RewriteVerdict same = judge_rewrite(shipped(), kAlice, R"({"name": "Alice", "age": 30})", kAliceB, R"({"name": "Alice", "age": 30})");
    EXPECT_EQ(same.kind, VerdictKind::NoChange);
    EXPECT_TRUE(same.same_answer);
    EXPECT_EQ(same.summary.en, "No change: both prompts gave the same answer.");
    const RewriteVerdict differ = judge_rewrite(shipped(), kAlice, R"({"name": "Alice", "age": 30})", kAliceB, R"({"name": "A.", "age": 31})");
    EXPECT_EQ(differ.kind, VerdictKind::NoChange);
    EXPECT_FALSE(differ.same_answer);
    EXPECT_STREQ(verdict_kind_name(differ.kind), "no_change");
    // No JSON asked: a JSON-looking answer is not judged as JSON.
    EXPECT_EQ(judge_rewrite(shipped(), "Say hi.", "{hi", "Say hi!", "hi").kind, VerdictKind::NoChange);
}

TEST(AdvisorVerdict, ATableThatIsGoneIsWorse) {
    // The defect: B answered with broken JSON instead of the table, and the verdict was "No change found".
    const std::string a = "Make a Markdown table of code=816, team=s92";
    const std::string b = a + " Use a Markdown table with exactly these columns: | code | team | (every row has the same number of cells).";
    const RewriteVerdict v = judge_rewrite(shipped(), a, "|code|team|\n|---|---|\n|816|s92|", b, R"(808","age":52,"id":47})");
    EXPECT_EQ(v.kind, VerdictKind::Worse);
    EXPECT_EQ(v.summary.en, "The rewrite made the answer worse: the answer no longer holds a Markdown table; fewer of the asked "
                            "columns in the table header (code, team): A 2, B 0 of 2.");
    EXPECT_EQ(v.summary.zh, "改写让回答变差了：回答中不再有 Markdown 表格；表头中所问的列变少了（code, team）：A 2 个，B 0 个，共 2 个。");
    // The other way round, and a table with the asked columns against one without them.
    EXPECT_EQ(judge_rewrite(shipped(), a, "808", b, "| code | team |\n|---|---|\n| 816 | s92 |").kind, VerdictKind::Better);
    const RewriteVerdict columns = judge_rewrite(shipped(), a, "| item | value |\n|---|---|\n| code | 816 |", b,
                                                 "| Code | Team |\n|---|---|\n| 816 | s92 |");
    EXPECT_EQ(columns.kind, VerdictKind::Better);
    EXPECT_EQ(columns.summary.en, "The rewrite made the answer better: more of the asked columns in the table header (code, "
                                  "team): A 0, B 2 of 2.");
}

TEST(AdvisorVerdict, NoChangeSaysWhatNeitherAnswerGives) {
    const std::string a = "Compare two phones in a table.";
    const RewriteVerdict v = judge_rewrite(shipped(), a, "Phone A is fast.", a + " Use columns.", "Phone B is slow.");
    EXPECT_EQ(v.kind, VerdictKind::NoChange);
    EXPECT_EQ(v.summary.en, "No change found: neither answer gives what was asked (a Markdown table).");
    EXPECT_EQ(v.summary.zh, "未发现变化：两个回答都没有给出所要求的内容（Markdown 表格）。");
    const RewriteVerdict same = judge_rewrite(shipped(), kAlice, "Alice, 30", kAliceB, "Alice, 30");
    EXPECT_EQ(same.summary.en, "No change: both prompts gave the same answer, and it lacks what was asked (JSON that parses).");
    // "table of contents" asks for no table.
    EXPECT_EQ(judge_rewrite(shipped(), "Write a table of contents.", "1. Intro", "Write a table of contents!", "1. Start").summary.en,
              "No change found: the answers differ, but no check (JSON, table, asked fields, output checks) tells them apart.");
}

TEST(AdvisorVerdict, AnEmptyAnswerIsWorse) {
    const RewriteVerdict v = judge_rewrite(shipped(), "Say hi.", "Hi!", "Say hi, briefly.", " \n");
    EXPECT_EQ(v.kind, VerdictKind::Worse);
    EXPECT_EQ(v.summary.en, "The rewrite made the answer worse: B gave no answer.");
}

} // namespace
} // namespace octo
