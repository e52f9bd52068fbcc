#include "engine/chat/harmony_channels.h"

#include <algorithm>

namespace octo {

namespace {

constexpr std::string_view kStart = "<|start|>";
constexpr std::string_view kChannel = "<|channel|>";
constexpr std::string_view kMessage = "<|message|>";
constexpr std::string_view kClosers[] = {"<|end|>", "<|return|>", "<|call|>"};

// The first closing marker at or after `from`: its position and length (npos when none).
std::pair<size_t, size_t> next_closer(std::string_view s, size_t from) {
    std::pair<size_t, size_t> best{std::string_view::npos, 0};
    for (std::string_view c : kClosers) {
        const size_t at = s.find(c, from);
        if (at < best.first) best = {at, c.size()};
    }
    return best;
}

} // namespace

std::vector<HarmonyMessage> harmony_messages(std::string_view s) {
    std::vector<HarmonyMessage> out;
    size_t at = 0;
    while (at < s.size()) {
        HarmonyMessage m;
        m.header_begin = at;
        // a header: optional "<|start|>role", then "<|channel|>name …" up to "<|message|>"
        size_t p = at;
        if (s.substr(p).starts_with(kStart)) {
            const size_t channel = s.find(kChannel, p);
            const size_t message = s.find(kMessage, p);
            p = std::min(channel, message) == std::string_view::npos ? s.size() : std::min(channel, message);
        }
        if (s.substr(p).starts_with(kChannel)) {
            const size_t message = s.find(kMessage, p);
            const size_t name_end = std::min({message, s.find(' ', p), s.find("<|", p + kChannel.size())});
            m.channel = std::string(s.substr(p + kChannel.size(), std::min(name_end, s.size()) - p - kChannel.size()));
            p = message == std::string_view::npos ? s.size() : message;
        }
        if (s.substr(p).starts_with(kMessage)) p += kMessage.size();
        m.text_begin = p;
        const auto [closer, length] = next_closer(s, p);
        // a text runs to its closer, or to the next header a model wrote without closing
        const size_t next_header = std::min(s.find(kStart, p), s.find(kChannel, p));
        if (closer != std::string_view::npos && closer <= next_header) {
            m.text_end = closer;
            m.closed = true;
            at = closer + length;
        } else {
            m.text_end = std::min(next_header, s.size());
            at = m.text_end;
        }
        if (at == m.header_begin) at = s.size(); // nothing consumed: the rest is this message's text
        if (m.text_end < m.text_begin) m.text_end = m.text_begin;
        out.push_back(std::move(m));
    }
    return out;
}

namespace {

// The message whose bytes (header, text and closer) hold `offset`: the last one starting at or before it.
const HarmonyMessage* message_at(const std::vector<HarmonyMessage>& messages, size_t offset) {
    const HarmonyMessage* found = nullptr;
    for (const HarmonyMessage& m : messages) {
        if (m.header_begin > offset) break;
        found = &m;
    }
    return found;
}

} // namespace

std::string_view harmony_channel_at(const std::vector<HarmonyMessage>& messages, size_t offset) {
    const HarmonyMessage* m = message_at(messages, offset);
    return m ? std::string_view(m->channel) : std::string_view();
}

bool harmony_in_text(const std::vector<HarmonyMessage>& messages, size_t offset) {
    const HarmonyMessage* m = message_at(messages, offset);
    return m && offset >= m->text_begin && offset < m->text_end;
}

} // namespace octo
