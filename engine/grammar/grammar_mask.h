// The token mask of constrained decoding, fast enough for a 128k vocabulary at every step.
//
// GrammarMatcher::allowed() tries each token on its own: exact, but a JSON string position of a
// Llama 3 vocabulary costs ~128k trials a step. GrammarMask does the same work once per grammar
// position instead. For each position where a text can stand (a character set at the top of a
// matcher stack) it walks the vocabulary's byte trie from that position alone, without the stack
// below it, and sorts every token into
//   - accepted: the token is read inside the rule that position belongs to (or ends exactly at its
//     end): whatever stack lies below, it is allowed;
//   - context-dependent: the walk reached the end of that rule and went on reading, so what lies
//     below decides; these few (in a JSON string: the tokens that hold its closing quote) are
//     tried one by one on the whole matcher;
//   - rejected: everything else, in any context.
// A step's mask is the union over the matcher's stacks of their tops' accepted tokens and of the
// context-dependent ones that pass — the same answer as allowed(), which the tests check token by
// token. Positions are sorted lazily, the first time a matcher stands at them, and kept.
// (The idea is XGrammar's "adaptive token mask cache"; this is a plain implementation of it.)
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/grammar/grammar_matcher.h"

namespace octo {

class GrammarMask {
public:
    // `tokens[id]` is the text token `id` writes; an empty one (a control token, which writes no
    // text) is never allowed. The grammar must outlive the mask.
    GrammarMask(const Grammar& grammar, std::span<const std::string> tokens);

    // For each token, whether `matcher` accepts it next: matcher.allowed(tokens), faster.
    void allowed(const GrammarMatcher& matcher, std::vector<uint8_t>& out);
    // The same as a bit per token (bit id % 64 of word id / 64), the words past the last token 0.
    void allowed_bits(const GrammarMatcher& matcher, std::vector<uint64_t>& bits);

    // Grammar positions sorted so far, and the context-dependent tokens tried on the last call.
    size_t positions_cached() const { return entries_.size(); }
    size_t last_checked() const { return last_checked_; }

private:
    struct Node {
        uint32_t first_child = 0; // children are contiguous, in byte order
        uint32_t n_children = 0;
        uint32_t first = 0; // this subtree's tokens: order_[first, end)
        uint32_t end = 0;
        uint32_t n_here = 0; // the first n_here of them end at this node
        uint8_t byte = 0;
    };
    struct Entry {
        std::vector<uint64_t> accepted; // a bit per token
        std::vector<int32_t> dependent;
    };
    using Position = GrammarMatcher::Position;
    using Stack = GrammarMatcher::Stack;
    // A sort starts from a stack's top kKeyDepth positions (the whole stack when shorter): deep
    // enough that a short rule's end (a space, a comma) reads on into its caller instead of
    // leaving most tokens to the per-token check.
    static constexpr size_t kKeyDepth = 3;
    struct Walk; // the state of one sort (grammar_mask.cpp)

    void fill(uint32_t index, uint32_t first, uint32_t end, uint32_t depth);

    // The sorts' walks step sets of stacks, interned as states; each step is computed once.
    static constexpr uint32_t kNoState = UINT32_MAX; // no way on
    struct Transition {
        uint32_t state = kNoState;
        bool popped = false; // some way reached the end of the walk's bottom rule
    };
    uint32_t intern(std::vector<Stack> stacks);
    // From `state` by a whole character (`complete`) or by the first bytes of one.
    Transition step_state(uint32_t state, std::string_view bytes, bool complete);
    const Entry& entry(const Stack& key);

    const Grammar* grammar_;
    std::span<const std::string> tokens_;
    std::vector<int32_t> order_; // token ids sorted by their bytes
    std::vector<Node> nodes_;    // nodes_[0] is the root (the empty prefix)
    std::map<Stack, std::unique_ptr<Entry>> entries_;
    std::map<std::vector<Stack>, uint32_t> state_ids_;
    std::vector<const std::vector<Stack>*> states_; // by id, into state_ids_
    std::unordered_map<uint64_t, Transition> transitions_;
    GrammarMatcher local_; // for expand() in the walks: same grammar, its own stacks unused
    std::vector<uint64_t> bits_;
    std::vector<int32_t> check_;
    size_t last_checked_ = 0;
};

} // namespace octo
