#include "engine/advisor/advisor_rules.h"

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/instrumentation/subsystem.h"

namespace octo {

const char* severity_name(Severity s) {
    switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "info";
}

const char* rule_source_name(RuleSource s) { return s == RuleSource::Article ? "article" : "project"; }

const char* finding_place_name(FindingPlace p) { return p == FindingPlace::Prompt ? "prompt" : "output"; }

bool PromptCondition::holds(std::string_view prompt) const {
    for (const auto& group : required) {
        bool any = false;
        for (const RegexPattern& p : group) any = any || p.found_in(prompt);
        if (!any) return false;
    }
    for (const RegexPattern& p : unless) {
        if (p.found_in(prompt)) return false;
    }
    return true;
}

Finding make_finding(const AdvisorRule& rule, std::string_view text, size_t start, size_t end, LocalText detail) {
    return Finding{rule.id, rule.subsystem, rule.severity, rule.place, start, end,
                   std::string(text.substr(start, end - start)), std::move(detail), rule.source};
}

namespace {

using nlohmann::json;

// Thrown inside the parser only, caught in AdvisorRules::parse: the first problem found.
struct RuleError {
    std::string message;
};

[[noreturn]] void fail(const std::string& field, const std::string& what) { throw RuleError{"\"" + field + "\": " + what}; }

void only_keys(const json& object, const std::set<std::string>& allowed, const std::string& where) {
    for (const auto& [key, value] : object.items()) {
        if (!allowed.count(key)) fail(where.empty() ? key : where + "." + key, "unknown field");
    }
}

const json& member(const json& object, const std::string& key, const std::string& where) {
    const std::string field = where.empty() ? key : where + "." + key;
    if (!object.contains(key)) fail(field, "missing");
    return object[key];
}

std::string text_of(const json& value, const std::string& field) {
    if (!value.is_string() || value.get<std::string>().empty()) fail(field, "must be a non-empty string");
    return value.get<std::string>();
}

template <class E>
E one_of(const json& value, const std::string& field, std::initializer_list<std::pair<const char*, E>> names) {
    std::string list;
    for (const auto& [name, e] : names) {
        if (value.is_string() && value.get<std::string>() == name) return e;
        list += (list.empty() ? "" : ", ") + std::string(name);
    }
    fail(field, "must be one of " + list + " (got " + value.dump() + ")");
}

LocalText local_text(const json& rule, const std::string& key) {
    const json& v = member(rule, key, "");
    if (!v.is_object()) fail(key, "must be an object {\"en\": ..., \"zh\": ...}");
    only_keys(v, {"en", "zh"}, key);
    return LocalText{text_of(member(v, "en", key), key + ".en"), text_of(member(v, "zh", key), key + ".zh")};
}

std::vector<RegexPattern> patterns(const json& value, const std::string& field) {
    if (!value.is_array() || value.empty()) fail(field, "must be a non-empty array of patterns");
    std::vector<RegexPattern> out;
    for (const json& p : value) {
        auto compiled = RegexPattern::compile(text_of(p, field));
        if (!compiled) fail(field, compiled.error().message);
        out.push_back(std::move(compiled.value()));
    }
    return out;
}

PromptCondition condition(const json& d) {
    PromptCondition c;
    if (d.contains("requires")) {
        const json& groups = d["requires"];
        if (!groups.is_array() || groups.empty()) fail("detector.requires", "must be a non-empty array of pattern arrays");
        for (const json& g : groups) c.required.push_back(patterns(g, "detector.requires"));
    }
    if (d.contains("unless")) c.unless = patterns(d["unless"], "detector.unless");
    return c;
}

DetectorSpec detector(const json& rule) {
    const json& d = member(rule, "detector", "");
    if (!d.is_object()) fail("detector", "must be an object");
    DetectorSpec spec;
    const std::string kind = text_of(member(d, "kind", "detector"), "detector.kind");
    if (kind == "patterns") {
        only_keys(d, {"kind", "any", "min_matches", "scope", "requires", "unless"}, "detector");
        spec.place = FindingPlace::Prompt;
        spec.any = patterns(member(d, "any", "detector"), "detector.any");
        if (d.contains("min_matches")) {
            const json& m = d["min_matches"];
            if (!m.is_number_integer() || m.get<int64_t>() < 1 || m.get<int64_t>() > 100) {
                fail("detector.min_matches", "must be an integer from 1 to 100");
            }
            spec.min_matches = m.get<int>();
        }
        if (d.contains("scope")) {
            spec.scope = one_of<MatchScope>(d["scope"], "detector.scope",
                                             {{"each", MatchScope::Each}, {"first", MatchScope::First},
                                              {"sentence", MatchScope::Sentence}, {"prompt", MatchScope::Prompt}});
        }
    } else if (kind == "check") {
        only_keys(d, {"kind", "check", "requires", "unless"}, "detector");
        spec.place = FindingPlace::Output;
        spec.check = one_of<OutputCheck>(member(d, "check", "detector"), "detector.check",
                                         {{"json_valid", OutputCheck::JsonValid},
                                          {"markdown_table_columns", OutputCheck::MarkdownTableColumns},
                                          {"python_indentation", OutputCheck::PythonIndentation},
                                          {"arithmetic_claims", OutputCheck::ArithmeticClaims},
                                          {"constraint_bent", OutputCheck::ConstraintBent}});
    } else {
        fail("detector.kind", "must be one of patterns, check (got \"" + kind + "\")");
    }
    spec.condition = condition(d);
    return spec;
}

} // namespace

const char* fields_placeholder(RewriteAction action) {
    switch (action) {
    case RewriteAction::AppendJsonSchema: return kSchemaPlaceholder;
    case RewriteAction::AppendTableColumns: return kColumnsPlaceholder;
    case RewriteAction::ReplaceSpan:
    case RewriteAction::Append:
    case RewriteAction::Prepend: break;
    }
    return nullptr;
}

namespace {

std::optional<RuleRewrite> rewrite(const json& rule, FindingPlace place) {
    if (!rule.contains("rewrite")) return std::nullopt;
    const json& r = rule["rewrite"];
    if (!r.is_object()) fail("rewrite", "must be an object {\"action\": ..., \"text\": {...}}");
    only_keys(r, {"action", "text", "fallback"}, "rewrite");
    RuleRewrite out;
    out.action = one_of<RewriteAction>(member(r, "action", "rewrite"), "rewrite.action",
                                       {{"replace_span", RewriteAction::ReplaceSpan},
                                        {"append", RewriteAction::Append},
                                        {"prepend", RewriteAction::Prepend},
                                        {"append_json_schema", RewriteAction::AppendJsonSchema},
                                        {"append_table_columns", RewriteAction::AppendTableColumns}});
    if (out.action == RewriteAction::ReplaceSpan && place != FindingPlace::Prompt) {
        fail("rewrite.action", "replace_span needs a prompt detector (the span must lie in the prompt)");
    }
    out.text = local_text(r, "text");
    const char* placeholder = fields_placeholder(out.action);
    if (!placeholder) {
        if (r.contains("fallback")) fail("rewrite.fallback", "only append_json_schema and append_table_columns have a fallback");
        return out;
    }
    const std::string must = std::string("must contain ") + placeholder;
    if (out.text.en.find(placeholder) == std::string::npos) fail("rewrite.text.en", must);
    if (out.text.zh.find(placeholder) == std::string::npos) fail("rewrite.text.zh", must);
    out.fallback = local_text(r, "fallback");
    return out;
}

AdvisorRule rule_from(const json& r) {
    only_keys(r, {"id", "subsystem", "severity", "source", "title", "explanation", "suggestion", "rewrite", "detector"}, "");
    AdvisorRule rule;
    rule.id = text_of(member(r, "id", ""), "id");
    const std::string sub = text_of(member(r, "subsystem", ""), "subsystem");
    const auto s = subsystem_index(sub);
    if (!s) fail("subsystem", "unknown subsystem \"" + sub + "\" (expected rte-a … rte-h)");
    rule.subsystem = *s;
    rule.severity = one_of<Severity>(member(r, "severity", ""), "severity",
                                     {{"info", Severity::Info}, {"warning", Severity::Warning}, {"error", Severity::Error}});
    rule.source = one_of<RuleSource>(member(r, "source", ""), "source",
                                     {{"article", RuleSource::Article}, {"project", RuleSource::Project}});
    rule.title = local_text(r, "title");
    rule.explanation = local_text(r, "explanation");
    rule.suggestion = local_text(r, "suggestion");
    rule.detector = detector(r);
    rule.place = rule.detector.place;
    rule.rewrite = rewrite(r, rule.place);
    return rule;
}

} // namespace

Result<AdvisorRules> AdvisorRules::parse(std::string_view json_text, std::string_view origin) {
    const std::string where(origin);
    const auto bad = [&](const std::string& what) { return make_error(ErrorCode::Format, where + ": " + what); };
    const json doc = json::parse(json_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return bad("not a JSON object");
    for (const auto& [key, value] : doc.items()) {
        if (key != "version" && key != "rules") return bad("unknown top-level field \"" + key + "\"");
    }
    if (!doc.contains("version") || doc["version"] != 1) return bad("\"version\" must be 1");
    if (!doc.contains("rules") || !doc["rules"].is_array() || doc["rules"].empty()) {
        return bad("\"rules\" must be a non-empty array");
    }
    AdvisorRules out;
    std::set<std::string> ids;
    size_t index = 0;
    for (const json& r : doc["rules"]) {
        ++index;
        const std::string name = r.is_object() && r.contains("id") && r["id"].is_string()
                                     ? "rule " + r["id"].get<std::string>()
                                     : "rule #" + std::to_string(index);
        if (!r.is_object()) return bad(name + ": must be an object");
        try {
            AdvisorRule rule = rule_from(r);
            if (!ids.insert(rule.id).second) return bad(name + ": \"id\": duplicate id");
            out.rules_.push_back(std::move(rule));
        } catch (const RuleError& e) {
            return bad(name + ": " + e.message);
        }
    }
    return out;
}

Result<AdvisorRules> AdvisorRules::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(ErrorCode::Io, path + ": cannot open the advisor rule file");
    std::stringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

Result<AdvisorRules> AdvisorRules::load_default(const std::string& resource_dir) {
    return load(resource_dir + "/" + kAdvisorRulesFile);
}

const AdvisorRule* AdvisorRules::find(std::string_view id) const {
    for (const AdvisorRule& r : rules_) {
        if (r.id == id) return &r;
    }
    return nullptr;
}

} // namespace octo
