// Markdown code fences (```lang … ```) in a model's output (internal to engine/advisor).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace octo {

struct FencedBlock {
    std::string lang;     // the info string's first word, lower case ("" when none)
    size_t fence_start;   // byte offset of the opening ```
    size_t body_start;    // first byte after the opening line
    size_t body_end;      // the closing fence's line start, or the end of the text when unclosed
    size_t fence_end;     // first byte after the closing fence line (or the end of the text)
};

std::vector<FencedBlock> fenced_blocks(std::string_view text);

// True when `at` lies inside one of `blocks` (fences included).
bool inside_fence(const std::vector<FencedBlock>& blocks, size_t at);

} // namespace octo
