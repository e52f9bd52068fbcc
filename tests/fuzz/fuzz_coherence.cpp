// Fuzz target: a conversation from untrusted bytes, through the coherence measures
// (engine/conversation/coherence.h) and the OpenAI messages parser. The input is split at NUL
// bytes into messages whose first byte picks the role; the whole input is also parsed as JSON and,
// when it is, read as a messages array. Besides crashes and sanitizer reports, a finding is a
// finding that points outside its message, an earlier statement after the later one, a later
// statement that is not an assistant's, a share outside [0, 1], or JSON output that cannot be
// written.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chat/chat_messages_json.h"
#include "engine/conversation/coherence.h"

namespace {

const octo::SentimentLexicon& lexicon() {
    static const octo::SentimentLexicon lex = [] {
        octo::SentimentLexicon l;
        l.en_positive = {"good", "great", "happy"};
        l.en_negative = {"bad", "terrible", "sad"};
        l.en_negators = {"not", "never"};
        l.zh_positive = {"好", "开心"};
        l.zh_negative = {"坏", "难过", "不幸"};
        l.zh_negators = {"不", "没有"};
        return l;
    }();
    return lex;
}

void check(const std::vector<octo::ChatMessage>& messages) {
    const octo::CoherenceReport r = octo::measure_coherence(messages, lexicon());
    auto inside = [&](const octo::MessageSpan& s) {
        return s.message < messages.size() && s.begin <= s.end && s.end <= messages[s.message].content.size();
    };
    for (const octo::CoherenceFinding& f : r.findings) {
        if (!inside(f.earlier) || !inside(f.later)) std::abort();
        if (f.earlier.message > f.later.message) std::abort();
        if (messages[f.later.message].role != octo::ChatRole::Assistant) std::abort();
    }
    for (const double share : r.coherent_share) {
        if (!(share >= 0.0 && share <= 1.0)) std::abort();
    }
    for (const octo::TurnSentiment& t : r.sentiment) {
        if (!(t.score >= -1.0 && t.score <= 1.0)) std::abort();
    }
    (void)octo::coherence_json(r, messages).dump(); // throws (a finding) on text that is not valid UTF-8
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<octo::ChatMessage> messages;
    for (size_t at = 0; at <= input.size();) {
        const size_t end = std::min(input.find('\0', at), input.size());
        const std::string_view part = input.substr(at, end - at);
        if (!part.empty()) {
            messages.push_back({static_cast<octo::ChatRole>(static_cast<uint8_t>(part[0]) % 3), std::string(part.substr(1))});
        }
        at = end + 1;
    }
    check(messages);
    const nlohmann::json j = nlohmann::json::parse(input, nullptr, false);
    if (!j.is_discarded()) {
        std::vector<octo::ChatMessage> parsed;
        if (!octo::chat_messages_from_json(j.is_object() && j.contains("messages") ? j["messages"] : j, parsed)) check(parsed);
    }
    return 0;
}
