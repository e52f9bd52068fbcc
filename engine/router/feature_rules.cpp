#include "engine/router/feature_rules.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace octo {

struct FeatureRules::Feature {
    std::string id;
    int subsystem = 0;
    double weight = 0.0;
    bool count = false;
    double cap = 1.0;
    std::vector<RegexPattern> patterns;
};

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
                auto pattern = RegexPattern::compile(p.get<std::string>());
                if (!pattern) return bad(pattern.error().message);
                feature->patterns.push_back(std::move(pattern.value()));
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
    out.values.reserve(features_.size());
    for (const auto& f : features_) {
        FiredFeature fired{f->id, f->subsystem, 0.0, f->weight, {}};
        for (const RegexPattern& pattern : f->patterns) {
            for (const TextSpan& span : pattern.find_all(prompt)) fired.spans.push_back(span);
        }
        if (fired.spans.empty()) {
            out.values.push_back(0.0);
            continue;
        }
        std::sort(fired.spans.begin(), fired.spans.end(),
                  [](const FeatureMatch& a, const FeatureMatch& b) { return a.start < b.start; });
        fired.value = f->count ? std::min(static_cast<double>(fired.spans.size()), f->cap) / f->cap : 1.0;
        out.score[static_cast<size_t>(f->subsystem)] += f->weight * fired.value;
        out.values.push_back(fired.value);
        out.fired.push_back(std::move(fired));
    }
    return out;
}

} // namespace octo
