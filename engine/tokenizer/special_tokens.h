// Special-token partitioning: before a text is tokenized, occurrences of special
// token texts are cut out and emitted as those tokens directly.
//
// Rules (llama.cpp's tokenizer_st_partition):
//  - candidates are the tokens typed Control, UserDefined or Unknown, tried longest
//    text first (ties: lower id first);
//  - Control and Unknown tokens are matched only when parse_special is true;
//    UserDefined tokens are always matched (as Hugging Face does for added tokens);
//  - each candidate in turn splits every remaining text fragment at each of its
//    occurrences, left to right.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/tokenizer/vocab.h"

namespace octo {

// A piece of the input: either a special token or a run of text to tokenize.
struct Fragment {
    int32_t token = -1;   // special token id, or -1 for text
    size_t offset = 0;    // text: byte range in the input
    size_t length = 0;
};

// Special-token ids of `vocab` in matching order.
std::vector<int32_t> special_tokens_by_length(const Vocab& vocab);

std::vector<Fragment> partition_special_tokens(std::string_view text, const Vocab& vocab,
                                               const std::vector<int32_t>& specials,
                                               bool parse_special);

} // namespace octo
