#include "engine/advisor/code_fences.h"

#include <cctype>

namespace octo {

namespace {

size_t line_end(std::string_view text, size_t from) {
    const size_t nl = text.find('\n', from);
    return nl == std::string_view::npos ? text.size() : nl;
}

size_t next_line(std::string_view text, size_t from) {
    const size_t end = line_end(text, from);
    return end < text.size() ? end + 1 : end;
}

// Where a fence begins on the line at `from` (up to three spaces of indentation), or npos.
size_t fence_at(std::string_view text, size_t from) {
    size_t i = from;
    while (i < text.size() && i - from < 3 && text[i] == ' ') ++i;
    return text.substr(i, 3) == "```" ? i : std::string_view::npos;
}

} // namespace

std::vector<FencedBlock> fenced_blocks(std::string_view text) {
    std::vector<FencedBlock> blocks;
    size_t line = 0;
    while (line < text.size()) {
        const size_t open = fence_at(text, line);
        if (open == std::string_view::npos) {
            line = next_line(text, line);
            continue;
        }
        FencedBlock b{};
        b.fence_start = open;
        size_t i = open + 3;
        while (i < text.size() && text[i] == '`') ++i;
        while (i < text.size() && text[i] == ' ') ++i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '`') {
            b.lang += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++])));
        }
        b.body_start = next_line(text, open);
        b.body_end = b.fence_end = text.size();
        for (size_t l = b.body_start; l < text.size(); l = next_line(text, l)) {
            if (fence_at(text, l) != std::string_view::npos) {
                b.body_end = l;
                b.fence_end = next_line(text, l);
                break;
            }
        }
        blocks.push_back(b);
        line = b.fence_end;
    }
    return blocks;
}

bool inside_fence(const std::vector<FencedBlock>& blocks, size_t at) {
    for (const FencedBlock& b : blocks) {
        if (at >= b.fence_start && at < b.fence_end) return true;
    }
    return false;
}

} // namespace octo
