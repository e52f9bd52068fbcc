// The advisor's rule file: the shipped file loads, schema errors name the rule and field, and
// apply_rewrite performs each rewrite action in the prompt's language.
#include <gtest/gtest.h>

#include "engine/advisor/apply_rewrite.h"
#include "engine/advisor/prompt_detectors.h"

namespace octo {
namespace {

const std::string kRulesPath = std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/rules/advisor_rules.json";

std::string one_rule(const std::string& fields) {
    return R"({"version": 1, "rules": [{"id": "t.rule", )" + fields + "}]}";
}

const std::string kGood = R"("subsystem": "rte-a", "severity": "warning", "source": "article",
  "title": {"en": "t", "zh": "标题"}, "explanation": {"en": "e", "zh": "解释"}, "suggestion": {"en": "s", "zh": "建议"},
  "detector": {"kind": "patterns", "any": ["recently"]})";

std::string error_of(const std::string& json) {
    auto r = AdvisorRules::parse(json, "rules.json");
    return r ? std::string("(loaded)") : r.error().message;
}

TEST(AdvisorRules, ShippedFileLoads) {
    auto rules = AdvisorRules::load(kRulesPath);
    ASSERT_TRUE(rules) << rules.error().message;
    EXPECT_GE(rules->rules().size(), 15u);
    for (const char* id : {"rte-a.vague_time", "rte-d.multiple_negation", "rte-d.counterfactual", "rte-d.nested_conditionals",
                           "rte-c.analyse_for_computation", "rte-g.json_without_schema", "rte-b.long_document_summary",
                           "rte-e.external_libraries", "rte-h.unsafe_without_domain_check", "rte-g.invalid_json",
                           "rte-g.table_columns", "rte-g.python_indentation", "rte-c.arithmetic_claim", "rte-g.constraint_bent"}) {
        EXPECT_NE(rules->find(id), nullptr) << id;
    }
    auto by_dir = AdvisorRules::load_default(std::string(OCTOSCOPE_SOURCE_DIR) + "/resources");
    ASSERT_TRUE(by_dir) << by_dir.error().message;
    EXPECT_EQ(by_dir->rules().size(), rules->rules().size());
}

TEST(AdvisorRules, GoodRuleParses) {
    auto r = AdvisorRules::parse(one_rule(kGood), "rules.json");
    ASSERT_TRUE(r) << r.error().message;
    const AdvisorRule& rule = r->rules().front();
    EXPECT_EQ(rule.subsystem, 0);
    EXPECT_EQ(rule.severity, Severity::Warning);
    EXPECT_EQ(rule.place, FindingPlace::Prompt);
    EXPECT_EQ(rule.source, RuleSource::Article);
    EXPECT_EQ(rule.title.in(true), "标题");
    EXPECT_FALSE(rule.rewrite.has_value());
}

TEST(AdvisorRules, SchemaErrorsNameFileRuleAndField) {
    const auto replaced = [](std::string text, const std::string& from, const std::string& to) {
        text.replace(text.find(from), from.size(), to);
        return one_rule(text);
    };
    EXPECT_EQ(error_of(replaced(kGood, R"("warning")", R"("fatal")")),
              "rules.json: rule t.rule: \"severity\": must be one of info, warning, error (got \"fatal\")");
    EXPECT_NE(error_of(replaced(kGood, "rte-a", "rte-z")).find("rule t.rule: \"subsystem\": unknown subsystem \"rte-z\""),
              std::string::npos);
    EXPECT_EQ(error_of(replaced(kGood, R"(, "zh": "解释")", "")), "rules.json: rule t.rule: \"explanation.zh\": missing");
    EXPECT_NE(error_of(replaced(kGood, R"(["recently"])", R"(["(unclosed"])"))
                  .find("rule t.rule: \"detector.any\": pattern \"(unclosed\" at offset"),
              std::string::npos);
    EXPECT_EQ(error_of(replaced(kGood, R"("source": "article")", R"("source": "blog")")),
              "rules.json: rule t.rule: \"source\": must be one of article, project (got \"blog\")");
    EXPECT_EQ(error_of(one_rule(kGood + R"(, "colour": 1)")), "rules.json: rule t.rule: \"colour\": unknown field");
    EXPECT_EQ(error_of(replaced(kGood, R"("kind": "patterns", "any": ["recently"])", R"("kind": "check", "check": "spelling")")),
              "rules.json: rule t.rule: \"detector.check\": must be one of json_valid, markdown_table_columns, "
              "python_indentation, arithmetic_claims, constraint_bent (got \"spelling\")");
    EXPECT_EQ(error_of(replaced(kGood, R"("kind": "patterns", "any": ["recently"])", R"("kind": "check", "check": "json_valid")")),
              "(loaded)");
    const std::string output_replace =
        replaced(kGood, R"("kind": "patterns", "any": ["recently"]})",
                 R"("kind": "check", "check": "json_valid"}, "rewrite": {"action": "replace_span", "text": {"en": "a", "zh": "甲"}})");
    EXPECT_NE(error_of(output_replace).find("\"rewrite.action\": replace_span needs a prompt detector"), std::string::npos);
    EXPECT_EQ(error_of(R"({"version": 1, "rules": [{"subsystem": "rte-a"}]})"), "rules.json: rule #1: \"id\": missing");
    EXPECT_EQ(error_of(R"({"version": 2, "rules": []})"), "rules.json: \"version\" must be 1");
    EXPECT_EQ(error_of("{"), "rules.json: not a JSON object");
    const std::string twice = R"({"version": 1, "rules": [{"id": "t.rule", )" + kGood + R"(}, {"id": "t.rule", )" + kGood + "}]}";
    EXPECT_EQ(error_of(twice), "rules.json: rule t.rule: \"id\": duplicate id");
    auto missing = AdvisorRules::load("/nonexistent/advisor_rules.json");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ErrorCode::Io);
}

TEST(AdvisorRewrite, EachActionInThePromptsLanguage) {
    auto rules = AdvisorRules::load(kRulesPath);
    ASSERT_TRUE(rules) << rules.error().message;
    // replace_span: "analyse" -> "compute", keeping the capital; Chinese -> 计算.
    const std::string en = "Analyse the growth rate from 3731.5 to 3832.9.";
    auto f = check_prompt(*rules, en);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(apply_rewrite(*rules, f[0], en).value(), "Compute the growth rate from 3731.5 to 3832.9.");
    const std::string zh = "请分析苹果2023年营收同比增长率（3731.5到3832.9）";
    f = check_prompt(*rules, zh);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(apply_rewrite(*rules, f[0], zh).value(), "请计算苹果2023年营收同比增长率（3731.5到3832.9）");
    // append: English with a space, Chinese without; the rewritten prompt no longer triggers the rule.
    const std::string vague = "What is Apple's revenue recently?";
    f = check_prompt(*rules, vague);
    ASSERT_EQ(f.size(), 1u);
    const std::string pinned = apply_rewrite(*rules, f[0], vague).value();
    EXPECT_EQ(pinned, vague + " (Use only data up to the end of 2023, and give the year of every figure.)");
    EXPECT_TRUE(check_prompt(*rules, pinned).empty());
    const std::string vague_zh = "苹果公司最近的营收是多少？";
    f = check_prompt(*rules, vague_zh);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(apply_rewrite(*rules, f[0], vague_zh).value(), vague_zh + "（只使用截至2023年底的数据，并注明每个数字的年份。）");
    // prepend, on a rule file of its own.
    auto prepend = AdvisorRules::parse(one_rule(kGood + R"(, "rewrite": {"action": "prepend", "text": {"en": "In 2023:", "zh": "2023年："}})"),
                                       "t");
    ASSERT_TRUE(prepend) << prepend.error().message;
    f = check_prompt(*prepend, "sales recently");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(apply_rewrite(*prepend, f[0], "sales recently").value(), "In 2023: sales recently");
    // Errors: no rewrite, unknown rule, a stale span.
    auto plain = AdvisorRules::parse(one_rule(kGood), "t");
    f = check_prompt(*plain, "sales recently");
    EXPECT_FALSE(apply_rewrite(*plain, f[0], "sales recently"));
    Finding unknown = f[0];
    unknown.rule = "nope";
    EXPECT_FALSE(apply_rewrite(*plain, unknown, "sales recently"));
    auto replace = AdvisorRules::parse(one_rule(kGood + R"(, "rewrite": {"action": "replace_span", "text": {"en": "in 2023", "zh": "2023年"}})"), "t");
    f = check_prompt(*replace, "sales recently");
    EXPECT_EQ(apply_rewrite(*replace, f[0], "sales recently").value(), "sales in 2023");
    EXPECT_FALSE(apply_rewrite(*replace, f[0], "sales")); // the prompt changed since
}

} // namespace
} // namespace octo
