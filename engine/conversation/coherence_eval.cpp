#include "engine/conversation/coherence_eval.h"

#include <cmath>
#include <set>

#include "engine/chat/chat_messages_json.h"
#include "engine/core/file_bytes.h"

namespace octo {

namespace {

std::optional<CoherenceKind> parse_kind(const std::string& name) {
    for (size_t k = 0; k < kCoherenceKinds; ++k) {
        if (name == coherence_kind_name(static_cast<CoherenceKind>(k))) return static_cast<CoherenceKind>(k);
    }
    return std::nullopt;
}

std::string label_text(const std::string& id, const CoherenceLabel& l) {
    return id + ": " + coherence_kind_name(l.kind) + " at message " + std::to_string(l.message);
}

void count(DetectionScore& s, int64_t tp, int64_t fp, int64_t fn) {
    s.true_positives += tp;
    s.false_positives += fp;
    s.false_negatives += fn;
}

} // namespace

Result<std::vector<LabelledConversation>> read_coherence_set(const std::string& path) {
    auto bytes = read_file_bytes(path, "the coherence set");
    if (!bytes) return bytes.error();
    const nlohmann::json j = nlohmann::json::parse(bytes.value(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("conversations") || !j["conversations"].is_array()) {
        return make_error(ErrorCode::Format, path + ": expected {\"conversations\": [...]}");
    }
    std::vector<LabelledConversation> out;
    for (size_t i = 0; i < j["conversations"].size(); ++i) {
        const nlohmann::json& c = j["conversations"][i];
        const std::string where = path + ": conversations[" + std::to_string(i) + "]";
        if (!c.is_object() || !c.contains("id") || !c["id"].is_string()) return make_error(ErrorCode::Format, where + " needs a string \"id\"");
        LabelledConversation lc;
        lc.id = c["id"].get<std::string>();
        if (auto problem = chat_messages_from_json(c.value("messages", nlohmann::json()), lc.messages)) {
            return make_error(ErrorCode::Format, where + ": " + problem->message);
        }
        if (!c.contains("breaks") || !c["breaks"].is_array()) return make_error(ErrorCode::Format, where + " needs a \"breaks\" array");
        for (const nlohmann::json& b : c["breaks"]) {
            const auto kind = b.is_object() && b.contains("kind") && b["kind"].is_string() ? parse_kind(b["kind"].get<std::string>()) : std::nullopt;
            if (!kind || !b.contains("message") || !b["message"].is_number_unsigned() || b["message"].get<size_t>() >= lc.messages.size() ||
                lc.messages[b["message"].get<size_t>()].role != ChatRole::Assistant) {
                return make_error(ErrorCode::Format, where + " (" + lc.id + "): each break needs a known \"kind\" and the index of an assistant \"message\"");
            }
            lc.breaks.push_back({*kind, b["message"].get<size_t>()});
        }
        out.push_back(std::move(lc));
    }
    return out;
}

double DetectionScore::precision() const {
    const int64_t found = true_positives + false_positives;
    return found > 0 ? static_cast<double>(true_positives) / static_cast<double>(found) : 1.0;
}
double DetectionScore::recall() const {
    const int64_t labelled = true_positives + false_negatives;
    return labelled > 0 ? static_cast<double>(true_positives) / static_cast<double>(labelled) : 1.0;
}
Interval DetectionScore::precision_ci() const { return wilson_interval(true_positives, true_positives + false_positives); }
Interval DetectionScore::recall_ci() const { return wilson_interval(true_positives, true_positives + false_negatives); }
double DetectionScore::f1() const {
    const double p = precision(), r = recall();
    return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
}

CoherenceScore score_coherence(const std::vector<LabelledConversation>& set, const SentimentLexicon& lexicon,
                               const CoherenceThresholds& thresholds) {
    CoherenceScore score;
    for (const LabelledConversation& c : set) {
        const CoherenceReport report = measure_coherence(c.messages, lexicon, thresholds);
        std::set<CoherenceLabel> found, labelled(c.breaks.begin(), c.breaks.end());
        for (const CoherenceFinding& f : report.findings) found.insert({f.kind, f.later.message});
        for (const CoherenceLabel& l : found) {
            const bool hit = labelled.contains(l);
            count(score.kinds[static_cast<size_t>(l.kind)], hit ? 1 : 0, hit ? 0 : 1, 0);
            count(score.all, hit ? 1 : 0, hit ? 0 : 1, 0);
            if (!hit) score.spurious.push_back(label_text(c.id, l));
        }
        for (const CoherenceLabel& l : labelled) {
            if (found.contains(l)) continue;
            count(score.kinds[static_cast<size_t>(l.kind)], 0, 0, 1);
            count(score.all, 0, 0, 1);
            score.missed.push_back(label_text(c.id, l));
        }
    }
    return score;
}

CoherenceThresholds calibrate_coherence(const std::vector<LabelledConversation>& set, const SentimentLexicon& lexicon) {
    // Ties go to the grid point nearest the prior (jump 1, tolerance 0.5 %), on a log scale.
    auto distance = [](const CoherenceThresholds& t) {
        return std::fabs(std::log(t.sentiment_jump / 1.0)) + std::fabs(std::log(t.number_tolerance / 0.005));
    };
    CoherenceThresholds best;
    double best_f1 = -1.0;
    for (const double jump : {0.5, 0.75, 1.0, 1.25, 1.5}) {
        for (const double tolerance : {0.001, 0.005, 0.01, 0.02, 0.05}) {
            const CoherenceThresholds t{jump, tolerance};
            const double f1 = score_coherence(set, lexicon, t).all.f1();
            if (f1 > best_f1 + 1e-12 || (std::fabs(f1 - best_f1) <= 1e-12 && distance(t) < distance(best))) {
                best_f1 = f1;
                best = t;
            }
        }
    }
    return best;
}

nlohmann::json coherence_score_json(const CoherenceScore& score, const CoherenceThresholds& thresholds) {
    auto one = [](const DetectionScore& s) {
        return nlohmann::json{{"true_positives", s.true_positives}, {"false_positives", s.false_positives},
                              {"false_negatives", s.false_negatives}, {"precision", s.precision()},
                              {"precision_ci95", {s.precision_ci().lo, s.precision_ci().hi}}, {"recall", s.recall()},
                              {"recall_ci95", {s.recall_ci().lo, s.recall_ci().hi}}, {"f1", s.f1()}};
    };
    nlohmann::json kinds = nlohmann::json::object();
    for (size_t k = 0; k < kCoherenceKinds; ++k) kinds[coherence_kind_name(static_cast<CoherenceKind>(k))] = one(score.kinds[k]);
    return {{"thresholds", {{"sentiment_jump", thresholds.sentiment_jump}, {"number_tolerance", thresholds.number_tolerance}}},
            {"kinds", kinds}, {"all", one(score.all)}, {"missed", score.missed}, {"spurious", score.spurious}};
}

} // namespace octo
