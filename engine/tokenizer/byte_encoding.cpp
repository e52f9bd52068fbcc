#include "engine/tokenizer/byte_encoding.h"

#include <array>

#include "engine/tokenizer/utf8.h"

namespace octo {

namespace {

bool maps_to_itself(unsigned byte) {
    return (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) || byte >= 0xAE;
}

struct ByteTables {
    std::array<std::string, 256> symbol;
    std::array<uint32_t, 256> code_point{};

    ByteTables() {
        uint32_t next_free = 256;
        for (unsigned byte = 0; byte < 256; ++byte) {
            code_point[byte] = maps_to_itself(byte) ? byte : next_free++;
            symbol[byte] = utf8_from_code_point(code_point[byte]);
        }
    }
};

const ByteTables& tables() {
    static const ByteTables t;
    return t;
}

} // namespace

const std::string& byte_to_symbol(uint8_t byte) { return tables().symbol[byte]; }

int symbol_to_byte(uint32_t cp) {
    // Self-mapped bytes are their own code point; the others live in U+0100..U+0143.
    if (cp < 256) return maps_to_itself(cp) ? static_cast<int>(cp) : -1;
    if (cp < 256 + 68) {
        const auto& cps = tables().code_point;
        for (unsigned byte = 0; byte < 256; ++byte) {
            if (cps[byte] == cp) return static_cast<int>(byte);
        }
    }
    return -1;
}

} // namespace octo
