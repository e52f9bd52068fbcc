// Constrained decoding for one run: a GBNF grammar (RunSpec::grammar) turned into a token mask at
// every step (engine/grammar: GrammarMatcher for where the text stands, GrammarMask for which
// tokens may come next), and what that mask did to the model's choice — the lens on the
// constraint: the probability it removed, the most probable tokens it removed and, with DLA,
// which heads pushed toward the first of them.
//
// Tokens are matched by the text they write: a control token writes none and is never allowed,
// except the end-of-generation tokens, allowed exactly when the text so far is a whole sentence.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"
#include "engine/generation/constraint_step.h"
#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/grammar_mask.h"
#include "engine/grammar/grammar_matcher.h"
#include "engine/sampling/logprobs.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

class GrammarConstraint {
public:
    // Parses `gbnf` (InvalidArgument with its line when malformed) and sorts the vocabulary's
    // tokens into a byte trie for the mask (or takes both from the cache below).
    static Result<std::unique_ptr<GrammarConstraint>> create(std::string_view gbnf, const Tokenizer& tokenizer);

    // Sets every forbidden token's logit in `masked` (a copy of `logits`) to -inf and measures the
    // step in `step` (all but removed_dla); `lse` is log_sum_exp(logits) (logprobs.h).
    // InvalidArgument when the grammar allows no token of this vocabulary here and the text may
    // not end.
    Status apply(std::span<const float> logits, double lse, std::vector<float>& masked, ConstraintStep& step);
    // The chosen token: the text moves on by its bytes (an end-of-generation token moves nothing).
    void accept(int32_t token);
    // The text so far is a whole sentence and nothing may follow it.
    bool finished() const { return matcher_.finished(); }
    // Grammar positions whose tokens are sorted (GrammarMask), this run's and earlier runs'.
    size_t positions_sorted() const;

    // The sorted masks of the last few (grammar, vocabulary) pairs are kept for the runs after:
    // a server answering one schema many times sorts its positions once.
    static constexpr size_t kCachedGrammars = 4;
    struct Shared; // the grammar, the tokens' texts and their mask (grammar_constraint.cpp)

private:
    GrammarConstraint(std::shared_ptr<Shared> shared, const Tokenizer& tokenizer);

    const Tokenizer* tokenizer_;
    std::shared_ptr<Shared> shared_;
    std::vector<int32_t> eog_; // the end-of-generation tokens
    GrammarMatcher matcher_;
    std::vector<uint64_t> bits_; // this step's mask, a bit per token
};

} // namespace octo
