#include "engine/generation/grammar_constraint.h"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>

namespace octo {

namespace {

bool writes_text(const Tokenizer& tokenizer, int32_t id) {
    const TokenType type = tokenizer.vocab().type(id);
    return type != TokenType::Control && type != TokenType::Unknown && type != TokenType::Unused && !tokenizer.is_eog(id);
}

// FNV-1a over every token's text: which vocabulary a cached mask was sorted for.
uint64_t vocabulary_digest(const Tokenizer& tokenizer) {
    uint64_t h = 14695981039346656037ULL;
    const auto mix = [&](unsigned char c) {
        h ^= c;
        h *= 1099511628211ULL;
    };
    for (int32_t id = 0; id < tokenizer.n_tokens(); ++id) {
        if (writes_text(tokenizer, id)) {
            for (const char c : tokenizer.token_bytes(id)) mix(static_cast<unsigned char>(c));
        }
        mix(0xFF); // not a UTF-8 byte: separates the tokens
    }
    return h;
}

} // namespace

struct GrammarConstraint::Shared {
    std::string gbnf;
    uint64_t vocabulary = 0;
    std::unique_ptr<Grammar> grammar;
    std::vector<std::string> texts; // [n_vocab] the text each token writes (empty: none)
    std::unique_ptr<GrammarMask> mask;
    std::mutex mutex; // the mask sorts lazily: one step at a time
};

Result<std::unique_ptr<GrammarConstraint>> GrammarConstraint::create(std::string_view gbnf, const Tokenizer& tokenizer) {
    static std::mutex cache_mutex;
    static std::deque<std::shared_ptr<Shared>> cache; // most recent first
    const uint64_t vocabulary = vocabulary_digest(tokenizer);
    std::shared_ptr<Shared> shared;
    {
        const std::lock_guard lock(cache_mutex);
        for (auto it = cache.begin(); it != cache.end(); ++it) {
            if ((*it)->vocabulary == vocabulary && (*it)->gbnf == gbnf) {
                shared = *it;
                cache.erase(it);
                cache.push_front(shared);
                break;
            }
        }
    }
    if (!shared) {
        auto grammar = Grammar::parse(gbnf);
        if (!grammar) return grammar.error();
        shared = std::make_shared<Shared>();
        shared->gbnf = std::string(gbnf);
        shared->vocabulary = vocabulary;
        shared->grammar = std::make_unique<Grammar>(std::move(grammar.value()));
        shared->texts.resize(static_cast<size_t>(tokenizer.n_tokens()));
        for (int32_t id = 0; id < tokenizer.n_tokens(); ++id) {
            if (writes_text(tokenizer, id)) shared->texts[static_cast<size_t>(id)] = tokenizer.token_bytes(id);
        }
        shared->mask = std::make_unique<GrammarMask>(*shared->grammar, shared->texts);
        const std::lock_guard lock(cache_mutex);
        cache.push_front(shared);
        if (cache.size() > kCachedGrammars) cache.pop_back();
    }
    return std::unique_ptr<GrammarConstraint>(new GrammarConstraint(std::move(shared), tokenizer));
}

GrammarConstraint::GrammarConstraint(std::shared_ptr<Shared> shared, const Tokenizer& tokenizer)
    : tokenizer_(&tokenizer), shared_(std::move(shared)), matcher_(*shared_->grammar) {
    for (int32_t id = 0; id < tokenizer.n_tokens(); ++id) {
        if (tokenizer.is_eog(id)) eog_.push_back(id);
    }
}

size_t GrammarConstraint::positions_sorted() const {
    const std::lock_guard lock(shared_->mutex);
    return shared_->mask->positions_cached();
}

Status GrammarConstraint::apply(std::span<const float> logits, double lse, std::vector<float>& masked, ConstraintStep& step) {
    const auto start = std::chrono::steady_clock::now();
    {
        const std::lock_guard lock(shared_->mutex);
        shared_->mask->allowed_bits(matcher_, bits_);
    }
    const bool can_end = matcher_.can_end();
    for (int32_t id : eog_) {
        const auto i = static_cast<size_t>(id);
        if (can_end) {
            bits_[i / 64] |= uint64_t{1} << (i % 64);
        } else {
            bits_[i / 64] &= ~(uint64_t{1} << (i % 64));
        }
    }
    step.mask_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    const size_t n = logits.size();
    size_t n_allowed = 0;
    for (const uint64_t w : bits_) n_allowed += static_cast<size_t>(std::popcount(w));
    if (n_allowed == 0) return make_error(ErrorCode::InvalidArgument, "the grammar allows no token of this vocabulary here");
    // Calls f(id) for every allowed (wanted = true) or forbidden token, in id order.
    const auto for_each = [&](bool wanted, auto&& f) {
        for (size_t w = 0; w < bits_.size(); ++w) {
            uint64_t word = wanted ? bits_[w] : ~bits_[w];
            if (w + 1 == bits_.size() && n % 64 != 0) word &= (uint64_t{1} << (n % 64)) - 1;
            while (word != 0) {
                f(w * 64 + static_cast<size_t>(std::countr_zero(word)));
                word &= word - 1;
            }
        }
    };
    masked.assign(logits.begin(), logits.end());
    for_each(false, [&](size_t i) { masked[i] = -std::numeric_limits<float>::infinity(); });

    // The forbidden mass from the smaller side (exponentials in double, in id order: the same
    // figure on every run).
    const bool finite = std::isfinite(lse);
    double mass = 0.0;
    const bool sum_allowed = n_allowed <= n / 2;
    if (finite) {
        for_each(sum_allowed, [&](size_t i) { mass += std::exp(static_cast<double>(logits[i]) - lse); });
    }
    step.removed_mass = !finite ? 0.0 : sum_allowed ? std::clamp(1.0 - mass, 0.0, 1.0) : std::min(mass, 1.0);

    // The most probable forbidden tokens (ties by ascending id).
    std::array<int32_t, 5> top{};
    size_t n_top = 0;
    const auto better = [&](int32_t a, int32_t b) {
        const float la = logits[static_cast<size_t>(a)], lb = logits[static_cast<size_t>(b)];
        return la != lb ? la > lb : a < b;
    };
    for_each(false, [&](size_t i) {
        const auto id = static_cast<int32_t>(i);
        if (n_top == top.size() && !better(id, top[n_top - 1])) return;
        size_t at = n_top < top.size() ? n_top++ : n_top - 1;
        while (at > 0 && better(id, top[at - 1])) {
            top[at] = top[at - 1];
            --at;
        }
        top[at] = id;
    });
    step.removed.clear();
    for (size_t k = 0; k < n_top; ++k) step.removed.push_back({top[k], static_cast<double>(logits[static_cast<size_t>(top[k])]) - lse});
    return Ok{};
}

void GrammarConstraint::accept(int32_t token) {
    if (tokenizer_->is_eog(token)) return;
    matcher_.advance(shared_->texts[static_cast<size_t>(token)]);
}

} // namespace octo
