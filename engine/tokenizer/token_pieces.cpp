#include "engine/tokenizer/token_pieces.h"

#include <cstdlib>

#include "engine/tokenizer/byte_encoding.h"
#include "engine/tokenizer/utf8.h"

namespace octo {

namespace {

std::string unescape_spaces(const std::string& text) {
    constexpr std::string_view marker = "\xE2\x96\x81";
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        if (text.compare(i, marker.size(), marker) == 0) {
            out += ' ';
            i += marker.size();
        } else {
            out += text[i++];
        }
    }
    return out;
}

std::string byte_decode(const std::string& text) {
    std::string out;
    for (const uint32_t cp : decode_utf8(text)) {
        const int byte = symbol_to_byte(cp);
        if (byte >= 0) {
            out += static_cast<char>(byte);
        } else {
            append_utf8(cp, out);
        }
    }
    return out;
}

// "<0xNN>" -> byte NN; the text itself if it has another form.
std::string byte_token_value(const std::string& text) {
    if (text.size() == 6 && text.compare(0, 3, "<0x") == 0 && text[5] == '>') {
        char* end = nullptr;
        const std::string hex = text.substr(3, 2);
        const long value = std::strtol(hex.c_str(), &end, 16);
        if (end == hex.c_str() + 2) return std::string(1, static_cast<char>(value));
    }
    return text;
}

} // namespace

std::vector<std::string> token_pieces(const Vocab& vocab) {
    std::vector<std::string> pieces(vocab.tokens.size());
    for (int32_t id = 0; id < vocab.size(); ++id) {
        const std::string& text = vocab.tokens[id];
        switch (vocab.type(id)) {
        case TokenType::Control:
        case TokenType::Unknown:
        case TokenType::UserDefined: pieces[id] = text; break;
        case TokenType::Byte: pieces[id] = byte_token_value(text); break;
        case TokenType::Normal:
            pieces[id] = vocab.model == kModelSpm ? unescape_spaces(text) : byte_decode(text);
            break;
        case TokenType::Unused:
        case TokenType::Undefined: break;
        }
    }
    return pieces;
}

} // namespace octo
