#include "engine/tokenizer/utf8.h"

namespace octo {

size_t utf8_sequence_length(uint8_t lead) {
    if (lead >= 0xF0) return 4;
    if (lead >= 0xE0) return 3;
    if (lead >= 0xC0) return 2;
    return 1;
}

namespace {

bool is_continuation(uint8_t byte) { return (byte & 0xC0) == 0x80; }

// Decodes one well-formed sequence at text[pos]; returns its length, or 0 when the
// bytes there are not a well-formed UTF-8 sequence (overlong forms, surrogates and
// values above U+10FFFF are rejected).
size_t decode_one(std::string_view text, size_t pos, uint32_t& cp) {
    const auto lead = static_cast<uint8_t>(text[pos]);
    if (lead < 0x80) {
        cp = lead;
        return 1;
    }
    size_t len = 0;
    uint32_t min_value = 0;
    if ((lead & 0xE0) == 0xC0) {
        len = 2;
        cp = lead & 0x1Fu;
        min_value = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        len = 3;
        cp = lead & 0x0Fu;
        min_value = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        len = 4;
        cp = lead & 0x07u;
        min_value = 0x10000;
    } else {
        return 0;
    }
    if (pos + len > text.size()) return 0;
    for (size_t i = 1; i < len; ++i) {
        const auto byte = static_cast<uint8_t>(text[pos + i]);
        if (!is_continuation(byte)) return 0;
        cp = (cp << 6) | (byte & 0x3Fu);
    }
    if (cp < min_value || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

} // namespace

std::vector<uint32_t> decode_utf8(std::string_view text) {
    std::vector<uint32_t> cps;
    cps.reserve(text.size());
    size_t pos = 0;
    while (pos < text.size()) {
        uint32_t cp = 0;
        const size_t len = decode_one(text, pos, cp);
        if (len == 0) {
            cps.push_back(kReplacementChar);
            ++pos;
        } else {
            cps.push_back(cp);
            pos += len;
        }
    }
    return cps;
}

void append_utf8(uint32_t cp, std::string& out) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::string utf8_from_code_point(uint32_t cp) {
    std::string out;
    append_utf8(cp, out);
    return out;
}

} // namespace octo
