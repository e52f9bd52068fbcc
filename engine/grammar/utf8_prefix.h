// UTF-8 facts for text that arrives in pieces (a token may end inside a character): how long a
// character is from its first byte, which second bytes may follow it, and which code points a
// valid prefix can still become. Shared by GrammarMatcher and GrammarMask.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

namespace octo {

// The length a UTF-8 character starting with `lead` has (0: not a lead byte).
inline size_t utf8_sequence_length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if (lead >= 0xE0 && lead <= 0xEF) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
}

// Whether `second` may follow `lead` (a lead of a 2- to 4-byte character): a continuation byte,
// within the narrower range after E0/ED/F0/F4 (no overlong forms, surrogates or > U+10FFFF).
inline bool utf8_second_byte_ok(unsigned char lead, unsigned char second) {
    if ((second & 0xC0) != 0x80) return false;
    return !((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) || (lead == 0xF0 && second < 0x90) ||
             (lead == 0xF4 && second > 0x8F));
}

// The code points whose UTF-8 form starts with `prefix` (a valid start of a longer character):
// the smallest and the largest, every one between them included.
inline std::pair<char32_t, char32_t> utf8_completions(std::string_view prefix) {
    const auto lead = static_cast<unsigned char>(prefix[0]);
    const size_t length = utf8_sequence_length(lead);
    // The second byte's bounds after the leads that restrict it.
    const unsigned char second_lo = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
    const unsigned char second_hi = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
    const char32_t lead_bits = length == 2 ? (lead & 0x1F) : length == 3 ? (lead & 0x0F) : (lead & 0x07);
    char32_t lo = lead_bits, hi = lead_bits;
    for (size_t i = 1; i < length; ++i) {
        unsigned char b_lo = 0x80, b_hi = 0xBF;
        if (i < prefix.size()) {
            b_lo = b_hi = static_cast<unsigned char>(prefix[i]);
        } else if (i == 1) {
            b_lo = second_lo;
            b_hi = second_hi;
        }
        lo = (lo << 6) | (b_lo & 0x3F);
        hi = (hi << 6) | (b_hi & 0x3F);
    }
    return {lo, hi};
}

// The code point of a complete, valid character `bytes` (checked by the functions above).
inline char32_t utf8_decode_checked(std::string_view bytes) {
    const auto lead = static_cast<unsigned char>(bytes[0]);
    if (bytes.size() == 1) return lead;
    char32_t cp = bytes.size() == 2 ? (lead & 0x1F) : bytes.size() == 3 ? (lead & 0x0F) : (lead & 0x07);
    for (size_t i = 1; i < bytes.size(); ++i) cp = (cp << 6) | (static_cast<unsigned char>(bytes[i]) & 0x3F);
    return cp;
}

} // namespace octo
