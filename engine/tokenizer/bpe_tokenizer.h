// Byte-level BPE tokenizer ("gpt2" vocabularies), as llama.cpp runs it.
//
//  1. The pre-tokenizer splits the text into words (see pretokenizer.h), by the rules
//     `tokenizer.ggml.pre` selects (pretokenizer_rules.h). An unknown value is split by
//     the fallback rules ("default"), with a logged warning naming them.
//  2. Each word's bytes are written with the GPT-2 byte symbols (byte_encoding.h).
//  3. With ignore_merges (Llama 3 family), a word that is itself a token is
//     emitted whole.
//  4. Otherwise the word starts as one symbol per byte symbol; adjacent pairs
//     listed in the merges are queued by merge rank; the best pair (lowest rank,
//     then leftmost) is merged, its new neighbours are queued, and so on.
//  5. Each final symbol is emitted as its token; a symbol that is not a token
//     (possible only with inconsistent vocabs) falls back to the tokens of its
//     single bytes, silently skipping bytes without one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/core/result.h"
#include "engine/tokenizer/pretokenizer.h"
#include "engine/tokenizer/token_lookup.h"
#include "engine/tokenizer/vocab.h"

namespace octo {

class BpeTokenizer {
public:
    // `vocab` must have passed validate_vocab(). An unknown `vocab.pre` is not an error:
    // the fallback rules are used and a warning is logged (engine/core/log.h).
    static Result<BpeTokenizer> create(const Vocab& vocab);

    // Canonical name of the pre-tokenizer rules in use ("llama-bpe" for "llama3", ...).
    std::string_view rules_name() const { return rules_name_; }
    // True when `vocab.pre` was unknown and the fallback rules are used instead.
    bool rules_are_fallback() const { return rules_are_fallback_; }

    // Appends the tokens of `text` to `out`.
    Status encode(const TokenLookup& lookup, std::string_view text,
                  std::vector<int32_t>& out) const;

private:
    int32_t rank(const std::string& left, const std::string& right) const;
    void encode_word(const TokenLookup& lookup, const std::string& word,
                     std::vector<int32_t>& out) const;

    PreTokenizer pre_;
    std::string_view rules_name_;
    bool rules_are_fallback_ = false;
    bool ignore_merges_ = false;
    // (left, right) -> rank (index in tokenizer.ggml.merges); the first listing wins.
    std::shared_ptr<const std::unordered_map<std::string, int32_t>> ranks_;
};

} // namespace octo
