// Text <-> token ids for the vocabularies of GGUF models ("llama" SentencePiece-
// style and "gpt2" byte-level BPE), matching llama.cpp's tokenizer id for id.
//
// Encoding: special tokens are cut out first (special_tokens.h), then each text
// fragment is encoded by the model's tokenizer (spm_tokenizer.h / bpe_tokenizer.h).
// For "llama" vocabs with add_space_prefix, a space is prepended to the first
// fragment and to every fragment that follows a special token.
//
// Decoding concatenates token_bytes(); see decode().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"
#include "engine/tokenizer/vocab.h"

namespace octo {

class Tokenizer {
public:
    // Validates `vocab` (validate_vocab()) and prepares the tokenizer. An unknown
    // tokenizer.ggml.pre is split by the fallback rules, with a logged warning.
    static Result<Tokenizer> create(Vocab vocab);

    // add_special: add BOS / EOS as the vocab's add_bos / add_eos say.
    // parse_special: match Control and Unknown token texts in `text` (UserDefined
    // tokens are always matched). Fails only for "llama" vocabs without byte
    // fallback when a character has no token.
    Result<std::vector<int32_t>> encode(std::string_view text, bool add_special,
                                        bool parse_special) const;

    // The bytes `id` stands for (token_pieces.h); empty for an id out of range.
    const std::string& token_bytes(int32_t id) const;
    // The token's text as stored in the vocab; empty for an id out of range.
    const std::string& token_text(int32_t id) const;

    // Concatenated token_bytes(). Control and Unknown tokens are skipped unless
    // render_special; ids out of range are skipped. For "llama" vocabs with
    // add_space_prefix, the one space encode() prepended is removed from the first
    // piece. So decode(encode(text, add_special, false)) == text for valid UTF-8
    // without special-token texts or a literal U+2581 ("llama" reads it as a
    // space), provided the vocab can represent it. The result may end inside a
    // UTF-8 sequence when the ids do.
    std::string decode(std::span<const int32_t> ids, bool render_special = false) const;

    // Token id of the exact text `text`, or -1.
    int32_t find_token(std::string_view text) const;

    // "gpt2" vocabs: the canonical name of the pre-tokenizer rules in use ("" for
    // "llama"), and whether they are the fallback for an unknown tokenizer.ggml.pre
    // (create() then logged a warning naming them).
    std::string_view pretokenizer_rules() const;
    bool pretokenizer_is_fallback() const;

    bool is_eog(int32_t id) const;
    bool is_control(int32_t id) const;

    int32_t n_tokens() const { return vocab().size(); }
    const Vocab& vocab() const;

private:
    struct State;
    std::shared_ptr<const State> state_;
};

// Whether two tokenizers have the same tokens (ids then mean the same text): two files of one
// model, whose token ids can be compared directly.
bool same_vocabulary(const Tokenizer& a, const Tokenizer& b);

} // namespace octo
