// How well the coherence measures (coherence.h) find the breaks a careful reader marks: labelled
// conversations (resources/coherence/calibration.json, heldout.json), precision and recall per
// measure with Wilson intervals, and the thresholds chosen on the calibration set.
//
// A finding matches a label when its kind and the index of its later (assistant) message are the
// label's; several findings of one kind in one message count once.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/claims/exact_statistics.h"
#include "engine/conversation/coherence.h"

namespace octo {

struct CoherenceLabel {
    CoherenceKind kind = CoherenceKind::EntityReference;
    size_t message = 0;
    bool operator<(const CoherenceLabel& o) const { return std::pair{kind, message} < std::pair{o.kind, o.message}; }
    bool operator==(const CoherenceLabel&) const = default;
};

struct LabelledConversation {
    std::string id;
    std::vector<ChatMessage> messages;
    std::vector<CoherenceLabel> breaks;
};

// {"conversations": [{"id", "messages": [OpenAI messages], "breaks": [{"kind", "message"}]}]}
Result<std::vector<LabelledConversation>> read_coherence_set(const std::string& path);

struct DetectionScore {
    int64_t true_positives = 0;
    int64_t false_positives = 0;
    int64_t false_negatives = 0;
    double precision() const; // 1 with no finding
    double recall() const;    // 1 with no label
    Interval precision_ci() const; // Wilson, 95 %
    Interval recall_ci() const;
    double f1() const;
};

struct CoherenceScore {
    std::array<DetectionScore, kCoherenceKinds> kinds;
    DetectionScore all;
    std::vector<std::string> missed;   // "id: kind at message k" for each label no finding matched
    std::vector<std::string> spurious; // the same for each finding no label matched
};

CoherenceScore score_coherence(const std::vector<LabelledConversation>& set, const SentimentLexicon& lexicon,
                               const CoherenceThresholds& thresholds);

// The thresholds of the grid (sentiment jump 0.5 … 1.5, number tolerance 0.1 % … 5 %) with the
// best F1 over all kinds on `set`; ties go to the point nearest jump 1 and tolerance 0.5 % (the
// values written before calibration). CoherenceThresholds' defaults are its result on
// resources/coherence/calibration.json (a test keeps them so).
CoherenceThresholds calibrate_coherence(const std::vector<LabelledConversation>& set, const SentimentLexicon& lexicon);

nlohmann::json coherence_score_json(const CoherenceScore& score, const CoherenceThresholds& thresholds);

} // namespace octo
