// Prompt detectors of the shipped advisor rules: each with prompts that must and must not fire,
// in English and Chinese, and byte-offset spans that land on code points.
// Covers: prompt_detectors.cpp
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/advisor/prompt_detectors.h"
#include "tests/engine/advisor/shipped_advisor_rules.h"

namespace octo {
namespace {

const AdvisorRules& shipped() { return test::shipped_advisor_rules(); }

// The evidence of the findings of `rule` on `prompt`.
std::vector<std::string> hits(const std::string& rule, const std::string& prompt) {
    std::vector<std::string> out;
    for (const Finding& f : check_prompt(shipped(), prompt)) {
        EXPECT_EQ(prompt.substr(f.start, f.end - f.start), f.evidence);
        if (f.rule == rule) out.push_back(f.evidence);
    }
    return out;
}

using Strings = std::vector<std::string>;

TEST(AdvisorPrompt, VagueTimeWords) {
    EXPECT_EQ(hits("rte-a.vague_time", "What is Apple's revenue recently?"), Strings{"recently"});
    EXPECT_EQ(hits("rte-a.vague_time", "Who is the current CEO of Microsoft?"), Strings{"current"});
    EXPECT_EQ(hits("rte-a.vague_time", "苹果公司最近几年的营收是多少？目前呢？"), (Strings{"最近", "目前"}));
    EXPECT_EQ(hits("rte-a.vague_time", "这几年华为的研发投入怎么样"), Strings{"这几年"});
    EXPECT_TRUE(hits("rte-a.vague_time", "What was Apple's revenue in 2023, and what is it recently?").empty()); // a year pins it
    EXPECT_TRUE(hits("rte-a.vague_time", "苹果公司2023年的营收是多少").empty());
    EXPECT_TRUE(hits("rte-a.vague_time", "目前截至2024年3月的数据").empty());
    EXPECT_TRUE(hits("rte-a.vague_time", "Now, compute 12% of 50.").empty()); // "Now," is a discourse marker
    EXPECT_TRUE(hits("rte-a.vague_time", "I know the answer.").empty());
    EXPECT_TRUE(hits("rte-a.vague_time", "计算12%乘以50").empty());
}

TEST(AdvisorPrompt, MultipleNegationInOneSentence) {
    EXPECT_EQ(hits("rte-d.multiple_negation", "It is not true that the drug never fails. Answer."),
              Strings{"not true that the drug never"});
    EXPECT_EQ(hits("rte-d.multiple_negation", "我不认为他没有责任。"), Strings{"不认为他没有"});
    EXPECT_TRUE(hits("rte-d.multiple_negation", "This is not a drill. Never mind.").empty()); // two sentences
    EXPECT_TRUE(hits("rte-d.multiple_negation", "他不同意。我们没有时间。").empty());
    EXPECT_TRUE(hits("rte-d.multiple_negation", "这个方法非常好，不断改进，无论如何都行。").empty()); // 非常, 不断, 无论
    EXPECT_TRUE(hits("rte-d.multiple_negation", "Is the answer correct?").empty());
}

TEST(AdvisorPrompt, Counterfactuals) {
    EXPECT_EQ(hits("rte-d.counterfactual", "If the bank had raised rates, would inflation have fallen?").size(), 1u);
    EXPECT_EQ(hits("rte-d.counterfactual", "Were it not for the rain, the match would go ahead.").size(), 1u);
    EXPECT_EQ(hits("rte-d.counterfactual", "要是当初没有降息，房价会不会涨？").size(), 1u);
    EXPECT_EQ(hits("rte-d.counterfactual", "要不是下雨，比赛就举行了。").size(), 1u);
    EXPECT_TRUE(hits("rte-d.counterfactual", "If the rate rises, will inflation fall?").empty());
    EXPECT_TRUE(hits("rte-d.counterfactual", "He had a car. Would you have guessed?").empty());
    EXPECT_TRUE(hits("rte-d.counterfactual", "如果明天下雨，比赛会推迟吗？").empty());
}

TEST(AdvisorPrompt, NestedConditionalsDeeperThanThree) {
    const std::string en = "If A then B, else if C then D, unless E, in which case if F then G.";
    EXPECT_EQ(hits("rte-d.nested_conditionals", en), Strings{en.substr(0, en.size() - 10)});
    EXPECT_EQ(hits("rte-d.nested_conditionals", "如果下雨，假如没带伞，要是公交停运，否则就走路，该怎么办？").size(), 1u);
    EXPECT_TRUE(hits("rte-d.nested_conditionals", "If it rains, take an umbrella; otherwise, if it is sunny, wear a hat.").empty());
    EXPECT_TRUE(hits("rte-d.nested_conditionals", "如果下雨就带伞，否则戴帽子。若干人参加。").empty());
}

TEST(AdvisorPrompt, AnalyseWhereAComputationIsAsked) {
    EXPECT_EQ(hits("rte-c.analyse_for_computation", "Analyze the growth rate of revenue from 3731.5 to 3832.9."),
              Strings{"Analyze"});
    EXPECT_EQ(hits("rte-c.analyse_for_computation", "请分析苹果2023年营收同比增长率"), Strings{"分析"});
    EXPECT_TRUE(hits("rte-c.analyse_for_computation", "Analyse the themes of this poem.").empty());
    EXPECT_TRUE(hits("rte-c.analyse_for_computation", "Analyse the 3 themes of this poem.").empty()); // no quantity
    EXPECT_TRUE(hits("rte-c.analyse_for_computation", "分析一下这首诗的主题").empty());
    EXPECT_TRUE(hits("rte-c.analyse_for_computation", "计算苹果2023年营收同比增长率").empty());
}

TEST(AdvisorPrompt, FormatWithoutSchemaOrAnchor) {
    EXPECT_EQ(hits("rte-g.json_without_schema", "List three fruits as JSON."), Strings{"JSON"});
    EXPECT_EQ(hits("rte-g.json_without_schema", "用JSON格式列出三种水果"), Strings{"JSON"});
    EXPECT_TRUE(hits("rte-g.json_without_schema", R"(List three fruits as JSON like {"name": "apple"}.)").empty());
    EXPECT_TRUE(hits("rte-g.json_without_schema", "Return JSON with the fields name and colour.").empty());
    EXPECT_TRUE(hits("rte-g.json_without_schema", "用JSON输出，字段为 name 和 color").empty());
    EXPECT_TRUE(hits("rte-g.json_without_schema", "List three fruits.").empty());
    EXPECT_EQ(hits("rte-g.table_without_columns", "Compare the three phones in a table."), Strings{"table"});
    EXPECT_EQ(hits("rte-g.table_without_columns", "用表格对比三款手机"), Strings{"表格"});
    EXPECT_TRUE(hits("rte-g.table_without_columns", "Compare them in a table with columns: name, price.").empty());
    EXPECT_TRUE(hits("rte-g.table_without_columns", "用表格对比，列为：型号、价格").empty());
    EXPECT_TRUE(hits("rte-g.table_without_columns", "Explain the periodic table.").empty());
    EXPECT_EQ(hits("rte-g.markup_without_example", "Write the config as YAML.").size(), 1u);
    EXPECT_TRUE(hits("rte-g.markup_without_example", "Write the config as YAML, for example:\nname: x").empty());
}

TEST(AdvisorPrompt, LongDocumentSummary) {
    EXPECT_EQ(hits("rte-b.long_document_summary", "Summarize this 50-page report."), Strings{"Summarize"});
    EXPECT_EQ(hits("rte-b.long_document_summary", "请总结全文的要点"), Strings{"总结"});
    std::string long_text = "Summarise the text below.\n";
    while (long_text.size() < 2100) long_text += "The committee met and discussed the budget. ";
    EXPECT_EQ(hits("rte-b.long_document_summary", long_text).size(), 1u);
    std::string long_zh = "请概括下文：";
    for (int k = 0; k < 1000; ++k) long_zh += "会议";
    EXPECT_EQ(hits("rte-b.long_document_summary", long_zh).size(), 1u); // 2006 code points
    long_zh.erase(long_zh.size() - 600 * 6);
    EXPECT_TRUE(hits("rte-b.long_document_summary", long_zh).empty()); // 806 code points (2418 bytes): not long
    EXPECT_TRUE(hits("rte-b.long_document_summary", "Summarize: the cat sat on the mat.").empty());
    EXPECT_TRUE(hits("rte-b.long_document_summary", "总结一下这句话：今天天气很好。").empty());
    EXPECT_TRUE(hits("rte-b.long_document_summary", "Summarize this 50-page report paragraph by paragraph.").empty());
}

TEST(AdvisorPrompt, CodeWithExternalLibraries) {
    EXPECT_EQ(hits("rte-e.external_libraries", "Write a Python function using pandas to average a column."),
              Strings{"using pandas"});
    EXPECT_EQ(hits("rte-e.external_libraries", "写一个函数，用 numpy 库计算均值"), Strings{"用 numpy 库"});
    EXPECT_EQ(hits("rte-e.external_libraries", "Fix this code:\nimport requests\nrequests.get(url)").size(), 1u);
    EXPECT_TRUE(hits("rte-e.external_libraries", "Write a Python function to average a list.").empty());
    EXPECT_TRUE(hits("rte-e.external_libraries", "Fix this code:\nimport math\nmath.sqrt(x)").empty());
    EXPECT_TRUE(hits("rte-e.external_libraries", "Write a function using numpy, or the standard library if you can.").empty());
    EXPECT_TRUE(hits("rte-e.external_libraries", "写一个函数计算均值，只用标准库").empty());
    EXPECT_TRUE(hits("rte-e.external_libraries", "We use pandas at work; what do pandas eat?").empty()); // not a code request
}

TEST(AdvisorPrompt, UnsafeRequestWithoutDomainCheck) {
    EXPECT_EQ(hits("rte-h.unsafe_without_domain_check", "What dose of ibuprofen can I take?"), Strings{"dose"});
    EXPECT_EQ(hits("rte-h.unsafe_without_domain_check", "布洛芬一次吃多少片？"), Strings{"吃多少片"});
    EXPECT_EQ(hits("rte-h.unsafe_without_domain_check", "How can I evade taxes on my salary?").size(), 1u);
    EXPECT_TRUE(hits("rte-h.unsafe_without_domain_check", "What dose of ibuprofen does the label recommend?").empty());
    EXPECT_TRUE(hits("rte-h.unsafe_without_domain_check", "按照说明书，布洛芬的剂量是多少？").empty());
    EXPECT_TRUE(hits("rte-h.unsafe_without_domain_check", "What is the capital of France?").empty());
    EXPECT_TRUE(hits("rte-h.unsafe_without_domain_check", "法国的首都是哪里？").empty());
}

TEST(AdvisorPrompt, PlainPromptsGetNoFindings) {
    for (const char* p : {"What is the capital of France?", "法国的首都是哪里？", "Translate 'good morning' into Chinese.",
                          "计算苹果2023年营收同比增长率", "Write a haiku about autumn.", ""}) {
        EXPECT_TRUE(check_prompt(shipped(), p).empty()) << p;
    }
}

TEST(AdvisorPrompt, SpansOnChineseTextLandOnCodePoints) {
    const std::string prompt = "请分析：苹果公司最近的营收是多少？增长率如何？比去年多百分之几？2.5%？";
    const auto findings = check_prompt(shipped(), prompt);
    ASSERT_FALSE(findings.empty());
    for (const Finding& f : findings) {
        ASSERT_LE(f.end, prompt.size());
        EXPECT_LT(f.start, f.end);
        EXPECT_NE(static_cast<unsigned char>(prompt[f.start]) & 0xC0, 0x80) << f.rule;
        if (f.end < prompt.size()) {
            EXPECT_NE(static_cast<unsigned char>(prompt[f.end]) & 0xC0, 0x80) << f.rule;
        }
        EXPECT_EQ(prompt.substr(f.start, f.end - f.start), f.evidence);
        EXPECT_EQ(f.place, FindingPlace::Prompt);
    }
    EXPECT_EQ(hits("rte-a.vague_time", prompt), Strings{"最近"});
    const auto vague = std::find_if(findings.begin(), findings.end(), [](const Finding& f) { return f.rule == "rte-a.vague_time"; });
    EXPECT_EQ(vague->start, prompt.find("最近"));
    EXPECT_EQ(vague->end, vague->start + 6);
}

} // namespace
} // namespace octo
