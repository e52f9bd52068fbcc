#include "engine/core/utf8_text.h"

#include <cstdint>

namespace octo {

namespace {

// Copies the valid UTF-8 sequences of `s` and hands each byte that starts no valid sequence to
// `invalid` (which appends what stands for it).
template <class Invalid>
std::string repaired(std::string_view s, Invalid invalid) {
    std::string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
        if (const auto cp = code_point_at(s, i)) {
            out.append(s.substr(i, cp->size));
            i += cp->size;
        } else {
            invalid(out, static_cast<unsigned char>(s[i]));
            i += 1;
        }
    }
    return out;
}

} // namespace

std::optional<CodePoint> code_point_at(std::string_view s, size_t i) {
    if (i >= s.size()) return std::nullopt;
    const auto b0 = static_cast<unsigned char>(s[i]);
    size_t len = 0;
    uint32_t min_cp = 0;
    if (b0 < 0x80) len = 1;
    else if ((b0 & 0xE0) == 0xC0) { len = 2; min_cp = 0x80; }
    else if ((b0 & 0xF0) == 0xE0) { len = 3; min_cp = 0x800; }
    else if ((b0 & 0xF8) == 0xF0) { len = 4; min_cp = 0x10000; }
    bool ok = len > 0 && i + len <= s.size();
    uint32_t cp = len == 1 ? b0 : (b0 & (0x7Fu >> len));
    for (size_t k = 1; ok && k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        ok = (b & 0xC0) == 0x80;
        cp = (cp << 6) | (b & 0x3Fu);
    }
    ok = ok && cp >= min_cp && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (!ok) return std::nullopt;
    return CodePoint{static_cast<char32_t>(cp), len};
}

std::string valid_utf8(std::string_view s) {
    return repaired(s, [](std::string& out, unsigned char) { out.append("\xEF\xBF\xBD"); });
}

std::string utf8_with_escaped_bytes(std::string_view s) {
    return repaired(s, [](std::string& out, unsigned char b) {
        static constexpr char kHex[] = "0123456789ABCDEF";
        out += "\\x";
        out.push_back(kHex[b >> 4]);
        out.push_back(kHex[b & 15]);
    });
}

} // namespace octo
