#include "engine/remote/sse_reader.h"

namespace octo::remote {

std::vector<std::string> SseReader::feed(std::string_view bytes) {
    std::vector<std::string> out;
    for (char ch : bytes) {
        if (ch == '\n' && after_cr_) {
            after_cr_ = false;
            continue;
        }
        after_cr_ = ch == '\r';
        if (ch == '\n' || ch == '\r') {
            line(out);
            line_.clear();
        } else {
            line_.push_back(ch);
        }
    }
    return out;
}

void SseReader::line(std::vector<std::string>& out) {
    if (line_.empty()) { // a blank line dispatches the event
        if (has_data_) out.push_back(std::move(data_));
        data_.clear();
        has_data_ = false;
        return;
    }
    if (line_[0] == ':') return; // a comment
    const size_t colon = line_.find(':');
    const std::string_view field = std::string_view(line_).substr(0, colon);
    std::string_view value = colon == std::string::npos ? std::string_view() : std::string_view(line_).substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
    if (field != "data") return;
    if (has_data_) data_.push_back('\n');
    data_.append(value);
    has_data_ = true;
}

} // namespace octo::remote
