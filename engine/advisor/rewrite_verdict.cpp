#include "engine/advisor/rewrite_verdict.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "engine/advisor/code_fences.h"
#include "engine/advisor/output_check_kinds.h"
#include "engine/advisor/output_checks.h"
#include "engine/advisor/prompt_fields.h"

namespace octo {

namespace {

bool mentions_json(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.find("json") != std::string::npos;
}

bool asks_for_table(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (size_t at = lower.find("table"); at != std::string::npos; at = lower.find("table", at + 1)) {
        const bool word_start = at == 0 || !std::isalpha(static_cast<unsigned char>(lower[at - 1]));
        const std::string_view rest = std::string_view(lower).substr(at + 5);
        const bool word_end = rest.empty() || !std::isalpha(static_cast<unsigned char>(rest[0])) || rest.starts_with("s ");
        if (word_start && word_end && !rest.starts_with(" of contents")) return true;
    }
    return lower.find("表格") != std::string::npos;
}

bool blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

// A name as compared: lower case, without "_", "-" and spaces ("Page count" = "page_count").
std::string key_form(std::string_view name) {
    std::string out;
    for (char c : name) {
        if (c == '_' || c == '-' || c == ' ') continue;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

// The keys of the top-level object, or of the objects directly in a top-level array, read until
// the first parse error (nlohmann's SAX interface).
struct TopKeys {
    using json = nlohmann::json;
    std::vector<bool> objects; // the open containers: true for an object
    std::set<std::string> keys;

    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(json::number_integer_t) { return true; }
    bool number_unsigned(json::number_unsigned_t) { return true; }
    bool number_float(json::number_float_t, const json::string_t&) { return true; }
    bool string(json::string_t&) { return true; }
    bool binary(json::binary_t&) { return true; }
    bool start_object(std::size_t) { return open(true); }
    bool key(json::string_t& k) {
        const bool top = objects.size() == 1 || (objects.size() == 2 && !objects[0]);
        if (top) keys.insert(key_form(k));
        return true;
    }
    bool end_object() { return close(); }
    bool start_array(std::size_t) { return open(false); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

    bool open(bool object) {
        objects.push_back(object);
        return true;
    }
    bool close() {
        if (!objects.empty()) objects.pop_back();
        return true;
    }
};

// The answer's JSON part as the json_valid check takes it: the first ```json block, else the text
// from the first { or [.
std::string_view json_part(std::string_view answer) {
    for (const FencedBlock& b : fenced_blocks(answer)) {
        if (b.lang == "json") return answer.substr(b.body_start, b.body_end - b.body_start);
    }
    const size_t first = answer.find_first_of("{[");
    return first == std::string_view::npos ? std::string_view() : answer.substr(first);
}

size_t fields_in(std::string_view answer, const std::vector<PromptField>& fields) {
    const std::string_view part = json_part(answer);
    if (part.empty()) return 0;
    TopKeys keys;
    nlohmann::json::sax_parse(part.begin(), part.end(), &keys, nlohmann::json::input_format_t::json, false);
    return static_cast<size_t>(std::count_if(fields.begin(), fields.end(),
                                             [&](const PromptField& f) { return keys.keys.count(key_form(f.name)) > 0; }));
}

// How many fields are cells of the answer's first table header.
size_t columns_in(std::string_view answer, const std::vector<PromptField>& fields) {
    const auto headers = markdown_table_headers(answer);
    if (headers.empty()) return 0;
    std::set<std::string> cells;
    for (const std::string& cell : headers.front()) cells.insert(key_form(cell));
    return static_cast<size_t>(std::count_if(fields.begin(), fields.end(),
                                             [&](const PromptField& f) { return cells.count(key_form(f.name)) > 0; }));
}

std::string names_of(const std::vector<PromptField>& fields) {
    std::string out;
    for (const PromptField& f : fields) out += (out.empty() ? "" : ", ") + f.name;
    return out;
}

// How many of the asked fields each answer has: fewer in B is worse, more is better, with the
// counts: "fewer … (name, age): A 2, B 1 of 2".
void compare_counts(RewriteVerdict& v, const std::vector<PromptField>& fields, size_t in_a, size_t in_b, const LocalText& fewer,
                    const LocalText& more) {
    const std::string counts = " (" + names_of(fields) + "): A " + std::to_string(in_a) + ", B " + std::to_string(in_b) + " of " +
                               std::to_string(fields.size());
    const std::string counts_zh = "（" + names_of(fields) + "）：A " + std::to_string(in_a) + " 个，B " + std::to_string(in_b) +
                                  " 个，共 " + std::to_string(fields.size()) + " 个";
    if (in_b < in_a) v.worse.push_back({fewer.en + counts, fewer.zh + counts_zh});
    if (in_b > in_a) v.better.push_back({more.en + counts, more.zh + counts_zh});
}

std::string joined(const std::vector<LocalText>& reasons, bool chinese) {
    std::string out;
    for (const LocalText& r : reasons) out += (out.empty() ? "" : (chinese ? "；" : "; ")) + r.in(chinese);
    return out;
}

LocalText summary_of(const RewriteVerdict& v) {
    switch (v.kind) {
    case VerdictKind::Worse: {
        LocalText s{"The rewrite made the answer worse: " + joined(v.worse, false) + ".",
                    "改写让回答变差了：" + joined(v.worse, true) + "。"};
        if (!v.better.empty()) {
            s.en += " It did improve: " + joined(v.better, false) + ".";
            s.zh += "（也有改进：" + joined(v.better, true) + "。）";
        }
        return s;
    }
    case VerdictKind::Better:
        return {"The rewrite made the answer better: " + joined(v.better, false) + ".",
                "改写让回答变好了：" + joined(v.better, true) + "。"};
    case VerdictKind::NoChange: break;
    }
    if (v.unmet.empty()) {
        if (v.same_answer) return {"No change: both prompts gave the same answer.", "没有变化：两个提示词得到了相同的回答。"};
        return {"No change found: the answers differ, but no check (JSON, table, asked fields, output checks) tells them apart.",
                "未发现变化：两个回答不同，但各项检查（JSON、表格、所问字段、输出检查）都分不出好坏。"};
    }
    const std::string asked = joined(v.unmet, false);
    const std::string asked_zh = joined(v.unmet, true);
    if (v.same_answer) {
        return {"No change: both prompts gave the same answer, and it lacks what was asked (" + asked + ").",
                "没有变化：两个提示词得到了相同的回答，且缺少所要求的内容（" + asked_zh + "）。"};
    }
    return {"No change found: neither answer gives what was asked (" + asked + ").",
            "未发现变化：两个回答都没有给出所要求的内容（" + asked_zh + "）。"};
}

} // namespace

const char* verdict_kind_name(VerdictKind kind) {
    switch (kind) {
    case VerdictKind::Better: return "better";
    case VerdictKind::NoChange: return "no_change";
    case VerdictKind::Worse: return "worse";
    }
    return "no_change";
}

RewriteVerdict judge_rewrite(const AdvisorRules& rules, std::string_view prompt_a, std::string_view answer_a,
                             std::string_view prompt_b, std::string_view answer_b) {
    RewriteVerdict v;
    v.same_answer = answer_a == answer_b;

    if (blank(answer_b) && !blank(answer_a)) v.worse.push_back({"B gave no answer", "B 没有给出回答"});
    if (blank(answer_a) && !blank(answer_b)) v.better.push_back({"B answers where A gave nothing", "A 没有回答，B 给出了回答"});

    if (mentions_json(prompt_a) || mentions_json(prompt_b)) {
        const bool a_parses = !blank(answer_a) && check_json_valid(answer_a).empty();
        const bool b_parses = !blank(answer_b) && check_json_valid(answer_b).empty();
        if (a_parses && !b_parses) v.worse.push_back({"the JSON no longer parses", "JSON 不再能解析"});
        if (!a_parses && b_parses) v.better.push_back({"the JSON now parses", "JSON 现在能解析了"});
        if (!a_parses && !b_parses) v.unmet.push_back({"JSON that parses", "能解析的 JSON"});

        std::vector<PromptField> fields = fields_named_in(prompt_a);
        if (fields.empty()) fields = fields_named_in(prompt_b);
        if (!fields.empty()) {
            compare_counts(v, fields, fields_in(answer_a, fields), fields_in(answer_b, fields),
                           {"fewer of the asked fields in the JSON", "JSON 中所问的字段变少了"},
                           {"more of the asked fields in the JSON", "JSON 中所问的字段变多了"});
        }
    }

    if (asks_for_table(prompt_a) || asks_for_table(prompt_b)) {
        const bool a_table = !markdown_table_headers(answer_a).empty();
        const bool b_table = !markdown_table_headers(answer_b).empty();
        if (a_table && !b_table) v.worse.push_back({"the answer no longer holds a Markdown table", "回答中不再有 Markdown 表格"});
        if (!a_table && b_table) v.better.push_back({"the answer now holds a Markdown table", "回答中现在有 Markdown 表格了"});
        if (!a_table && !b_table) v.unmet.push_back({"a Markdown table", "Markdown 表格"});
        std::vector<PromptField> fields = fields_named_in(prompt_a);
        if (fields.empty()) fields = fields_named_in(prompt_b);
        if (!fields.empty() && (a_table || b_table)) {
            compare_counts(v, fields, columns_in(answer_a, fields), columns_in(answer_b, fields),
                           {"fewer of the asked columns in the table header", "表头中所问的列变少了"},
                           {"more of the asked columns in the table header", "表头中所问的列变多了"});
        }
    }

    // The other output checks, by rule: how many findings each answer has.
    std::map<std::string, std::pair<size_t, size_t>> counts; // rule id → (A, B)
    for (const Finding& f : check_output(rules, prompt_a, answer_a)) ++counts[f.rule].first;
    for (const Finding& f : check_output(rules, prompt_b, answer_b)) ++counts[f.rule].second;
    for (const AdvisorRule& rule : rules.rules()) {
        const auto it = counts.find(rule.id);
        if (it == counts.end() || rule.detector.check == OutputCheck::JsonValid) continue; // JSON: judged above
        const auto [a, b] = it->second;
        const bool arithmetic = rule.detector.check == OutputCheck::ArithmeticClaims;
        const std::string en = arithmetic ? "arithmetic" : "the output check \"" + rule.title.en + "\"";
        const std::string zh = arithmetic ? "算术" : "输出检查“" + rule.title.zh + "”";
        const std::string tally = " (A " + std::to_string(a) + ", B " + std::to_string(b) + ")";
        const std::string tally_zh = "（A " + std::to_string(a) + " 处，B " + std::to_string(b) + " 处）";
        if (b > a && a == 0) {
            v.worse.push_back({arithmetic ? "arithmetic is now wrong" + tally : en + " fails, which passed before" + tally,
                               arithmetic ? "算术现在出错了" + tally_zh : zh + "现在不通过，之前是通过的" + tally_zh});
        } else if (b > a) {
            v.worse.push_back({en + " fails more often" + tally, zh + "不通过的地方变多了" + tally_zh});
        } else if (b < a && b == 0) {
            v.better.push_back({en + " now passes" + tally, zh + "现在通过了" + tally_zh});
        } else if (b < a) {
            v.better.push_back({en + " fails less often" + tally, zh + "不通过的地方变少了" + tally_zh});
        }
    }

    v.kind = !v.worse.empty() ? VerdictKind::Worse : !v.better.empty() ? VerdictKind::Better : VerdictKind::NoChange;
    v.summary = summary_of(v);
    return v;
}

} // namespace octo
