// Multi-turn coherence of a conversation (docs/coherence.md): the three measures the article's
// lesson 5.3 names, each deterministic and explainable — every finding points at the bytes of
// the two messages that disagree — in English and Chinese.
//
//   entity reference    a fact about an entity stated earlier (by anyone) and contradicted by a
//                       later assistant turn: a unique role held by a name ("Alice is the
//                       manager" → "Bob, the manager"), a quantity with a unit ("the trip is
//                       12 km" → "15 km"; units converted, 12 km = 12 kilometres), a date
//   logical continuity  a statement a later assistant turn negates ("Alice likes tea" → "Alice
//                       does not like tea"), and a bare number that changes ("the answer is 42"
//                       → "the answer is 40")
//   sentiment stability a lexicon score per assistant turn, (positive − negative) / (their sum)
//                       with negators flipping the next word, and the jumps between adjacent
//                       assistant turns of at least `sentiment_jump` (1.25, calibrated)
//
// Facts are compared with the latest statement of the same key, so a correction by the user
// followed by an assistant turn that adopts it is no break. Questions state nothing. Each measure
// is reported per window of 3 adjacent assistant turns (with the turns between them) and for the
// whole conversation. What the rules cannot see is listed in docs/coherence.md.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_message.h"
#include "engine/core/result.h"

namespace octo {

enum class CoherenceKind { EntityReference, LogicalContinuity, SentimentStability };
inline constexpr size_t kCoherenceKinds = 3;
const char* coherence_kind_name(CoherenceKind kind); // "entity_reference", "logical_continuity", "sentiment_stability"

// Bytes [begin, end) of messages[message].content.
struct MessageSpan {
    size_t message = 0;
    size_t begin = 0;
    size_t end = 0;
    bool operator==(const MessageSpan&) const = default;
};

struct CoherenceFinding {
    CoherenceKind kind = CoherenceKind::EntityReference;
    std::string key;         // what the two statements are about: "manager", "trip (length)", "alice like tea"
    MessageSpan earlier;        // the statement that was contradicted
    MessageSpan later;          // the assistant's statement that contradicts it
    std::string explanation; // one sentence: "the manager was Alice (message 1), now Bob (message 5)"
    // What to try, in English and Chinese, quoting the earlier statement: restate an entity in the
    // system message, quote a contradicted statement in the next user turn, state the tone wanted.
    std::string suggestion_en, suggestion_zh;
};

// The sentiment lexicon (resources/coherence/sentiment_lexicon.json): words per language.
struct SentimentLexicon {
    std::vector<std::string> en_positive, en_negative, en_negators;
    std::vector<std::string> zh_positive, zh_negative, zh_negators;
};
Result<SentimentLexicon> read_sentiment_lexicon(const std::string& path);
// Where the shipped lexicon lies inside the resource folder, and that file read.
inline constexpr const char* kSentimentLexiconFile = "coherence/sentiment_lexicon.json";
Result<SentimentLexicon> read_default_sentiment_lexicon(const std::string& resource_dir);

// Calibrated on resources/coherence/calibration.json (calibrate_coherence, coherence_eval.h).
struct CoherenceThresholds {
    double sentiment_jump = 1.25;     // |score(k) − score(k−1)| that counts as a jump (scores in [−1, 1])
    double number_tolerance = 0.005;  // relative difference under which two quantities are the same
};

struct TurnSentiment {
    size_t message = 0;
    double score = 0.0;             // (positive − negative) / (positive + negative); 0 with no hit
    int positive = 0;
    int negative = 0;
    std::vector<MessageSpan> words;    // the lexicon words that counted
};

struct CoherenceWindow {
    size_t first_message = 0; // the messages the window covers, both ends included
    size_t last_message = 0;
    std::vector<size_t> assistant_messages; // its assistant turns (3, or fewer in a short conversation)
    std::array<int, kCoherenceKinds> breaks = {}; // findings per kind inside the window
};

struct CoherenceReport {
    std::vector<CoherenceFinding> findings;  // in the order of their later statement
    std::vector<TurnSentiment> sentiment;    // one per assistant turn
    std::vector<CoherenceWindow> windows;
    // Per kind: windows with no break / windows (1 when there is no window).
    std::array<double, kCoherenceKinds> coherent_share = {1.0, 1.0, 1.0};
};

CoherenceReport measure_coherence(std::span<const ChatMessage> messages, const SentimentLexicon& lexicon,
                                  const CoherenceThresholds& thresholds = {});

// {"findings": [{"kind", "key", "earlier": {"message", "begin", "end", "text"}, "later": …,
//   "explanation"}], "sentiment": [...], "windows": [...], "coherent_share": {kind: share}}
nlohmann::json coherence_json(const CoherenceReport& report, std::span<const ChatMessage> messages);

} // namespace octo
