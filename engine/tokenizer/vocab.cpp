#include "engine/tokenizer/vocab.h"

#include <unordered_map>
#include <utility>
#include <unordered_set>

#include "engine/tokenizer/pretokenizer_rules.h"

namespace octo {

namespace {

Error tokenizer_error(std::string message) {
    return make_error(ErrorCode::Tokenizer, std::move(message));
}

std::string quoted(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out += text;
    out += '\'';
    return out;
}

Status validate_arrays(const Vocab& vocab) {
    if (vocab.tokens.empty()) return tokenizer_error("tokenizer.ggml.tokens is empty");
    const size_t n = vocab.tokens.size();
    if (!vocab.scores.empty() && vocab.scores.size() != n) {
        return tokenizer_error("tokenizer.ggml.scores has " + std::to_string(vocab.scores.size()) +
                               " entries but tokenizer.ggml.tokens has " + std::to_string(n));
    }
    if (!vocab.types.empty() && vocab.types.size() != n) {
        return tokenizer_error("tokenizer.ggml.token_type has " +
                               std::to_string(vocab.types.size()) +
                               " entries but tokenizer.ggml.tokens has " + std::to_string(n));
    }
    for (size_t id = 0; id < vocab.types.size(); ++id) {
        const auto type = static_cast<int32_t>(vocab.types[id]);
        if (type < 0 || type > static_cast<int32_t>(TokenType::Byte)) {
            return tokenizer_error("tokenizer.ggml.token_type of token " + std::to_string(id) +
                                   " is " + std::to_string(type) + " (expected 0..6)");
        }
    }
    std::unordered_map<std::string_view, size_t> seen;
    for (size_t id = 0; id < n; ++id) {
        const std::string& text = vocab.tokens[id];
        if (text.empty()) return tokenizer_error("token " + std::to_string(id) + " is empty");
        const auto [it, inserted] = seen.emplace(text, id);
        if (!inserted) {
            return tokenizer_error("duplicate token " + quoted(text) + " (ids " +
                                   std::to_string(it->second) + " and " + std::to_string(id) +
                                   ")");
        }
    }
    return Ok{};
}

Status validate_special_ids(const Vocab& vocab) {
    for (const auto& [key, member] : special_token_keys()) {
        const int32_t id = vocab.*member;
        if (id < -1 || id >= vocab.size()) {
            return tokenizer_error(std::string(key) + " = " + std::to_string(id) +
                                   " is out of range (vocab has " +
                                   std::to_string(vocab.size()) + " tokens)");
        }
    }
    for (const int32_t id : vocab.eog_ids) {
        if (id < 0 || id >= vocab.size()) {
            return tokenizer_error("end-of-generation token id " + std::to_string(id) +
                                   " is out of range (vocab has " +
                                   std::to_string(vocab.size()) + " tokens)");
        }
    }
    if (vocab.add_bos && vocab.bos_id < 0) {
        return tokenizer_error(
            "tokenizer.ggml.add_bos_token is true but tokenizer.ggml.bos_token_id is not set");
    }
    if (vocab.add_eos && vocab.eos_id < 0) {
        return tokenizer_error(
            "tokenizer.ggml.add_eos_token is true but tokenizer.ggml.eos_token_id is not set");
    }
    return Ok{};
}

// A merge is "left right": split at the first space after the first byte (a left
// part may itself start with a space), both parts must be tokens.
Status validate_merges(const Vocab& vocab) {
    std::unordered_set<std::string_view> texts(vocab.tokens.begin(), vocab.tokens.end());
    for (size_t i = 0; i < vocab.merges.size(); ++i) {
        const std::string_view merge = vocab.merges[i];
        const size_t space = merge.size() > 1 ? merge.find(' ', 1) : std::string_view::npos;
        if (space == std::string_view::npos) {
            return tokenizer_error("merge " + std::to_string(i) + " " + quoted(merge) +
                                   " is not of the form 'left right'");
        }
        for (const std::string_view part : {merge.substr(0, space), merge.substr(space + 1)}) {
            if (!texts.contains(part)) {
                return tokenizer_error("merge " + std::to_string(i) + " " + quoted(merge) +
                                       " names unknown token " + quoted(part));
            }
        }
    }
    return Ok{};
}

} // namespace

const std::vector<SpecialTokenKey>& special_token_keys() {
    static const std::vector<SpecialTokenKey> keys = {
        {"tokenizer.ggml.bos_token_id", &Vocab::bos_id},
        {"tokenizer.ggml.eos_token_id", &Vocab::eos_id},
        {"tokenizer.ggml.eot_token_id", &Vocab::eot_id},
        {"tokenizer.ggml.eom_token_id", &Vocab::eom_id},
        {"tokenizer.ggml.unknown_token_id", &Vocab::unk_id},
        {"tokenizer.ggml.seperator_token_id", &Vocab::sep_id}, // sic: GGUF spelling
        {"tokenizer.ggml.padding_token_id", &Vocab::pad_id},
        {"tokenizer.ggml.mask_token_id", &Vocab::mask_id},
        {"tokenizer.ggml.fim_pre_token_id", &Vocab::fim_pre_id},
        {"tokenizer.ggml.fim_suf_token_id", &Vocab::fim_suf_id},
        {"tokenizer.ggml.fim_mid_token_id", &Vocab::fim_mid_id},
        {"tokenizer.ggml.fim_pad_token_id", &Vocab::fim_pad_id},
        {"tokenizer.ggml.fim_rep_token_id", &Vocab::fim_rep_id},
        {"tokenizer.ggml.fim_sep_token_id", &Vocab::fim_sep_id},
        // Older names of the FIM keys.
        {"tokenizer.ggml.prefix_token_id", &Vocab::fim_pre_id},
        {"tokenizer.ggml.suffix_token_id", &Vocab::fim_suf_id},
        {"tokenizer.ggml.middle_token_id", &Vocab::fim_mid_id},
    };
    return keys;
}

void set_default_flags(Vocab& vocab) {
    if (vocab.model == kModelSpm) {
        vocab.add_bos = true;
        vocab.add_eos = false;
        vocab.add_space_prefix = true;
    } else {
        const PreTokenizerRules* rules = find_pretokenizer_rules(vocab.pre);
        vocab.add_bos = rules && rules->add_bos;
        vocab.add_eos = false;
        vocab.add_space_prefix = false;
    }
}

Status check_tokenizer_model(std::string_view model) {
    if (model == kModelSpm || model == kModelBpe) return Ok{};
    // Tokenizer types llama.cpp knows and Octoscope does not implement.
    static constexpr std::pair<std::string_view, std::string_view> kKnown[] = {
        {"bert", "WordPiece, as in BERT"},
        {"t5", "SentencePiece Unigram, as in T5"},
        {"rwkv", "RWKV's greedy trie tokenizer"},
        {"plamo2", "PLaMo 2's tokenizer"},
        {"no_vocab", "no vocabulary"},
        {"none", "no vocabulary"},
    };
    constexpr std::string_view kSupported =
        "Octoscope tokenizes only 'llama' (SentencePiece-style BPE) and 'gpt2' (byte-level BPE) vocabularies";
    for (const auto& [name, what] : kKnown) {
        if (model != name) continue;
        return tokenizer_error("cannot tokenize with this file's vocabulary: tokenizer.ggml.model is " + quoted(model) +
                               " (" + std::string(what) + "); " + std::string(kSupported));
    }
    return tokenizer_error("cannot tokenize with this file's vocabulary: tokenizer.ggml.model " + quoted(model) +
                           " is not a tokenizer type Octoscope knows; " + std::string(kSupported));
}

Status validate_vocab(const Vocab& vocab) {
    if (auto status = check_tokenizer_model(vocab.model); !status) return status;
    if (auto status = validate_arrays(vocab); !status) return status;
    if (auto status = validate_special_ids(vocab); !status) return status;
    return validate_merges(vocab);
}

} // namespace octo
