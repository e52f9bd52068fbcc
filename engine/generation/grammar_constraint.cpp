#include "engine/generation/grammar_constraint.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace octo {

Result<std::unique_ptr<GrammarConstraint>> GrammarConstraint::create(std::string_view gbnf, const Tokenizer& tokenizer) {
    auto grammar = Grammar::parse(gbnf);
    if (!grammar) return grammar.error();
    return std::unique_ptr<GrammarConstraint>(
        new GrammarConstraint(std::make_unique<Grammar>(std::move(grammar.value())), tokenizer));
}

namespace {

std::vector<std::string> token_texts(const Tokenizer& tokenizer) {
    std::vector<std::string> texts(static_cast<size_t>(tokenizer.n_tokens()));
    for (int32_t id = 0; id < tokenizer.n_tokens(); ++id) {
        const TokenType type = tokenizer.vocab().type(id);
        const bool writes_text = type != TokenType::Control && type != TokenType::Unknown && type != TokenType::Unused;
        if (writes_text && !tokenizer.is_eog(id)) texts[static_cast<size_t>(id)] = tokenizer.token_bytes(id);
    }
    return texts;
}

} // namespace

GrammarConstraint::GrammarConstraint(std::unique_ptr<Grammar> grammar, const Tokenizer& tokenizer)
    : tokenizer_(&tokenizer), grammar_(std::move(grammar)), texts_(token_texts(tokenizer)), matcher_(*grammar_),
      mask_(*grammar_, texts_) {
    for (int32_t id = 0; id < tokenizer.n_tokens(); ++id) {
        if (tokenizer.is_eog(id)) eog_.push_back(id);
    }
}

Status GrammarConstraint::apply(std::span<const float> logits, std::vector<float>& masked, ConstraintStep& step) {
    const auto start = std::chrono::steady_clock::now();
    mask_.allowed(matcher_, allowed_);
    const bool can_end = matcher_.can_end();
    for (int32_t id : eog_) allowed_[static_cast<size_t>(id)] = can_end ? 1 : 0;
    step.mask_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    // One pass: the mask applied, and the forbidden mass measured (exponentials in double, in id
    // order, as logprobs.h, so the figure is the same on every run).
    masked.assign(logits.begin(), logits.end());
    float max_logit = -std::numeric_limits<float>::infinity();
    for (float x : logits) max_logit = std::max(max_logit, x);
    double total = 0.0, removed = 0.0;
    bool any = false;
    for (size_t i = 0; i < masked.size(); ++i) {
        const double p = std::isinf(max_logit) ? 0.0 : std::exp(static_cast<double>(logits[i]) - static_cast<double>(max_logit));
        total += p;
        if (i < allowed_.size() && allowed_[i]) {
            any = true;
        } else {
            removed += p;
            masked[i] = -std::numeric_limits<float>::infinity();
        }
    }
    if (!any) return make_error(ErrorCode::InvalidArgument, "the grammar allows no token of this vocabulary here");
    step.removed_mass = total > 0.0 ? removed / total : 0.0;

    // The most probable forbidden tokens (ties by ascending id).
    step.removed.clear();
    const double lse = std::isinf(max_logit) ? static_cast<double>(max_logit) : static_cast<double>(max_logit) + std::log(total);
    std::vector<int32_t> top;
    for (size_t i = 0; i < logits.size(); ++i) {
        if (i < allowed_.size() && allowed_[i]) continue;
        const auto id = static_cast<int32_t>(i);
        const auto better = [&](int32_t a, int32_t b) {
            const float la = logits[static_cast<size_t>(a)], lb = logits[static_cast<size_t>(b)];
            return la != lb ? la > lb : a < b;
        };
        if (top.size() < 5) {
            top.insert(std::upper_bound(top.begin(), top.end(), id, better), id);
        } else if (better(id, top.back())) {
            top.pop_back();
            top.insert(std::upper_bound(top.begin(), top.end(), id, better), id);
        }
    }
    for (int32_t id : top) step.removed.push_back({id, static_cast<double>(logits[static_cast<size_t>(id)]) - lse});
    return Ok{};
}

void GrammarConstraint::accept(int32_t token) {
    if (tokenizer_->is_eog(token)) return;
    matcher_.advance(texts_[static_cast<size_t>(token)]);
}

} // namespace octo
