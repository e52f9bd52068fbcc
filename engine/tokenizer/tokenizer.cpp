#include "engine/tokenizer/tokenizer.h"

#include <algorithm>
#include <optional>

#include "engine/tokenizer/bpe_tokenizer.h"
#include "engine/tokenizer/special_tokens.h"
#include "engine/tokenizer/spm_tokenizer.h"
#include "engine/tokenizer/token_lookup.h"
#include "engine/tokenizer/token_pieces.h"

namespace octo {

struct Tokenizer::State {
    Vocab vocab;
    TokenLookup lookup;
    std::vector<std::string> pieces;
    std::vector<int32_t> specials; // in matching order
    std::optional<BpeTokenizer> bpe; // "gpt2" only

    explicit State(Vocab v)
        : vocab(std::move(v)), lookup(vocab), pieces(token_pieces(vocab)),
          specials(special_tokens_by_length(vocab)) {}
};

Result<Tokenizer> Tokenizer::create(Vocab vocab) {
    if (auto status = validate_vocab(vocab); !status) return status.error();
    std::sort(vocab.eog_ids.begin(), vocab.eog_ids.end()); // for is_eog()'s binary search
    vocab.eog_ids.erase(std::unique(vocab.eog_ids.begin(), vocab.eog_ids.end()),
                        vocab.eog_ids.end());
    auto state = std::make_shared<State>(std::move(vocab));
    if (state->vocab.model == kModelBpe) {
        auto bpe = BpeTokenizer::create(state->vocab);
        if (!bpe) return bpe.error();
        state->bpe = std::move(bpe.value());
    }
    Tokenizer tokenizer;
    tokenizer.state_ = std::move(state);
    return tokenizer;
}

Result<std::vector<int32_t>> Tokenizer::encode(std::string_view text, bool add_special,
                                               bool parse_special) const {
    const State& s = *state_;
    const Vocab& v = s.vocab;
    std::vector<int32_t> out;
    if (add_special && v.add_bos) out.push_back(v.bos_id);

    bool after_special = true; // the start of the text counts as following a special
    for (const Fragment& f : partition_special_tokens(text, v, s.specials, parse_special)) {
        if (f.token >= 0) {
            out.push_back(f.token);
            after_special = true;
            continue;
        }
        const std::string_view piece = text.substr(f.offset, f.length);
        const Status status = s.bpe ? s.bpe->encode(s.lookup, piece, out)
                                    : spm_encode(v, s.lookup, piece,
                                                 v.add_space_prefix && after_special, out);
        if (!status) return status.error();
        after_special = false;
    }

    if (add_special && v.add_eos) out.push_back(v.eos_id);
    return out;
}

const std::string& Tokenizer::token_bytes(int32_t id) const {
    static const std::string empty;
    return id >= 0 && id < n_tokens() ? state_->pieces[id] : empty;
}

const std::string& Tokenizer::token_text(int32_t id) const {
    static const std::string empty;
    return id >= 0 && id < n_tokens() ? state_->vocab.tokens[id] : empty;
}

std::string Tokenizer::decode(std::span<const int32_t> ids, bool render_special) const {
    const Vocab& v = state_->vocab;
    bool strip_space = v.model == kModelSpm && v.add_space_prefix;
    std::string out;
    for (const int32_t id : ids) {
        if (id < 0 || id >= n_tokens()) continue;
        const TokenType type = v.type(id);
        if (!render_special && (type == TokenType::Control || type == TokenType::Unknown)) {
            continue;
        }
        std::string_view piece = state_->pieces[id];
        if (strip_space && !piece.empty()) {
            if (piece.front() == ' ') piece.remove_prefix(1);
            strip_space = false;
        }
        out += piece;
    }
    return out;
}

int32_t Tokenizer::find_token(std::string_view text) const {
    return state_->lookup.find(std::string(text));
}

std::string_view Tokenizer::pretokenizer_rules() const {
    return state_->bpe ? state_->bpe->rules_name() : std::string_view();
}

bool Tokenizer::pretokenizer_is_fallback() const { return state_->bpe && state_->bpe->rules_are_fallback(); }

bool Tokenizer::is_eog(int32_t id) const {
    const auto& eog = state_->vocab.eog_ids;
    return std::binary_search(eog.begin(), eog.end(), id);
}

bool Tokenizer::is_control(int32_t id) const {
    return id >= 0 && id < n_tokens() && state_->vocab.type(id) == TokenType::Control;
}

const Vocab& Tokenizer::vocab() const { return state_->vocab; }

bool same_vocabulary(const Tokenizer& a, const Tokenizer& b) {
    if (a.n_tokens() != b.n_tokens()) return false;
    for (int32_t id = 0; id < a.n_tokens(); ++id) {
        if (a.token_bytes(id) != b.token_bytes(id)) return false;
    }
    return true;
}

} // namespace octo
