// The bytes each token stands for when text is reconstructed from tokens.
//
//  - Control, Unknown and UserDefined tokens: their text as stored.
//  - Byte tokens <0xNN>: the single byte 0xNN.
//  - Normal tokens of "llama" vocabs: the text with U+2581 '▁' turned into ' '.
//  - Normal tokens of "gpt2" vocabs: each code point mapped back through the GPT-2
//    byte symbols (byte_encoding.h); a code point that is no byte symbol is kept
//    as its UTF-8.
//  - Unused and Undefined tokens: nothing.
#pragma once

#include <string>
#include <vector>

#include "engine/tokenizer/vocab.h"

namespace octo {

std::vector<std::string> token_pieces(const Vocab& vocab);

} // namespace octo
