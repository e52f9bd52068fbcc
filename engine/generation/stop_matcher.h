// User stop strings over streamed generated text.
//
// Generated text arrives one token piece at a time. push() returns the text that can be
// shown now and holds back the rest:
//  - a tail that is a prefix of some stop string (it may become a stop string),
//  - a tail that is an incomplete UTF-8 sequence (so shown text never ends mid-character).
// When a stop string is complete, the text before its first occurrence is returned with
// `stopped` set; the stop string and anything after it are dropped, and later pushes
// return nothing. At the end of generation, flush() returns whatever is still held.
// Matching is on bytes, across any token boundaries; empty stop strings are ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace octo {

class StopMatcher {
public:
    explicit StopMatcher(std::vector<std::string> stops);

    struct Output {
        std::string text; // safe to show now
        bool stopped = false;
    };

    Output push(std::string_view piece);
    std::string flush();

    bool stopped() const { return stopped_; }

private:
    size_t held_length() const; // how many bytes at the end of pending_ must stay held

    std::vector<std::string> stops_;
    std::string pending_;
    bool stopped_ = false;
};

} // namespace octo
