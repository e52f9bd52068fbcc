// Where a text stands in a Grammar (gbnf_grammar.h), as constrained decoding needs it: which next
// bytes keep it inside the grammar, whether it may end here. The state is the set of ways the
// text so far can continue — stacks of positions in the grammar's sequences, each one's top at a
// character set, an empty stack meaning "the text may end" — advanced one code point at a time.
// Bytes that end inside a UTF-8 character wait for the rest (a token may hold half a character);
// only a valid prefix of a character may wait, and it is checked when it completes.
#pragma once

#include <compare>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/grammar/gbnf_grammar.h"

namespace octo {

class GrammarMatcher {
public:
    // At the start of the root rule. The grammar must outlive the matcher.
    explicit GrammarMatcher(const Grammar& grammar);

    // Whether `bytes` may come next (some way through the grammar survives them).
    bool accepts(std::string_view bytes) const;
    // Consumes `bytes`; false, with nothing changed, when the grammar does not allow them.
    bool advance(std::string_view bytes);
    // The text so far is a whole sentence of the grammar (no character left half-way).
    bool can_end() const;
    // Nothing but the end may follow.
    bool finished() const;

    // For each of `tokens` (their bytes), whether accepts() it: the sampler's mask. An empty token
    // is never allowed (it would not move the text).
    std::vector<uint8_t> allowed(std::span<const std::string> tokens) const;

    // A step may follow at most kMaxWays ways through the grammar; past that (a
    // hostile grammar: nested repetitions such as ((x+)+)+ double the ways at each level) the
    // matcher refuses the text rather than run out of memory (at its start: Grammar::parse refuses
    // the grammar; overflowed() is then true of a matcher made anyway).
    static constexpr size_t kMaxWays = 1024;
    bool overflowed() const { return overflowed_; }
    // How many times any matcher (or GrammarMask's walk) hit kMaxWays, process-wide (fuzzing).
    static uint64_t overflows();

private:
    friend class GrammarMask; // sorts tokens per grammar position (grammar_mask.h)

    struct Position {
        uint32_t rule = 0;
        uint32_t alternative = 0;
        uint32_t index = 0; // the symbol it stands before
        auto operator<=>(const Position&) const = default;
    };
    using Stack = std::vector<Position>;

    // `stack` with every rule reference at its top replaced by the starts of that rule's
    // alternatives, until each top is a character set (or the stack is empty), into `out`.
    // False (out incomplete) past kMaxWays.
    bool expand(Stack stack, std::vector<Stack>& out) const;
    bool step(char32_t c); // one code point; false (stacks empty) when nothing allows it
    void normalise();      // sorted, without duplicates

    const Grammar* grammar_;
    std::vector<Stack> stacks_;
    std::string pending_; // the first bytes of a character not yet complete
    bool overflowed_ = false;
};

} // namespace octo
