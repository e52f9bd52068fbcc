// SentencePiece-style tokenizer ("llama" vocabularies), as llama.cpp runs it.
//
//  1. Spaces become U+2581 '▁' (after prepending one space when asked to).
//  2. The text is cut into characters by UTF-8 lead byte (malformed bytes are kept
//     inside whatever "character" their lead byte announces).
//  3. Adjacent pairs whose concatenation is a token are queued by that token's
//     score; the best pair (highest score, then leftmost) is merged, its new
//     neighbours are queued, and so on until no pair forms a token.
//  4. Each final symbol is emitted as its token or, failing that, byte by byte as
//     the <0xNN> tokens (or, if a vocab has no <0xNN>, the one-byte token).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/core/result.h"
#include "engine/tokenizer/token_lookup.h"
#include "engine/tokenizer/vocab.h"

namespace octo {

// Appends the tokens of `text` to `out`; fails only when a byte has no token.
Status spm_encode(const Vocab& vocab, const TokenLookup& lookup, std::string_view text,
                  bool prefix_space, std::vector<int32_t>& out);

} // namespace octo
