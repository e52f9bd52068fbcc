// GPT-2 byte-level encoding: every byte 0..255 is given a printable code point so
// that byte-level BPE vocabularies can be stored as text.
//
// Rule (from GPT-2's `bytes_to_unicode`): the bytes '!'..'~', 0xA1..0xAC and
// 0xAE..0xFF map to the code point of the same value; the remaining 68 bytes
// (controls, space, DEL, 0x80..0xA0, soft hyphen 0xAD) map, in increasing byte
// order, to U+0100, U+0101, ... So ' ' becomes 'Ġ' (U+0120) and '\n' becomes 'Ċ'.
#pragma once

#include <cstdint>
#include <string>

namespace octo {

// UTF-8 text of the code point that stands for `byte`.
const std::string& byte_to_symbol(uint8_t byte);

// The byte that code point `cp` stands for, or -1 when `cp` is not a byte symbol.
int symbol_to_byte(uint32_t cp);

} // namespace octo
