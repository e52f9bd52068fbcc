// The fields a prompt names (engine/advisor/prompt_fields.h) in several English and Chinese
// phrasings, their type guesses, and the JSON rewrites built from them (apply_rewrite with
// append_json_schema): the schema fits the question, and a prompt naming no fields gets the
// generic instruction, which invents no fields. Expected schemas are written out by hand.
// Covers: prompt_fields.cpp, apply_rewrite.cpp
#include <gtest/gtest.h>

#include "engine/advisor/apply_rewrite.h"
#include "engine/advisor/output_checks.h"
#include "engine/advisor/prompt_detectors.h"
#include "engine/advisor/prompt_fields.h"
#include "tests/engine/advisor/shipped_advisor_rules.h"

namespace octo {
namespace {

const AdvisorRules& shipped() { return test::shipped_advisor_rules(); }

// "name:string age:number" for the fields of `prompt`.
std::string fields(const std::string& prompt) {
    std::string out;
    for (const PromptField& f : fields_named_in(prompt)) {
        out += (out.empty() ? "" : " ") + f.name + ":" + field_type_name(f.type);
    }
    return out;
}

TEST(AdvisorFields, EnglishPhrasings) {
    EXPECT_EQ(fields("Return the answer as JSON: name and age of Alice, 30"), "name:string age:number");
    EXPECT_EQ(fields("List the films as JSON with fields title, year"), "title:string year:number");
    EXPECT_EQ(fields("Return JSON with keys a, b and c."), "a:string b:string c:string");
    EXPECT_EQ(fields("Output JSON with the keys \"city\", \"country\" and \"population\"."),
              "city:string country:string population:number");
    EXPECT_EQ(fields("Give me the name and age of Alice as JSON."), "name:string age:number");
    EXPECT_EQ(fields("Reply as a JSON object with the title, author and page count of the book."),
              "title:string author:string page_count:number");
    EXPECT_EQ(fields("The fields are name, email address and phone number. Use JSON."),
              "name:string email_address:string phone_number:string");
    EXPECT_EQ(fields(R"(List fruits as JSON like {"name": "apple", "price": 3})"), "name:string price:number");
    EXPECT_EQ(fields("Return JSON: price, stock count, rating"), "price:number stock_count:number rating:number");
}

TEST(AdvisorFields, ChinesePhrasings) {
    EXPECT_EQ(fields("以JSON格式返回爱丽丝的姓名和年龄"), "姓名:string 年龄:number");
    EXPECT_EQ(fields("用JSON输出，字段为 name 和 color"), "name:string color:string");
    EXPECT_EQ(fields("请用 JSON 格式返回：姓名、年龄、城市"), "姓名:string 年龄:number 城市:string");
    EXPECT_EQ(fields("以 JSON 返回书名、作者及出版年份"), "书名:string 作者:string 出版年份:number");
    EXPECT_EQ(fields("返回包含商品名称和价格的JSON"), "商品名称:string 价格:number");
    EXPECT_EQ(fields("以JSON返回爱丽丝（30岁）的姓名和年龄信息"), "姓名:string 年龄:number");
}

TEST(AdvisorFields, KeyValuePairsAndTableLists) {
    // The shipped example that got | item | value | columns.
    EXPECT_EQ(fields("Make a Markdown table of code=816, team=s92"), "code:string team:string");
    EXPECT_EQ(fields("Return JSON for age=30, name=Ann Lee; userId = 7"), "age:number name:string userId:number");
    EXPECT_EQ(fields("Return JSON for count=3, label=\"x\""), "count:number label:string");
    EXPECT_EQ(fields("把编码=816，团队=s92做成表格"), "编码:string 团队:string");
    EXPECT_EQ(fields("Make a table of name, age and city for three people."), "name:string age:number city:string");
    EXPECT_EQ(fields("Put it in a CSV with title and year"), "title:string year:number");
    // One pair, a repeated key or a comparison is not a list of fields.
    EXPECT_EQ(fields("Solve for x=5 in a table."), "");
    EXPECT_EQ(fields("Tabulate x=1, x=2 and x=3."), "");
    EXPECT_EQ(fields("Explain why a == b, c == d is true."), "");
    EXPECT_EQ(fields("Make a table of the results."), "");
}

TEST(AdvisorFields, PromptsThatNameNoFields) {
    EXPECT_EQ(fields("Return the answer as JSON."), "");
    EXPECT_EQ(fields("List three fruits as JSON."), "");
    EXPECT_EQ(fields("Return the answer as JSON: Alice, 30"), ""); // one name is a value, not a field list
    EXPECT_EQ(fields("用JSON格式列出三种水果"), "");
    EXPECT_EQ(fields("Reply with JSON only: one object with the fields the question asks for."), "");
    EXPECT_EQ(fields("Give the answer and the result of 2 + 2 as JSON."), ""); // generic words only
}

TEST(AdvisorFields, TypeGuesses) {
    for (const char* number : {"age", "year", "years", "count", "number", "price", "total_amount", "page_count", "Population",
                               "年龄", "数量", "价格", "增长率", "出版年份"}) {
        EXPECT_EQ(guess_field_type(number), FieldType::Number) << number;
    }
    for (const char* text : {"name", "city", "title", "phone_number", "zip_code", "姓名", "城市", "agent"}) {
        EXPECT_EQ(guess_field_type(text), FieldType::String) << text;
    }
}

std::string rewritten(const std::string& rule, const std::string& prompt, const std::string& output = {}) {
    std::vector<Finding> found = output.empty() ? check_prompt(shipped(), prompt) : check_output(shipped(), prompt, output);
    for (const Finding& f : found) {
        if (f.rule == rule) return apply_rewrite(shipped(), f, prompt).value();
    }
    ADD_FAILURE() << rule << " did not fire on: " << prompt;
    return {};
}

TEST(AdvisorFields, JsonRewriteStatesTheAskedFields) {
    // The defect: this prompt got {"result": string, "confidence": number} appended.
    const std::string alice = "Return the answer as JSON: name and age of Alice, 30";
    const std::string fixed = rewritten("rte-g.json_without_schema", alice);
    EXPECT_EQ(fixed, alice + R"( Reply with JSON only, exactly in this schema: {"name": string, "age": number})");
    EXPECT_TRUE(check_prompt(shipped(), fixed).empty()) << fixed; // the rule no longer fires
    const std::string zh = "以JSON格式返回爱丽丝的姓名和年龄";
    EXPECT_EQ(rewritten("rte-g.json_without_schema", zh), zh + R"(只输出 JSON，严格使用此 schema：{"姓名": string, "年龄": number})");
    // After invalid JSON, from the prompt the output answered (with keys named in the prompt).
    const std::string keys = "Return JSON with keys a, b and c.";
    EXPECT_EQ(rewritten("rte-g.invalid_json", keys, "{\"a\": 1 \"b\": 2}"),
              keys + R"( Reply with JSON only, exactly in this schema: {"a": string, "b": string, "c": string})");
}

TEST(AdvisorFields, NoFieldsFallBackToAGenericInstruction) {
    const std::string en = "List three fruits as JSON.";
    const std::string fixed = rewritten("rte-g.json_without_schema", en);
    EXPECT_EQ(fixed, en + " Reply with JSON only: one object with the fields the question asks for.");
    EXPECT_EQ(fixed.find("confidence"), std::string::npos);
    EXPECT_EQ(fixed.find("result"), std::string::npos);
    EXPECT_TRUE(check_prompt(shipped(), fixed).empty()) << fixed;
    const std::string zh = "用JSON格式列出三种水果";
    const std::string fixed_zh = rewritten("rte-g.json_without_schema", zh);
    EXPECT_EQ(fixed_zh, zh + "只输出 JSON：一个对象，包含问题所问的各个字段。");
    EXPECT_TRUE(check_prompt(shipped(), fixed_zh).empty()) << fixed_zh;
    EXPECT_EQ(rewritten("rte-g.invalid_json", en, "Apples and pears."),
              en + " Reply with JSON only: one object with the fields the question asks for.");
}

TEST(AdvisorFields, TableRewriteTakesItsColumnsFromThePrompt) {
    // The defect: every table rewrite appended | item | value |, whatever the prompt named.
    const std::string people = "Make a table of name, age and city for three people.";
    const std::string fixed = rewritten("rte-g.table_without_columns", people);
    EXPECT_EQ(fixed, people + " Use a Markdown table with exactly these columns: | name | age | city | (every row has the "
                              "same number of cells).");
    EXPECT_TRUE(check_prompt(shipped(), fixed).empty()) << fixed;
    const std::string zh = "用表格列出姓名、年龄和城市";
    EXPECT_EQ(rewritten("rte-g.table_without_columns", zh), zh + "使用 Markdown 表格，列为：| 姓名 | 年龄 | 城市 |（每行的单元格数相同）。");
    // key=value pairs name the columns: the shipped example is not flagged, and a torn table in
    // its answer is fixed with those columns.
    const std::string example = "Make a Markdown table of code=816, team=s92";
    for (const Finding& f : check_prompt(shipped(), example)) ADD_FAILURE() << f.rule << " fired on the shipped example";
    EXPECT_EQ(rewritten("rte-g.table_columns", example, "| code | team |\n|---|---|\n| 816 | s92 | x |"),
              example + " Use a Markdown table with exactly these columns: | code | team | (every row has the same number "
                        "of cells).");
    // No columns named: an instruction that invents none, after which the rule is quiet.
    const std::string phones = "Compare two phones in a table.";
    const std::string generic = rewritten("rte-g.table_without_columns", phones);
    EXPECT_EQ(generic, phones + " Use a Markdown table with the columns the question asks for: the header row first, then "
                                "every row with the header's number of cells.");
    EXPECT_EQ(generic.find("item"), std::string::npos);
    EXPECT_TRUE(check_prompt(shipped(), generic).empty()) << generic;
    const std::string zh_generic = rewritten("rte-g.table_without_columns", "用表格比较两款手机");
    EXPECT_TRUE(check_prompt(shipped(), zh_generic).empty()) << zh_generic;
    EXPECT_EQ(markdown_header_text({{"a|b", FieldType::String}, {"n", FieldType::Number}}), "| a\\|b | n |");
}

TEST(AdvisorFields, RewriteTextKeepsThePromptsOwnNames) {
    // What the advisor shows before Apply: the prompt's names, in the prompt's language, whatever
    // the UI language; the rule's Chinese suggestion no longer carries translated example names.
    const std::string prompt = "Give me the name and age of Alice as JSON.";
    for (const Finding& f : check_prompt(shipped(), prompt)) {
        if (f.rule != "rte-g.json_without_schema") continue;
        EXPECT_EQ(rewrite_text(shipped(), f, prompt).value(),
                  R"(Reply with JSON only, exactly in this schema: {"name": string, "age": number})");
    }
    const AdvisorRule* rule = shipped().find("rte-g.json_without_schema");
    ASSERT_NE(rule, nullptr);
    EXPECT_EQ(rule->suggestion.zh.find("姓名"), std::string::npos) << rule->suggestion.zh;
    EXPECT_EQ(rule->suggestion.zh.find("年龄"), std::string::npos) << rule->suggestion.zh;
}

TEST(AdvisorFields, SchemaTextEscapesNames) {
    EXPECT_EQ(json_schema_text({{"a\"b", FieldType::String}, {"n", FieldType::Number}}), R"({"a\"b": string, "n": number})");
    EXPECT_EQ(json_schema_text({}), "{}");
}

TEST(AdvisorFields, RuleFileChecksTheSchemaRewrite) {
    const std::string base = R"({"version": 1, "rules": [{"id": "t.rule", "subsystem": "rte-g", "severity": "warning",
      "source": "article", "title": {"en": "t", "zh": "标题"}, "explanation": {"en": "e", "zh": "解释"},
      "suggestion": {"en": "s", "zh": "建议"}, "detector": {"kind": "patterns", "any": ["json"]}, "rewrite": )";
    const auto error_of = [&](const std::string& rewrite) {
        auto r = AdvisorRules::parse(base + rewrite + "}]}", "rules.json");
        return r ? std::string("(loaded)") : r.error().message;
    };
    EXPECT_EQ(error_of(R"({"action": "append_json_schema", "text": {"en": "Use {schema}", "zh": "用 {schema}"},
                          "fallback": {"en": "f", "zh": "备"}})"),
              "(loaded)");
    EXPECT_EQ(error_of(R"({"action": "append_json_schema", "text": {"en": "Use it", "zh": "用 {schema}"},
                          "fallback": {"en": "f", "zh": "备"}})"),
              "rules.json: rule t.rule: \"rewrite.text.en\": must contain {schema}");
    EXPECT_EQ(error_of(R"({"action": "append_json_schema", "text": {"en": "Use {schema}", "zh": "用 {schema}"}})"),
              "rules.json: rule t.rule: \"fallback\": missing");
    EXPECT_EQ(error_of(R"({"action": "append", "text": {"en": "a", "zh": "甲"}, "fallback": {"en": "f", "zh": "备"}})"),
              "rules.json: rule t.rule: \"rewrite.fallback\": only append_json_schema and append_table_columns have a fallback");
    EXPECT_EQ(error_of(R"({"action": "append_table_columns", "text": {"en": "Use {columns}", "zh": "用 {columns}"},
                          "fallback": {"en": "f", "zh": "备"}})"),
              "(loaded)");
    EXPECT_EQ(error_of(R"({"action": "append_table_columns", "text": {"en": "Use {columns}", "zh": "用 {schema}"},
                          "fallback": {"en": "f", "zh": "备"}})"),
              "rules.json: rule t.rule: \"rewrite.text.zh\": must contain {columns}");
}

TEST(AdvisorFields, ExplanationsNameTheSource) {
    // "the article" alone names nothing: every explanation and suggestion names the seed article.
    for (const AdvisorRule& rule : shipped().rules()) {
        for (const LocalText* t : {&rule.explanation, &rule.suggestion}) {
            EXPECT_EQ(t->en.find("The article"), std::string::npos) << rule.id << ": " << t->en;
            EXPECT_EQ(t->en.find("the article"), std::string::npos) << rule.id << ": " << t->en;
            EXPECT_EQ(t->zh.find("文章的"), std::string::npos) << rule.id << ": " << t->zh;
        }
        if (rule.source == RuleSource::Article) {
            EXPECT_NE(rule.explanation.en.find("the seed article on GPT-4's eight functional subsystems"), std::string::npos)
                << rule.id << ": " << rule.explanation.en;
            EXPECT_NE(rule.explanation.zh.find("关于 GPT-4 八个功能子系统的种子文章"), std::string::npos)
                << rule.id << ": " << rule.explanation.zh;
        }
    }
}

} // namespace
} // namespace octo
