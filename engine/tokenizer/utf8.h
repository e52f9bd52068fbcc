// UTF-8 helpers shared by the tokenizers.
//
// Two decoders exist on purpose, because the reference tokenizers differ:
//  - utf8_sequence_length() trusts the lead byte alone (as SentencePiece-style
//    splitting in llama.cpp does), so a malformed sequence is still cut into
//    "characters" whose bytes later fall back to byte tokens;
//  - decode_utf8() is strict: every byte that does not start a well-formed
//    sequence becomes U+FFFD, which is how the byte-level BPE path sees bad input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace octo {

inline constexpr uint32_t kReplacementChar = 0xFFFD;

// Length of the sequence announced by lead byte `lead`, by its high bits alone as the reference's
// table has it: 1 below 0xC0 (ASCII and continuation bytes), 2 from 0xC0, 3 from 0xE0, 4 from
// 0xF0 — invalid leads (0xC0, 0xC1, 0xF5–0xFF) included.
size_t utf8_sequence_length(uint8_t lead);

// Code points of `text`; malformed bytes become U+FFFD one byte at a time.
std::vector<uint32_t> decode_utf8(std::string_view text);

// Appends the UTF-8 encoding of `cp` (which must be <= 0x10FFFF) to `out`.
void append_utf8(uint32_t cp, std::string& out);

std::string utf8_from_code_point(uint32_t cp);

} // namespace octo
