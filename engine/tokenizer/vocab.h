// Tokenizer vocabulary as stored in GGUF metadata (`tokenizer.ggml.*`).
//
// A Vocab is plain data: it can be read from a GGUF file with vocab_from_gguf() or
// built by hand (tests do). validate_vocab() checks it; Tokenizer::create() refuses
// a Vocab that does not validate.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"

namespace octo {

class GgufFile;

// GGUF `tokenizer.ggml.token_type` values (llama.cpp's llama_token_type).
enum class TokenType : int32_t {
    Undefined = 0,
    Normal = 1,
    Unknown = 2,     // <unk>
    Control = 3,     // <s>, </s>, <|im_end|> ...: only matched in text when asked to
    UserDefined = 4, // added tokens: always matched in text, never split
    Unused = 5,
    Byte = 6,        // <0xNN> byte-fallback tokens
};

inline constexpr std::string_view kModelSpm = "llama"; // SentencePiece-style BPE by scores
inline constexpr std::string_view kModelBpe = "gpt2";  // byte-level BPE by merge ranks

struct Vocab {
    std::string model; // tokenizer.ggml.model
    std::string pre;   // tokenizer.ggml.pre ("" when absent; only used by "gpt2")

    std::vector<std::string> tokens;  // id -> token text, as stored (▁ / Ġ forms)
    std::vector<float> scores;        // empty (all 0) or one per token
    std::vector<TokenType> types;     // empty (all Normal) or one per token
    std::vector<std::string> merges;  // "left right", highest priority first ("gpt2")

    // Special token ids, -1 when absent. (vocab_from_gguf() gives "llama" vocabs
    // llama.cpp's defaults unk = 0, bos = 1, eos = 2 when those keys are absent.)
    int32_t bos_id = -1;
    int32_t eos_id = -1;
    int32_t eot_id = -1;
    int32_t eom_id = -1;
    int32_t unk_id = -1;
    int32_t sep_id = -1;
    int32_t pad_id = -1;
    int32_t mask_id = -1;
    int32_t fim_pre_id = -1;
    int32_t fim_suf_id = -1;
    int32_t fim_mid_id = -1;
    int32_t fim_pad_id = -1;
    int32_t fim_rep_id = -1;
    int32_t fim_sep_id = -1;

    bool add_bos = false;          // prepend BOS when encoding with add_special
    bool add_eos = false;          // append EOS when encoding with add_special
    bool add_space_prefix = false; // "llama" only: a space is prepended to the text

    // Tokens that end generation (sorted, unique). See detect_special_tokens().
    std::vector<int32_t> eog_ids;

    int32_t size() const { return static_cast<int32_t>(tokens.size()); }
    TokenType type(int32_t id) const { return types.empty() ? TokenType::Normal : types[id]; }
    float score(int32_t id) const { return scores.empty() ? 0.0f : scores[id]; }
};

// One special-id field and the GGUF key it is read from.
struct SpecialTokenKey {
    std::string_view key;
    int32_t Vocab::*id;
};
const std::vector<SpecialTokenKey>& special_token_keys();

// Sets the flags llama.cpp assumes when the GGUF keys are absent:
//   "llama": add_bos = true, add_eos = false, add_space_prefix = true;
//   "gpt2":  add_bos = true only for the Llama-3 family of pre-tokenizers, else false;
//            add_eos = false, add_space_prefix = false.
void set_default_flags(Vocab& vocab);

// Completes the special tokens the way llama.cpp does, from token texts:
//  - an unset EOT / EOM / FIM id is taken from a well-known text (<|eot_id|>,
//    <|im_end|>, <|end|>, <end_of_turn>, <|endoftext|>, <|fim_prefix|>, ...);
//    the lowest id wins when several match;
//  - eog_ids = EOS, EOT, EOM, FIM pad/repo/file-separator, and every token whose text
//    is a known end-of-turn marker (<|im_end|>, <|eot_id|>, <|endoftext|>, </s>, ...);
//  - every token found this way is typed Control, so it is never matched in plain text.
// Ids already set are kept. Ids out of range are left for validate_vocab() to report.
void detect_special_tokens(Vocab& vocab);

// Ok when `model` (tokenizer.ggml.model) is a tokenizer type the engine can run ("llama"
// or "gpt2"); otherwise an ErrorCode::Tokenizer error that names the type, says what it
// is when llama.cpp knows it (bert: WordPiece, t5: Unigram, rwkv, plamo2, none: no
// vocabulary) and lists the supported types.
Status check_tokenizer_model(std::string_view model);

// Checks that the vocab can drive a tokenizer; errors are ErrorCode::Tokenizer and
// name the offending key, id, token or merge. An unknown `pre` is not an error (the
// tokenizer falls back to the "default" rules with a logged warning, bpe_tokenizer.h).
Status validate_vocab(const Vocab& vocab);

// Reads `tokenizer.ggml.*` (works on vocab-only files without tensors), applies the
// defaults above, detects special tokens and validates.
Result<Vocab> vocab_from_gguf(const GgufFile& file);

} // namespace octo
