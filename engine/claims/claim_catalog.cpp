#include "engine/claims/claim_catalog.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/claims/claim_protocols.h"
#include "engine/core/json_fields.h"

namespace octo {

namespace {

Error field_error(const std::string& path, const std::string& claim, const std::string& what) {
    return make_error(ErrorCode::Format, path + ": claim \"" + claim + "\": " + what);
}

Result<LocalText> local_text(const nlohmann::json& j, const std::string& path, const std::string& claim,
                             const char* field) {
    if (!j.contains(field) || !j[field].is_object()) return field_error(path, claim, std::string("\"") + field + "\" must be an object {\"en\", \"zh\"}");
    const nlohmann::json& t = j[field];
    LocalText out;
    for (const auto& [lang, target] : {std::pair<const char*, std::string*>{"en", &out.en}, {"zh", &out.zh}}) {
        if (!t.contains(lang) || !t[lang].is_string() || t[lang].get<std::string>().empty()) {
            return field_error(path, claim, std::string("\"") + field + "." + lang + "\" must be a non-empty string");
        }
        *target = t[lang].get<std::string>();
    }
    if (t.size() != 2) return field_error(path, claim, std::string("\"") + field + "\" has keys other than en and zh");
    return out;
}

std::optional<ClaimUnit> parse_unit(std::string_view name) {
    for (const ClaimUnit u : {ClaimUnit::Share, ClaimUnit::Points, ClaimUnit::Coefficient}) {
        if (name == claim_unit_name(u)) return u;
    }
    return std::nullopt;
}

std::optional<ClaimSubject> parse_subject(std::string_view name) {
    for (const ClaimSubject s : {ClaimSubject::Model, ClaimSubject::Router, ClaimSubject::KvPool}) {
        if (name == claim_subject_name(s)) return s;
    }
    return std::nullopt;
}

} // namespace

const char* claim_subject_name(ClaimSubject subject) {
    switch (subject) {
    case ClaimSubject::Model: return "model";
    case ClaimSubject::Router: return "router";
    case ClaimSubject::KvPool: return "kv_pool";
    }
    return "model";
}

const char* claim_subject_note(ClaimSubject subject) {
    switch (subject) {
    case ClaimSubject::Model: return "";
    case ClaimSubject::Router: return "about the product's router, not the loaded model";
    case ClaimSubject::KvPool: return "about the product's KV pool, not the loaded model";
    }
    return "";
}

const char* claim_unit_name(ClaimUnit unit) {
    switch (unit) {
    case ClaimUnit::Share: return "share";
    case ClaimUnit::Points: return "points";
    case ClaimUnit::Coefficient: return "coefficient";
    }
    return "share";
}

const Claim* ClaimCatalog::find(std::string_view id) const {
    for (const Claim& c : claims) {
        if (c.id == id) return &c;
    }
    return nullptr;
}

namespace {

// The protocols' parameters that have one type wherever they appear (docs/claims.md): a claim giving
// one with another type is refused here, naming it, rather than run with the default in its place.
std::optional<std::string> param_type_problem(const nlohmann::json& params) {
    static const char* const kTexts[] = {"statistic", "first", "second", "off", "taker", "subsystem", "direction",
                                         "series", "match", "conversations"};
    static const char* const kCounts[] = {"max_tokens", "items", "runs", "bins", "variant"};
    for (const char* key : kTexts) {
        if (params.contains(key) && !params[key].is_string()) return std::string("\"params.") + key + "\" must be a string";
    }
    for (const char* key : kCounts) {
        if (params.contains(key) && !(params[key].is_number_integer() && params[key].get<int64_t>() >= 1)) {
            return std::string("\"params.") + key + "\" must be a whole number ≥ 1";
        }
    }
    return std::nullopt;
}

} // namespace

Result<ClaimCatalog> parse_claim_catalog(const nlohmann::json& doc, const std::string& path) {
    if (!doc.is_object() || !doc.contains("version") || doc["version"] != 1) {
        return make_error(ErrorCode::Format, path + ": not a version-1 claims file");
    }
    if (!doc.contains("claims") || !doc["claims"].is_array() || doc["claims"].empty()) {
        return make_error(ErrorCode::Format, path + ": \"claims\" must be a non-empty array");
    }
    static const std::set<std::string> kKeys = {"id", "title", "section", "text", "article_figure", "unit",
                                                "protocol", "params", "holds", "subject", "not_measurable_here", "control"};
    ClaimCatalog catalog;
    std::set<std::string> ids;
    for (size_t i = 0; i < doc["claims"].size(); ++i) {
        const nlohmann::json& j = doc["claims"][i];
        const std::string where = "#" + std::to_string(i + 1);
        if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || j["id"].get<std::string>().empty()) {
            return field_error(path, where, "needs a string \"id\"");
        }
        Claim c;
        c.id = j["id"].get<std::string>();
        if (!ids.insert(c.id).second) return field_error(path, c.id, "the id is used twice");
        for (const auto& [key, value] : j.items()) {
            if (!kKeys.contains(key)) return field_error(path, c.id, "unknown field \"" + key + "\"");
        }
        if (!j.contains("section") || !j["section"].is_string()) return field_error(path, c.id, "\"section\" must be a string");
        c.section = j["section"].get<std::string>();
        auto title = local_text(j, path, c.id, "title");
        if (!title) return title.error();
        c.title = std::move(title.value());
        auto text = local_text(j, path, c.id, "text");
        if (!text) return text.error();
        c.text = std::move(text.value());
        if (!j.contains("article_figure") || !(j["article_figure"].is_number() || (j["article_figure"].is_string() && !j["article_figure"].get<std::string>().empty()))) {
            return field_error(path, c.id, "\"article_figure\" must be a number or the article's words");
        }
        c.article_figure = j["article_figure"];
        const auto unit = j.contains("unit") && j["unit"].is_string() ? parse_unit(j["unit"].get<std::string>()) : std::nullopt;
        if (!unit) return field_error(path, c.id, "\"unit\" must be share, points or coefficient");
        c.unit = *unit;
        if (j.contains("not_measurable_here")) {
            auto why = local_text(j, path, c.id, "not_measurable_here");
            if (!why) return why.error();
            c.not_measurable_here = std::move(why.value());
            for (const char* key : {"protocol", "params", "holds", "subject", "control"}) {
                if (j.contains(key)) return field_error(path, c.id, std::string("a claim that is not measurable here has no \"") + key + "\"");
            }
            catalog.claims.push_back(std::move(c));
            continue;
        }
        if (!j.contains("protocol") || !j["protocol"].is_string() || !find_protocol(j["protocol"].get<std::string>())) {
            return field_error(path, c.id, "\"protocol\" must name a known protocol (docs/claims.md)");
        }
        c.protocol = j["protocol"].get<std::string>();
        if (j.contains("subject")) {
            const auto subject = j["subject"].is_string() ? parse_subject(j["subject"].get<std::string>()) : std::nullopt;
            if (!subject) return field_error(path, c.id, "\"subject\" must be model, router or kv_pool");
            c.subject = *subject;
        }
        if (j.contains("control")) {
            const nlohmann::json& k = j["control"];
            if (!k.is_object() || k.size() != 2 || json_string_or(k, "kind") != "shuffled_map" || !k.contains("margin") ||
                !k["margin"].is_number() || !std::isfinite(k["margin"].get<double>()) || k["margin"].get<double>() < 0.0) {
                return field_error(path, c.id, "\"control\" must be {\"kind\": \"shuffled_map\", \"margin\": a number ≥ 0}");
            }
            c.control_margin = k["margin"].get<double>();
        }
        c.params = j.contains("params") ? j["params"] : nlohmann::json::object();
        if (!c.params.is_object()) return field_error(path, c.id, "\"params\" must be an object");
        if (auto wrong = param_type_problem(c.params)) return field_error(path, c.id, *wrong);
        if (!j.contains("holds") || !j["holds"].is_object()) return field_error(path, c.id, "\"holds\" must be an object");
        const nlohmann::json& h = j["holds"];
        const auto test = h.contains("test") && h["test"].is_string() ? parse_threshold_test(h["test"].get<std::string>()) : std::nullopt;
        if (!test) return field_error(path, c.id, "\"holds.test\" must be above, at_least, below or at_most");
        c.test = *test;
        if (!h.contains("value") || !h["value"].is_number() || !std::isfinite(h["value"].get<double>())) {
            return field_error(path, c.id, "\"holds.value\" must be a number");
        }
        c.threshold = h["value"].get<double>();
        auto words = local_text(h, path, c.id, "text");
        if (!words) return words.error();
        c.holds = std::move(words.value());
        if (h.size() != 3) return field_error(path, c.id, "\"holds\" has keys other than test, value and text");
        catalog.claims.push_back(std::move(c));
    }
    return catalog;
}

Result<ClaimCatalog> read_claim_catalog(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(ErrorCode::Io, path + ": cannot open the claims file");
    std::stringstream ss;
    ss << in.rdbuf();
    const nlohmann::json doc = nlohmann::json::parse(ss.str(), nullptr, false);
    if (doc.is_discarded()) return make_error(ErrorCode::Format, path + ": not valid JSON");
    return parse_claim_catalog(doc, path);
}

std::string format_claim_value(ClaimUnit unit, double value) {
    char buf[64];
    switch (unit) {
    case ClaimUnit::Share: std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * value); break;
    case ClaimUnit::Points: std::snprintf(buf, sizeof buf, "%+.1f pt", 100.0 * value); break;
    case ClaimUnit::Coefficient: std::snprintf(buf, sizeof buf, "%.3f", value); break;
    }
    return buf;
}

std::string article_figure_text(const Claim& claim) {
    if (claim.article_figure.is_number()) return format_claim_value(claim.unit, claim.article_figure.get<double>());
    return claim.article_figure.get<std::string>();
}

} // namespace octo
