// Pre-tokenizer rules of byte-level BPE vocabularies, selected by `tokenizer.ggml.pre`.
//
// A rule set is an ordered list of regular expressions. The text starts as one
// piece; each expression in turn splits every piece into the spans it matches and
// the spans between matches (both kept). The final pieces are then BPE-encoded one
// by one. Expressions use PCRE syntax, with `\s` meaning exactly the whitespace of
// the reference tokenizer (see pretokenizer.h).
#pragma once

#include <string_view>
#include <vector>

namespace octo {

struct PreTokenizerRules {
    std::string_view name;                  // canonical name
    std::vector<std::string_view> patterns; // applied in order
    bool ignore_merges = false; // a piece that is itself a token is emitted whole
    bool add_bos = false;       // default of tokenizer.ggml.add_bos_token
};

// Rules for a `tokenizer.ggml.pre` value ("" means "default"); nullptr when unknown.
const PreTokenizerRules* find_pretokenizer_rules(std::string_view pre);

// The rules a vocabulary with an unknown `tokenizer.ggml.pre` value is split with:
// "default", the rules llama.cpp uses when the key is absent. (llama.cpp refuses unknown
// values; the tokenizer loads them with a logged warning, see BpeTokenizer::create.)
const PreTokenizerRules& fallback_pretokenizer_rules();

// Every accepted `tokenizer.ggml.pre` value, for error messages and docs.
std::vector<std::string_view> known_pretokenizer_names();

} // namespace octo
