// Output checks of the shipped advisor rules (JSON, Markdown tables, Python indentation,
// arithmetic claims) with outputs that must and must not be flagged, in English and Chinese, and
// the exact evaluator behind the arithmetic check.
// Covers: output_checks.cpp, check_json.cpp, check_markdown_tables.cpp,
//   check_python_indentation.cpp, check_arithmetic.cpp, arithmetic_expression.cpp,
//   exact_rational.cpp, code_fences.cpp
#include <gtest/gtest.h>

#include <cmath>

#include "engine/advisor/arithmetic_expression.h"
#include "engine/advisor/output_checks.h"
#include "tests/engine/advisor/shipped_advisor_rules.h"

namespace octo {
namespace {

const AdvisorRules& shipped() { return test::shipped_advisor_rules(); }

std::vector<Finding> of_rule(const std::string& rule, const std::string& prompt, const std::string& output) {
    std::vector<Finding> out;
    for (const Finding& f : check_output(shipped(), prompt, output)) {
        EXPECT_EQ(output.substr(f.start, f.end - f.start), f.evidence);
        EXPECT_EQ(f.place, FindingPlace::Output);
        if (f.rule == rule) out.push_back(f);
    }
    return out;
}

std::vector<std::string> evidence(const std::string& rule, const std::string& prompt, const std::string& output) {
    std::vector<std::string> out;
    for (const Finding& f : of_rule(rule, prompt, output)) out.push_back(f.evidence);
    return out;
}

using Strings = std::vector<std::string>;

TEST(AdvisorOutput, InvalidJsonWhenJsonWasAskedFor) {
    const std::string ask = "List two fruits as JSON.";
    const auto bad = of_rule("rte-g.invalid_json", ask, "Here you go:\n{\"a\": 1 \"b\": 2}\nDone.");
    ASSERT_EQ(bad.size(), 1u);
    EXPECT_EQ(bad[0].evidence, "\"b\": 2}");
    EXPECT_NE(bad[0].detail.en.find("output byte 21"), std::string::npos) << bad[0].detail.en;
    EXPECT_EQ(evidence("rte-g.invalid_json", "用JSON列出两种水果", "```json\n{\"名称\": \"苹果\",}\n```"), Strings{"}"});
    EXPECT_EQ(evidence("rte-g.invalid_json", ask, "{\"a\": [1, 2"), Strings{"2"}); // cut off at the end
    EXPECT_TRUE(of_rule("rte-g.invalid_json", ask, "Sure: {\"a\": 1, \"b\": [2, 3]} — hope it helps.").empty());
    EXPECT_TRUE(of_rule("rte-g.invalid_json", "用JSON列出两种水果", "```json\n[\"苹果\", \"香蕉\"]\n```\n说明：{不是JSON}").empty());
    EXPECT_TRUE(of_rule("rte-g.invalid_json", "List two fruits.", "{\"a\": 1 \"b\": 2}").empty()); // JSON not asked for
    EXPECT_TRUE(of_rule("rte-g.invalid_json", "列出两种水果", "{不是JSON").empty());
    EXPECT_EQ(evidence("rte-g.invalid_json", ask, "Apples and pears."), Strings{"Apples and pears."});
}

TEST(AdvisorOutput, ConstraintBentNamesTheFirstBentTokenAndWhatTheModelWanted) {
    // A constrained run's tokens as the trace holds them: the grammar forced "{" where the model
    // gave "Sure" 0.9, then the model kept to the grammar.
    std::vector<TraceToken> tokens(3);
    const char* texts[] = {"{", "\"a\"", "}"};
    const double removed[] = {0.93, 0.02, 0.61};
    for (size_t i = 0; i < 3; ++i) {
        tokens[i].generated = true;
        tokens[i].visible_text = texts[i];
        ConstraintStep step;
        step.removed_mass = removed[i];
        step.removed = {{7, std::log(0.9)}};
        tokens[i].constraint = step;
    }
    const auto constrained = constrained_tokens(tokens, [](int32_t id) { return id == 7 ? std::string("Sure") : std::string("?"); });
    ASSERT_EQ(constrained.size(), 3u);
    EXPECT_EQ(constrained[1].start, 1u);
    EXPECT_EQ(constrained[1].end, 4u);
    const std::string output = "{\"a\"}";
    const auto findings = check_output(shipped(), "Give me a", output, constrained);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].rule, "rte-g.constraint_bent");
    EXPECT_EQ(findings[0].start, 0u);
    EXPECT_EQ(findings[0].end, 1u);
    EXPECT_NE(findings[0].detail.en.find("2 of 3"), std::string::npos) << findings[0].detail.en;
    EXPECT_NE(findings[0].detail.en.find("\"Sure\" (90 %)"), std::string::npos) << findings[0].detail.en;
    EXPECT_NE(findings[0].detail.zh.find("Sure"), std::string::npos);

    // Kept to the grammar by itself, or not constrained at all: nothing.
    for (auto& c : tokens) c.constraint->removed_mass = 0.1;
    EXPECT_TRUE(check_output(shipped(), "Give me a", output, constrained_tokens(tokens, nullptr)).empty());
    tokens[1].constraint.reset();
    EXPECT_TRUE(constrained_tokens(tokens, nullptr).empty()) << "a run without a grammar has no constrained tokens";
    EXPECT_TRUE(check_output(shipped(), "Give me a", output).empty());
}

TEST(AdvisorOutput, MarkdownTableColumnCounts) {
    const std::string bad = "| name | price |\n|---|---|\n| a | 1 |\n| b | 2 | 3 |\n";
    EXPECT_EQ(evidence("rte-g.table_columns", "", bad), Strings{"| b | 2 | 3 |"});
    const std::string bad_zh = "| 型号 | 价格 | 产地 |\n| :-- | --: | --- |\n| 甲 | 1 |\n| 乙 | 2 | 中国 |";
    const auto f = of_rule("rte-g.table_columns", "", bad_zh);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].evidence, "| 甲 | 1 |");
    EXPECT_EQ(f[0].detail.en, "table row has 2 cells, the header has 3");
    EXPECT_EQ(f[0].detail.zh, "表格行有 2 个单元格，表头有 3 个");
    EXPECT_TRUE(of_rule("rte-g.table_columns", "", "| name | price |\n|---|---|\n| a | `x|y` |\n| b \\| c | 2 |\n").empty());
    EXPECT_TRUE(of_rule("rte-g.table_columns", "", "型号 | 价格\n--- | ---\n甲 | 1\n乙 | 2\n").empty());
    EXPECT_TRUE(of_rule("rte-g.table_columns", "", "a | b | c\nplain text with | a pipe\n").empty()); // no delimiter row
    EXPECT_TRUE(of_rule("rte-g.table_columns", "", "```\n| a | b |\n|---|---|\n| 1 |\n```").empty()); // inside code
}

TEST(AdvisorOutput, PythonIndentation) {
    const auto unexpected = of_rule("rte-g.python_indentation", "",
                                    "代码如下：\n```python\ndef f(x):\n    y = x + 1\n        return y\n```");
    ASSERT_EQ(unexpected.size(), 1u);
    EXPECT_EQ(unexpected[0].evidence, "        return y");
    EXPECT_EQ(unexpected[0].detail.en, "Python: unexpected indent");
    EXPECT_EQ(of_rule("rte-g.python_indentation", "", "```py\nfor i in range(3):\nprint(i)\n```")[0].detail.en,
              "Python: expected an indented block after the line ending in ':'");
    EXPECT_EQ(of_rule("rte-g.python_indentation", "", "```\nimport os\nif x:\n    a = 1\n  b = 2\n```")[0].detail.en,
              "Python: unindent does not match any outer indentation level");
    const std::string good = "```python\ndef f(items,\n        scale):\n    \"\"\"Doc\n  string.\"\"\"\n    total = 0  # comment:\n"
                             "    for i in items:\n\n        total += i * \\\n    scale\n    return {\n  'a': total}\n```";
    EXPECT_TRUE(of_rule("rte-g.python_indentation", "", good).empty());
    EXPECT_TRUE(of_rule("rte-g.python_indentation", "", "```js\nfunction f() {\n        return 1;\n}\n```").empty());
    EXPECT_TRUE(of_rule("rte-g.python_indentation", "", "列表：\n  - 第一项\n      - 第二项").empty()); // not code
}

TEST(AdvisorOutput, ArithmeticClaimsTheArticlesExample) {
    const std::string wrong = "增长率 = (3832.9−3731.5)/3731.5 ≈ 2.8%";
    const auto f = of_rule("rte-c.arithmetic_claim", "", wrong);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].evidence, "(3832.9−3731.5)/3731.5 ≈ 2.8%");
    EXPECT_EQ(f[0].detail.en, "(3832.9−3731.5)/3731.5 = 0.02717405869 (2.717405869%), stated ≈ 2.8%; to the stated digits it is 2.7%");
    EXPECT_EQ(f[0].detail.zh, "(3832.9−3731.5)/3731.5 = 0.02717405869 (2.717405869%)，文中写的是 ≈ 2.8%；按所写的位数应为 2.7%");
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].source, RuleSource::Project);
    EXPECT_EQ(evidence("rte-c.arithmetic_claim", "", "The growth is (3832.9-3731.5)/3731.5 ≈ 0.028."),
              Strings{"(3832.9-3731.5)/3731.5 ≈ 0.028"});
    EXPECT_TRUE(of_rule("rte-c.arithmetic_claim", "", "增长率 = (3832.9−3731.5)/3731.5 ≈ 2.7%").empty());
    EXPECT_TRUE(of_rule("rte-c.arithmetic_claim", "", "(3832.9-3731.5)/3731.5 is approximately 0.027").empty());
    EXPECT_TRUE(of_rule("rte-c.arithmetic_claim", "", "(3832.9-3731.5)/3731.5 约 2.72%").empty());
}

TEST(AdvisorOutput, ArithmeticClaimsBothLanguages) {
    const auto wrong = [](const std::string& out) { return evidence("rte-c.arithmetic_claim", "", out); };
    EXPECT_EQ(wrong("So 12 × 7 = 86, and 3 + 4 = 7."), Strings{"12 × 7 = 86"});
    EXPECT_EQ(wrong("总价为 15% × 200 = 35 元"), Strings{"15% × 200 = 35"});
    EXPECT_EQ(wrong("1/2 + 1/3 = 4/5"), Strings{"1/2 + 1/3 = 4/5"});
    EXPECT_EQ(wrong("**7 ÷ 2 = 3**"), Strings{"7 ÷ 2 = 3"});
    EXPECT_EQ(wrong("10 / 3 = 3.4"), Strings{"10 / 3 = 3.4"});
    EXPECT_EQ(wrong("1234 / 10 about 130"), Strings{"1234 / 10 about 130"});
    // Claims that hold.
    for (const char* ok : {"0.1 + 0.2 = 0.3", "10 / 3 = 3.33", "1/2 + 1/3 = 5/6", "1,200 × 3 = 3,600", "22/7 ≈ 3",
                           "1234 / 10 ≈ 120", "1 / 8 ≈ 0.13", "1 / 8 ≈ 0.12", "5 − 8 = −3", "（1+2）×3 = 9",
                           "差值 = 3832.9 - 3731.5 = 101.4", "2023年 (3832.9-3731.5)/3731.5 ≈ 2.7%"}) {
        EXPECT_TRUE(wrong(ok).empty()) << ok;
    }
    // Not claims: a variable, a power, a call, a result that is an expression, code, a comparison.
    for (const char* skip : {"2x + 3 = 8", "x2 + 3 = 9", "2^3 + 1 = 7", "2**3 + 1 = 7", "f(2) + 3 = 8", "2 + 3 = 6 - 1 + 2",
                             "```\nprint(2 + 3 = 6)\n```", "if 2 + 2 == 5:", "2 + 2 >= 5", "H2O + 2 = 5", "a = 2 + 3",
                             "(3832.9-3731.5)/3731.5 ≈ 2.8e-2", "see 2 + 3 = 6th row"}) {
        EXPECT_TRUE(wrong(skip).empty()) << skip;
    }
}

TEST(AdvisorOutput, ExactEvaluator) {
    const auto value = [](const char* text) {
        const auto v = evaluate_expression(text);
        return v ? fraction_text(v->value) : std::string("none");
    };
    EXPECT_EQ(value("(3832.9−3731.5)/3731.5"), "1014/37315");
    EXPECT_EQ(value("2 + 3 × 4"), "14");
    EXPECT_EQ(value("(2 + 3) × 4"), "20");
    EXPECT_EQ(value("10 - 4 - 3"), "3");
    EXPECT_EQ(value("12 / 4 / 3"), "1");
    EXPECT_EQ(value("-3 * -2"), "6");
    EXPECT_EQ(value("50%"), "1/2");
    EXPECT_EQ(value("1,234.5 + 0.5"), "1235");
    EXPECT_EQ(value("1 / 0"), "none");
    EXPECT_EQ(value("(1 + 2"), "none");
    EXPECT_EQ(value("1 2"), "none");
    EXPECT_EQ(value("99999999999 * 99999999999"), "none"); // overflows: not judged
    size_t pos = 0;
    const auto n = parse_decimal("1,200", pos);
    ASSERT_TRUE(n);
    EXPECT_EQ(n->trailing_zeros, 2);
    EXPECT_EQ(pos, 5u);
}

TEST(AdvisorOutput, NoFindingsOnCleanOutput) {
    EXPECT_TRUE(check_output(shipped(), "计算增长率", "增长率约为2.7%。").empty());
    EXPECT_TRUE(check_output(shipped(), "Say hello.", "Hello! 你好！").empty());
    EXPECT_TRUE(check_output(shipped(), "", "").empty());
}

} // namespace
} // namespace octo
