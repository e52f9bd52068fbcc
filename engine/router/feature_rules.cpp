#include "engine/router/feature_rules.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <nlohmann/json.hpp>

namespace octo {

struct FeatureRules::Feature {
    std::string id;
    int subsystem = 0;
    double weight = 0.0;
    bool count = false;
    double cap = 1.0;
    std::vector<pcre2_code*> patterns;

    ~Feature() {
        for (pcre2_code* p : patterns) pcre2_code_free(p);
    }
};

namespace {

std::string pcre2_text(int code) {
    PCRE2_UCHAR buffer[256];
    pcre2_get_error_message(code, buffer, sizeof buffer);
    return reinterpret_cast<const char*>(buffer);
}

} // namespace

Result<FeatureRules> FeatureRules::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(ErrorCode::Io, path + ": cannot open the rule file");
    std::stringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

Result<FeatureRules> FeatureRules::parse(std::string_view json_text, const std::string& origin) {
    const auto fail = [&](const std::string& what) { return make_error(ErrorCode::Format, origin + ": " + what); };
    const nlohmann::json doc = nlohmann::json::parse(json_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return fail("not a JSON object");
    if (!doc.contains("version") || doc["version"] != 1) return fail("\"version\" must be 1");
    if (!doc.contains("subsystems") || !doc["subsystems"].is_object()) return fail("missing object \"subsystems\"");
    FeatureRules rules;
    std::set<std::string> ids;
    for (const auto& [sid, entry] : doc["subsystems"].items()) {
        const auto s = subsystem_index(sid);
        if (!s) return fail("unknown subsystem \"" + sid + "\"");
        if (!entry.is_object() || !entry.contains("features") || !entry["features"].is_array()) {
            return fail(sid + ": expected {\"features\": [...]}");
        }
        for (const auto& f : entry["features"]) {
            if (!f.is_object() || !f.contains("id") || !f["id"].is_string()) return fail(sid + ": a feature lacks a string \"id\"");
            const std::string id = f["id"].get<std::string>();
            const auto bad = [&](const std::string& what) { return fail("feature " + id + ": " + what); };
            if (!ids.insert(id).second) return bad("duplicate id");
            if (!f.contains("weight") || !f["weight"].is_number() || !(f["weight"].get<double>() > 0.0)) {
                return bad("\"weight\" must be a positive number");
            }
            if (!f.contains("measure") || (f["measure"] != "count" && f["measure"] != "present")) {
                return bad("\"measure\" must be \"count\" or \"present\"");
            }
            if (!f.contains("patterns") || !f["patterns"].is_array() || f["patterns"].empty()) {
                return bad("\"patterns\" must be a non-empty array");
            }
            auto feature = std::make_shared<Feature>();
            feature->id = id;
            feature->subsystem = *s;
            feature->weight = f["weight"].get<double>();
            feature->count = f["measure"] == "count";
            if (feature->count) {
                if (!f.contains("cap") || !f["cap"].is_number() || !(f["cap"].get<double>() >= 1.0)) {
                    return bad("a count feature needs \"cap\" >= 1");
                }
                feature->cap = f["cap"].get<double>();
            }
            for (const auto& p : f["patterns"]) {
                if (!p.is_string() || p.get<std::string>().empty()) return bad("every pattern must be a non-empty string");
                const std::string source = p.get<std::string>();
                int error = 0;
                PCRE2_SIZE offset = 0;
                pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.data()), source.size(),
                                                 PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS, &error, &offset, nullptr);
                if (!code) return bad("pattern \"" + source + "\" at offset " + std::to_string(offset) + ": " + pcre2_text(error));
                feature->patterns.push_back(code);
            }
            rules.features_.push_back(std::move(feature));
        }
    }
    if (rules.features_.empty()) return fail("no features");
    return rules;
}

size_t FeatureRules::size() const { return features_.size(); }

std::array<double, kSubsystemCount> FeatureRules::max_scores() const {
    std::array<double, kSubsystemCount> m{};
    for (const auto& f : features_) m[static_cast<size_t>(f->subsystem)] += f->weight;
    return m;
}

FeatureScores FeatureRules::score(std::string_view prompt) const {
    FeatureScores out;
    std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> match(pcre2_match_data_create(1, nullptr),
                                                                              &pcre2_match_data_free);
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(prompt.data());
    for (const auto& f : features_) {
        FiredFeature fired{f->id, f->subsystem, 0.0, f->weight, {}};
        for (pcre2_code* code : f->patterns) {
            size_t offset = 0;
            while (offset <= prompt.size()) {
                const int rc = pcre2_match(code, subject, prompt.size(), offset, 0, match.get(), nullptr);
                if (rc < 0) break; // no match, or invalid UTF-8 in the prompt: nothing more from this pattern
                const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(match.get());
                if (ov[1] == ov[0]) { // an empty match: step over one character
                    offset = ov[1] + 1;
                    while (offset < prompt.size() && (static_cast<unsigned char>(prompt[offset]) & 0xC0) == 0x80) ++offset;
                    continue;
                }
                fired.spans.push_back(FeatureMatch{ov[0], ov[1]});
                offset = ov[1];
            }
        }
        if (fired.spans.empty()) continue;
        std::sort(fired.spans.begin(), fired.spans.end(),
                  [](const FeatureMatch& a, const FeatureMatch& b) { return a.start < b.start; });
        fired.value = f->count ? std::min(static_cast<double>(fired.spans.size()), f->cap) / f->cap : 1.0;
        out.score[static_cast<size_t>(f->subsystem)] += f->weight * fired.value;
        out.fired.push_back(std::move(fired));
    }
    return out;
}

} // namespace octo
