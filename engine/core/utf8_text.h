// Text from token bytes for places that need valid UTF-8 (JSON output, the wire): a token's
// bytes may end or start mid-character.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace octo {

// `bytes` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(std::string_view bytes);
// `bytes` with every byte that starts no valid UTF-8 sequence written as \xNN (hex, upper case):
// valid UTF-8 that keeps every byte (a token cut mid-character reads "\xE4\xB8").
std::string utf8_with_escaped_bytes(std::string_view bytes);

// The code point that starts at byte `pos` of `s` and its length in bytes; nullopt when the bytes
// there start no valid UTF-8 sequence (or pos is past the end).
struct CodePoint {
    char32_t value = 0;
    size_t size = 0;
};
std::optional<CodePoint> code_point_at(std::string_view s, size_t pos);

} // namespace octo
