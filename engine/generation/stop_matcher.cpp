#include "engine/generation/stop_matcher.h"

#include <algorithm>
#include <utility>

namespace octo {

namespace {

// Bytes at the end of `text` that start a UTF-8 sequence not yet complete (0 if none).
size_t incomplete_utf8_tail(std::string_view text) {
    const size_t look = std::min<size_t>(text.size(), 3);
    for (size_t back = 1; back <= look; ++back) {
        const auto byte = static_cast<unsigned char>(text[text.size() - back]);
        if ((byte & 0xC0) == 0x80) continue; // continuation byte: keep looking for the lead
        const size_t need = (byte & 0xE0) == 0xC0 ? 2 : (byte & 0xF0) == 0xE0 ? 3 : (byte & 0xF8) == 0xF0 ? 4 : 1;
        return need > back ? back : 0;
    }
    return 0;
}

} // namespace

StopMatcher::StopMatcher(std::vector<std::string> stops) {
    for (std::string& s : stops) {
        if (!s.empty()) stops_.push_back(std::move(s));
    }
}

size_t StopMatcher::held_length() const {
    const std::string_view text = pending_;
    size_t held = incomplete_utf8_tail(text);
    for (const std::string& stop : stops_) {
        // Longest proper prefix of `stop` that ends `text`.
        for (size_t n = std::min(stop.size() - 1, text.size()); n > held; --n) {
            if (text.ends_with(std::string_view(stop).substr(0, n))) {
                held = n;
                break;
            }
        }
    }
    return held;
}

StopMatcher::Output StopMatcher::push(std::string_view piece) {
    Output out;
    if (stopped_) {
        out.stopped = true;
        return out;
    }
    pending_ += piece;
    size_t first = std::string::npos;
    for (const std::string& stop : stops_) first = std::min(first, pending_.find(stop));
    if (first != std::string::npos) {
        out.text = pending_.substr(0, first);
        out.stopped = stopped_ = true;
        pending_.clear();
        return out;
    }
    const size_t keep = held_length();
    out.text = pending_.substr(0, pending_.size() - keep);
    pending_.erase(0, pending_.size() - keep);
    return out;
}

std::string StopMatcher::flush() { return std::exchange(pending_, std::string()); }

} // namespace octo
