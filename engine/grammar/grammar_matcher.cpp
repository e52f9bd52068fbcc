#include "engine/grammar/grammar_matcher.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <utility>

#include "engine/core/utf8_text.h"
#include "engine/grammar/utf8_prefix.h"

namespace octo {


namespace {
std::atomic<uint64_t> g_overflows{0};
} // namespace

uint64_t GrammarMatcher::overflows() { return g_overflows.load(); }

GrammarMatcher::GrammarMatcher(const Grammar& grammar) : grammar_(&grammar) {
    const GrammarRule& root = grammar.rules[grammar.root];
    for (uint32_t a = 0; a < root.alternatives.size() && !overflowed_; ++a) {
        overflowed_ = !expand({Position{grammar.root, a, 0}}, stacks_);
    }
    if (overflowed_) stacks_.clear();
    normalise();
}

bool GrammarMatcher::expand(Stack start, std::vector<Stack>& out) const {
    // Each way on, depth first; a way already met (two alternatives leading to the same stack) is
    // followed once.
    std::vector<Stack> todo{std::move(start)};
    std::set<Stack> seen;
    size_t produced = 0;
    while (!todo.empty()) {
        Stack stack = std::move(todo.back());
        todo.pop_back();
        while (!stack.empty()) {
            const Position p = stack.back();
            const GrammarSequence& seq = grammar_->rules[p.rule].alternatives[p.alternative];
            if (p.index == seq.size()) { // this sequence is done: its caller goes on
                stack.pop_back();
                continue;
            }
            const GrammarSymbol& symbol = seq[p.index];
            if (symbol.kind == GrammarSymbol::Kind::Chars) break;
            // A reference: the caller resumes after it (gone when nothing follows, so that a long
            // repetition keeps a short stack), and each alternative of the rule starts on top.
            stack.back().index += 1;
            if (stack.back().index == seq.size()) stack.pop_back();
            const GrammarRule& rule = grammar_->rules[symbol.rule];
            for (uint32_t a = 1; a < rule.alternatives.size(); ++a) {
                Stack other = stack;
                other.push_back(Position{symbol.rule, a, 0});
                if (seen.insert(other).second) todo.push_back(std::move(other));
            }
            stack.push_back(Position{symbol.rule, 0, 0});
        }
        out.push_back(std::move(stack));
        if (++produced + todo.size() > kMaxWays) { // nested repetitions such as ((x+)+)+ multiply the ways
            g_overflows.fetch_add(1);
            return false;
        }
    }
    return true;
}

void GrammarMatcher::normalise() {
    std::sort(stacks_.begin(), stacks_.end());
    stacks_.erase(std::unique(stacks_.begin(), stacks_.end()), stacks_.end());
}

bool GrammarMatcher::step(char32_t c) {
    std::vector<Stack> next;
    for (const Stack& s : stacks_) {
        if (s.empty()) continue;
        const Position& top = s.back();
        const GrammarSymbol& symbol = grammar_->rules[top.rule].alternatives[top.alternative][top.index];
        if (!symbol.chars.contains(c)) continue;
        Stack moved = s;
        moved.back().index += 1;
        if (!expand(std::move(moved), next) || next.size() > kMaxWays) { // every way together is bounded too
            if (next.size() > kMaxWays) g_overflows.fetch_add(1);
            overflowed_ = true;
            stacks_.clear();
            return false;
        }
    }
    stacks_ = std::move(next);
    normalise();
    return !stacks_.empty();
}

bool GrammarMatcher::advance(std::string_view bytes) {
    GrammarMatcher trial = *this;
    std::string text = trial.pending_;
    text.append(bytes);
    trial.pending_.clear();
    size_t at = 0;
    while (at < text.size()) {
        const size_t length = utf8_sequence_length(static_cast<unsigned char>(text[at]));
        if (length == 0) return false;
        if (at + length > text.size()) { // the rest of the character comes later: a valid start only
            for (size_t i = at + 1; i < text.size(); ++i) {
                if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) return false;
            }
            if (at + 1 < text.size() &&
                !utf8_second_byte_ok(static_cast<unsigned char>(text[at]), static_cast<unsigned char>(text[at + 1]))) {
                return false;
            }
            trial.pending_ = text.substr(at);
            // Only the ways on that some completion of the character can take.
            const std::pair<char32_t, char32_t> range = utf8_completions(trial.pending_);
            const char32_t lo = range.first, hi = range.second;
            std::erase_if(trial.stacks_, [&](const Stack& s) {
                if (s.empty()) return true;
                const Position& top = s.back();
                return !grammar_->rules[top.rule].alternatives[top.alternative][top.index].chars.intersects(lo, hi);
            });
            if (trial.stacks_.empty()) return false;
            break;
        }
        const auto cp = code_point_at(text, at);
        if (!cp || cp->size != length) return false;
        if (!trial.step(cp->value)) return false;
        at += length;
    }
    *this = std::move(trial);
    return true;
}

bool GrammarMatcher::accepts(std::string_view bytes) const {
    GrammarMatcher trial = *this;
    return trial.advance(bytes);
}

bool GrammarMatcher::can_end() const {
    return pending_.empty() && std::any_of(stacks_.begin(), stacks_.end(), [](const Stack& s) { return s.empty(); });
}

bool GrammarMatcher::finished() const {
    return pending_.empty() && std::all_of(stacks_.begin(), stacks_.end(), [](const Stack& s) { return s.empty(); });
}

std::vector<uint8_t> GrammarMatcher::allowed(std::span<const std::string> tokens) const {
    std::vector<uint8_t> out(tokens.size(), 0);
    for (size_t i = 0; i < tokens.size(); ++i) out[i] = !tokens[i].empty() && accepts(tokens[i]) ? 1 : 0;
    return out;
}

} // namespace octo
