#include "engine/grammar/grammar_mask.h"

#include <algorithm>
#include <string_view>

#include "engine/grammar/utf8_prefix.h"

namespace octo {

namespace {

void set_bit(std::vector<uint64_t>& bits, size_t i) { bits[i / 64] |= uint64_t{1} << (i % 64); }
bool bit(const std::vector<uint64_t>& bits, size_t i) { return (bits[i / 64] >> (i % 64)) & 1U; }

} // namespace

// One sort of the vocabulary from one grammar position: a depth-first walk of the trie carrying
// the stacks above that position (the part of the matcher's state that position alone decides),
// as an interned state whose steps are remembered (GrammarMask::step_state).
struct GrammarMask::Walk {
    GrammarMask& mask;
    Entry& entry;

    // `state`: the ways on after the node's bytes (none empty). `popped`: some way reached the
    // end of the position's rule exactly at this node. `escaped`: some way reached it earlier and
    // had to read on, which only the stack below can say. `pending`: the first bytes of a character.
    void visit(const Node& node, uint32_t state, bool popped, bool escaped, std::string_view pending) {
        for (uint32_t k = 0; k < node.n_children; ++k) {
            const Node& child = mask.nodes_[node.first_child + k];
            char buffer[4];
            std::copy(pending.begin(), pending.end(), buffer);
            size_t length = pending.size();
            buffer[length++] = static_cast<char>(child.byte);
            const auto lead = static_cast<unsigned char>(buffer[0]);
            const size_t need = utf8_sequence_length(lead);
            if (need == 0) continue; // not a character start: nothing below it is text
            if (length == 2 && !utf8_second_byte_ok(lead, child.byte)) continue;
            if (length > 2 && (child.byte & 0xC0) != 0x80) continue;
            const std::string_view bytes(buffer, length);

            const bool child_escaped = escaped || popped;
            const bool complete = length == need;
            const Transition next = mask.step_state(state, bytes, complete);
            const bool child_popped = complete && next.popped;
            const bool alive = next.state != kNoState;
            if (!alive && !child_popped) {
                // No way on here: every token below is rejected, or left to the stack below.
                if (child_escaped) {
                    for (uint32_t i = child.first; i < child.end; ++i) entry.dependent.push_back(mask.order_[i]);
                }
                continue;
            }
            const bool accepted = alive || child_popped;
            for (uint32_t i = child.first; i < child.first + child.n_here; ++i) {
                const int32_t id = mask.order_[i];
                if (accepted) {
                    set_bit(entry.accepted, static_cast<size_t>(id));
                } else if (child_escaped) {
                    entry.dependent.push_back(id);
                }
            }
            if (child.n_children == 0) continue;
            if (!alive) { // only the popped way is left: what follows needs the stack below
                for (uint32_t i = child.first + child.n_here; i < child.end; ++i) entry.dependent.push_back(mask.order_[i]);
                continue;
            }
            visit(child, next.state, child_popped, child_escaped, complete ? std::string_view{} : bytes);
        }
    }
};

uint32_t GrammarMask::intern(std::vector<Stack> stacks) {
    if (stacks.empty()) return kNoState;
    auto [it, added] = state_ids_.try_emplace(std::move(stacks), static_cast<uint32_t>(states_.size()));
    if (added) states_.push_back(&it->first);
    return it->second;
}

GrammarMask::Transition GrammarMask::step_state(uint32_t state, std::string_view bytes, bool complete) {
    // The key: the state, then the code point (< 2^21) or, for half a character, its bytes
    // (marked by bit 31).
    uint64_t what = 0;
    if (complete) {
        what = utf8_decode_checked(bytes);
    } else {
        for (const char b : bytes) what = (what << 8) | static_cast<unsigned char>(b);
        what |= uint64_t{1} << 31;
    }
    const uint64_t key = (uint64_t{state} << 32) | what;
    if (auto it = transitions_.find(key); it != transitions_.end()) return it->second;

    std::vector<Stack> next;
    Transition t;
    const std::vector<Stack>& stacks = *states_[state];
    if (complete) {
        const auto c = static_cast<char32_t>(what);
        for (const Stack& s : stacks) {
            const Position& top = s.back();
            if (!grammar_->rules[top.rule].alternatives[top.alternative][top.index].chars.contains(c)) continue;
            Stack moved = s;
            moved.back().index += 1;
            if (!local_.expand(std::move(moved), next) || next.size() > GrammarMatcher::kMaxWays) { // refused, as the matcher does
                transitions_.emplace(key, Transition{});
                return Transition{};
            }
        }
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
        if (!next.empty() && next.front().empty()) { // sorted: the empty stack comes first
            t.popped = true;
            next.erase(next.begin());
        }
    } else {
        const auto [lo, hi] = utf8_completions(bytes);
        for (const Stack& s : stacks) {
            const Position& top = s.back();
            if (grammar_->rules[top.rule].alternatives[top.alternative][top.index].chars.intersects(lo, hi)) next.push_back(s);
        }
    }
    t.state = intern(std::move(next));
    transitions_.emplace(key, t);
    return t;
}

GrammarMask::GrammarMask(const Grammar& grammar, std::span<const std::string> tokens)
    : grammar_(&grammar), tokens_(tokens), local_(grammar) {
    order_.reserve(tokens.size());
    for (size_t id = 0; id < tokens.size(); ++id) {
        if (!tokens[id].empty()) order_.push_back(static_cast<int32_t>(id));
    }
    std::sort(order_.begin(), order_.end(), [&](int32_t a, int32_t b) {
        const std::string& x = tokens_[static_cast<size_t>(a)];
        const std::string& y = tokens_[static_cast<size_t>(b)];
        return x != y ? x < y : a < b;
    });
    nodes_.emplace_back();
    fill(0, 0, static_cast<uint32_t>(order_.size()), 0);
}

// Fills nodes_[index], which stands for order_[first, end): tokens sharing their first `depth`
// bytes. Its children are placed side by side first, then each one's subtree.
void GrammarMask::fill(uint32_t index, uint32_t first, uint32_t end, uint32_t depth) {
    const auto byte_at = [&](uint32_t i) { return static_cast<uint8_t>(tokens_[static_cast<size_t>(order_[i])][depth]); };
    uint32_t here = first;
    while (here < end && tokens_[static_cast<size_t>(order_[here])].size() == depth) ++here;
    std::vector<std::pair<uint32_t, uint32_t>> groups;
    for (uint32_t i = here; i < end;) {
        uint32_t j = i;
        while (j < end && byte_at(j) == byte_at(i)) ++j;
        groups.emplace_back(i, j);
        i = j;
    }
    const auto first_child = static_cast<uint32_t>(nodes_.size());
    nodes_.resize(nodes_.size() + groups.size());
    Node& node = nodes_[index];
    node.first = first;
    node.end = end;
    node.n_here = here - first;
    node.first_child = first_child;
    node.n_children = static_cast<uint32_t>(groups.size());
    for (size_t k = 0; k < groups.size(); ++k) nodes_[first_child + k].byte = byte_at(groups[k].first);
    for (size_t k = 0; k < groups.size(); ++k) {
        fill(first_child + static_cast<uint32_t>(k), groups[k].first, groups[k].second, depth + 1);
    }
}

const GrammarMask::Entry& GrammarMask::entry(const Stack& key) {
    auto& slot = entries_[key];
    if (!slot) {
        slot = std::make_unique<Entry>();
        slot->accepted.assign((tokens_.size() + 63) / 64, 0);
        Walk walk{*this, *slot};
        walk.visit(nodes_[0], intern({key}), false, false, {});
        std::sort(slot->dependent.begin(), slot->dependent.end());
        slot->dependent.erase(std::unique(slot->dependent.begin(), slot->dependent.end()), slot->dependent.end());
    }
    return *slot;
}

void GrammarMask::allowed(const GrammarMatcher& matcher, std::vector<uint8_t>& out) {
    allowed_bits(matcher, bits_);
    out.resize(tokens_.size());
    for (size_t i = 0; i < tokens_.size(); ++i) out[i] = bit(bits_, i) ? 1 : 0;
}

void GrammarMask::allowed_bits(const GrammarMatcher& matcher, std::vector<uint64_t>& bits) {
    bits.assign((tokens_.size() + 63) / 64, 0);
    if (!matcher.pending_.empty()) {
        // Half a character waits: the positions' sorts start at a character's start, so each
        // token is tried on its own (only after a token that ended inside a character).
        for (int32_t id : order_) {
            if (matcher.accepts(tokens_[static_cast<size_t>(id)])) set_bit(bits, static_cast<size_t>(id));
        }
        last_checked_ = order_.size();
        return;
    }
    check_.clear();
    std::vector<Stack> seen;
    for (const Stack& s : matcher.stacks_) {
        if (s.empty()) continue;
        const auto depth = static_cast<std::ptrdiff_t>(std::min(s.size(), kKeyDepth));
        Stack key(s.end() - depth, s.end());
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        const Entry& e = entry(key);
        seen.push_back(std::move(key));
        for (size_t w = 0; w < bits.size(); ++w) bits[w] |= e.accepted[w];
        check_.insert(check_.end(), e.dependent.begin(), e.dependent.end());
    }
    std::sort(check_.begin(), check_.end());
    check_.erase(std::unique(check_.begin(), check_.end()), check_.end());
    last_checked_ = 0;
    for (int32_t id : check_) {
        const auto i = static_cast<size_t>(id);
        if (bit(bits, i)) continue;
        ++last_checked_;
        if (matcher.accepts(tokens_[i])) set_bit(bits, i);
    }
}

} // namespace octo
