#include "engine/grammar/gbnf_grammar.h"

#include "engine/grammar/grammar_matcher.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "engine/core/utf8_text.h"

namespace octo {

bool CharSet::contains(char32_t c) const {
    const bool in = std::any_of(ranges.begin(), ranges.end(), [c](const auto& r) { return c >= r.first && c <= r.second; });
    return in != negated;
}

bool CharSet::intersects(char32_t lo, char32_t hi) const {
    if (!negated) {
        return std::any_of(ranges.begin(), ranges.end(), [&](const auto& r) { return r.first <= hi && r.second >= lo; });
    }
    // Negated: some point of [lo, hi] lies outside every excluded range.
    auto sorted = ranges;
    std::sort(sorted.begin(), sorted.end());
    char32_t next = lo; // the first point not yet known to be excluded
    for (const auto& [first, last] : sorted) {
        if (first > next) break;
        if (last >= next) {
            if (last >= hi) return false;
            next = last + 1;
        }
    }
    return next <= hi;
}

namespace {

constexpr int kMaxRepeat = 1000; // {m,n} bounds: larger ones would make that many copies

bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    Result<Grammar> run(std::string_view root) {
        skip_space(true);
        while (ok() && pos_ < text_.size()) {
            parse_rule();
            skip_space(true);
        }
        if (!ok()) return error();
        for (size_t i = 0; i < grammar_.rules.size(); ++i) {
            if (!defined_[i]) return make_error(ErrorCode::InvalidArgument, "grammar: rule '" + grammar_.rules[i].name +
                                                                                "' is used but never defined");
        }
        const auto it = names_.find(std::string(root));
        if (it == names_.end()) return make_error(ErrorCode::InvalidArgument, "grammar: there is no rule '" + std::string(root) + "'");
        grammar_.root = it->second;
        if (auto left = left_recursive()) {
            return make_error(ErrorCode::InvalidArgument, "grammar: rule '" + grammar_.rules[*left].name +
                                                              "' is left-recursive (it can reach itself before reading a character)");
        }
        return std::move(grammar_);
    }

private:
    bool ok() const { return failure_.empty(); }
    void fail(const std::string& why) {
        if (!failure_.empty()) return;
        const size_t line = 1 + static_cast<size_t>(std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(std::min(pos_, text_.size())), '\n'));
        failure_ = "grammar, line " + std::to_string(line) + ": " + why;
    }
    Error error() const { return make_error(ErrorCode::InvalidArgument, failure_); }
    char peek(size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
    bool at_end() const { return pos_ >= text_.size(); }

    // Spaces, tabs and comments; newlines too when `newline_ok` (inside a group, after ::= or |).
    void skip_space(bool newline_ok) {
        while (!at_end()) {
            const char c = peek();
            if (c == ' ' || c == '\t' || (newline_ok && (c == '\n' || c == '\r'))) {
                ++pos_;
            } else if (c == '#') {
                while (!at_end() && peek() != '\n') ++pos_;
            } else {
                break;
            }
        }
    }

    std::string parse_name() {
        const size_t start = pos_;
        while (!at_end() && is_name_char(peek())) ++pos_;
        return std::string(text_.substr(start, pos_ - start));
    }

    uint32_t rule_index(const std::string& name) {
        const auto [it, added] = names_.emplace(name, static_cast<uint32_t>(grammar_.rules.size()));
        if (added) {
            grammar_.rules.push_back(GrammarRule{name, {}});
            defined_.push_back(false);
        }
        return it->second;
    }

    uint32_t new_rule(const std::string& base) {
        const std::string name = base + "_" + std::to_string(grammar_.rules.size());
        const uint32_t index = rule_index(name);
        defined_[index] = true;
        return index;
    }

    void parse_rule() {
        const std::string name = parse_name();
        if (name.empty()) return fail("a rule name was expected");
        skip_space(false);
        if (text_.substr(pos_, 3) != "::=") return fail("'::=' was expected after '" + name + "'");
        pos_ += 3;
        skip_space(true);
        const uint32_t index = rule_index(name);
        if (defined_[index]) return fail("rule '" + name + "' is defined twice");
        defined_[index] = true;
        auto alternatives = parse_alternatives(name, false);
        grammar_.rules[index].alternatives = std::move(alternatives);
        if (ok() && !at_end() && peek() != '\n' && peek() != '\r') fail("unexpected '" + std::string(1, peek()) + "'");
    }

    std::vector<GrammarSequence> parse_alternatives(const std::string& rule, bool nested) {
        std::vector<GrammarSequence> out;
        out.push_back(parse_sequence(rule, nested));
        while (ok() && peek() == '|') {
            ++pos_;
            skip_space(true);
            out.push_back(parse_sequence(rule, nested));
        }
        return out;
    }

    // One code point of a literal or a class, escapes decoded.
    std::optional<char32_t> parse_char() {
        if (at_end()) return fail("the text ends inside a literal or class"), std::nullopt;
        if (peek() != '\\') {
            const auto cp = code_point_at(text_, pos_);
            if (!cp) return fail("invalid UTF-8"), std::nullopt;
            pos_ += cp->size;
            return cp->value;
        }
        const char e = peek(1);
        pos_ += 2;
        switch (e) {
        case 'n': return U'\n';
        case 'r': return U'\r';
        case 't': return U'\t';
        case '\\':
        case '"':
        case '[':
        case ']':
        case '-':
        case '/':
        case '^': return static_cast<char32_t>(e);
        case 'x': return parse_hex(2);
        case 'u': return parse_hex(4);
        case 'U': return parse_hex(8);
        default: return fail(std::string("unknown escape '\\") + e + "'"), std::nullopt;
        }
    }

    std::optional<char32_t> parse_hex(int digits) {
        uint32_t value = 0;
        for (int i = 0; i < digits; ++i) {
            const char c = peek();
            const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) return fail("a hexadecimal digit was expected"), std::nullopt;
            value = value * 16 + static_cast<uint32_t>(d);
            ++pos_;
        }
        if (value > 0x10FFFF) return fail("a code point past U+10FFFF"), std::nullopt;
        return static_cast<char32_t>(value);
    }

    // A character class from its '[' to past its ']': ranges, single characters, '^' negating it.
    // On a malformed class the parser has failed (ok() is false) and the set is partial.
    CharSet parse_class() {
        ++pos_;
        CharSet set;
        if (peek() == '^') {
            set.negated = true;
            ++pos_;
        }
        while (ok() && peek() != ']') {
            const auto first = parse_char();
            if (!first) break;
            char32_t end = *first;
            if (peek() == '-' && peek(1) != ']') {
                ++pos_;
                const auto second = parse_char();
                if (!second) break;
                if (*second < *first) {
                    fail("a range that ends before it starts");
                    break;
                }
                end = *second;
            }
            set.ranges.emplace_back(*first, end);
        }
        if (ok()) ++pos_;
        return set;
    }

    GrammarSequence parse_sequence(const std::string& rule, bool nested) {
        GrammarSequence seq;
        constexpr size_t kNone = static_cast<size_t>(-1);
        size_t last = kNone; // the last element's symbol (what a repetition repeats); kNone: none just before
        while (ok() && !at_end()) {
            const char c = peek();
            if (c == '"') {
                ++pos_;
                last = seq.size();
                while (ok() && peek() != '"') {
                    if (const auto ch = parse_char()) seq.push_back({GrammarSymbol::Kind::Chars, CharSet{{{*ch, *ch}}, false}, 0});
                }
                if (!ok()) break;
                ++pos_;
                if (seq.size() == last) { // "": matches the empty text; nothing for a repetition to repeat
                    last = kNone;
                    skip_space(nested);
                    continue;
                }
                if (seq.size() - last > 1) { // several characters: one element, a group, for a repetition to repeat
                    GrammarSequence literal(seq.begin() + static_cast<std::ptrdiff_t>(last), seq.end());
                    seq.resize(last);
                    if (repetition_follows(nested)) {
                        const uint32_t group = new_rule(rule);
                        grammar_.rules[group].alternatives = {std::move(literal)};
                        seq.push_back({GrammarSymbol::Kind::Rule, {}, group});
                    } else {
                        seq.insert(seq.end(), literal.begin(), literal.end());
                        last = kNone;
                    }
                }
            } else if (c == '[') {
                CharSet set = parse_class();
                if (!ok()) break;
                last = seq.size();
                seq.push_back({GrammarSymbol::Kind::Chars, std::move(set), 0});
            } else if (c == '.') {
                ++pos_;
                last = seq.size();
                seq.push_back({GrammarSymbol::Kind::Chars, CharSet{{}, true}, 0});
            } else if (c == '(') {
                ++pos_;
                skip_space(true);
                const uint32_t group = new_rule(rule);
                auto alternatives = parse_alternatives(rule, true);
                grammar_.rules[group].alternatives = std::move(alternatives);
                if (!ok()) break;
                if (peek() != ')') {
                    fail("')' was expected");
                    break;
                }
                ++pos_;
                last = seq.size();
                seq.push_back({GrammarSymbol::Kind::Rule, {}, group});
            } else if (is_name_char(c)) {
                const size_t start = pos_;
                const std::string name = parse_name();
                // The next rule's head: this sequence ended on the line before.
                size_t after = pos_;
                while (after < text_.size() && (text_[after] == ' ' || text_[after] == '\t')) ++after;
                if (text_.substr(after, 3) == "::=") {
                    pos_ = start;
                    break;
                }
                last = seq.size();
                seq.push_back({GrammarSymbol::Kind::Rule, {}, rule_index(name)});
            } else if (is_repetition(c)) {
                if (last == kNone || last >= seq.size()) {
                    fail(std::string("'") + c + "' repeats nothing");
                    break;
                }
                const size_t start = last;
                repeat(rule, seq, last);
                // Another operator repeats the whole result ("y"+? is ("y"+)?); {0} leaves nothing.
                const size_t count = seq.size() - start;
                last = count == 0 ? kNone : start;
                if (count > 1 && ok()) {
                    skip_space(nested);
                    if (!at_end() && is_repetition(peek())) {
                        GrammarSequence result(seq.begin() + static_cast<std::ptrdiff_t>(start), seq.end());
                        seq.resize(start);
                        const uint32_t group = new_rule(rule);
                        grammar_.rules[group].alternatives = {std::move(result)};
                        seq.push_back({GrammarSymbol::Kind::Rule, {}, group});
                    } else {
                        last = kNone;
                    }
                    continue;
                }
            } else {
                break;
            }
            skip_space(nested);
        }
        return seq;
    }

    static bool is_repetition(char c) { return c == '*' || c == '+' || c == '?' || c == '{'; }

    // Whether the next thing after spaces (and newlines, inside a group) is a repetition.
    bool repetition_follows(bool nested) const {
        size_t at = pos_;
        while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\t' || (nested && (text_[at] == '\n' || text_[at] == '\r')))) ++at;
        return at < text_.size() && is_repetition(text_[at]);
    }

    // The operator at pos_ applied to seq's last element (one symbol from `last` on).
    void repeat(const std::string& rule, GrammarSequence& seq, size_t last) {
        const GrammarSymbol item = seq[last];
        seq.resize(last);
        int min = 0, max = -1; // -1: unbounded
        const char op = peek();
        ++pos_;
        if (op == '+') {
            min = 1;
        } else if (op == '?') {
            max = 1;
        } else if (op == '{') {
            skip_space(true);
            min = parse_count();
            skip_space(true);
            max = min;
            if (ok() && peek() == ',') {
                ++pos_;
                skip_space(true);
                max = peek() == '}' ? -1 : parse_count();
                skip_space(true);
            }
            if (!ok()) return;
            if (peek() != '}') return fail("'}' was expected");
            ++pos_;
            if (max >= 0 && max < min) return fail("a repetition {m,n} with n < m");
        }
        for (int i = 0; i < min; ++i) seq.push_back(item);
        if (max < 0) { // item*: R ::= item R | ε
            const uint32_t star = new_rule(rule);
            grammar_.rules[star].alternatives = {{item, {GrammarSymbol::Kind::Rule, {}, star}}, {}};
            seq.push_back({GrammarSymbol::Kind::Rule, {}, star});
        } else if (max > min) { // up to max - min more: R_k ::= item R_{k-1} | ε, R_1 ::= item | ε
            uint32_t inner = 0;
            for (int k = 1; k <= max - min; ++k) {
                const uint32_t r = new_rule(rule);
                GrammarSequence more = {item};
                if (k > 1) more.push_back({GrammarSymbol::Kind::Rule, {}, inner});
                grammar_.rules[r].alternatives = {std::move(more), {}};
                inner = r;
            }
            seq.push_back({GrammarSymbol::Kind::Rule, {}, inner});
        }
    }

    int parse_count() {
        int n = 0;
        bool any = false;
        while (!at_end() && peek() >= '0' && peek() <= '9') {
            n = n * 10 + (peek() - '0');
            any = true;
            ++pos_;
            if (n > kMaxRepeat) return fail("a repetition count over " + std::to_string(kMaxRepeat)), 0;
        }
        if (!any) fail("a repetition count was expected");
        return n;
    }

    // A rule that can reach itself before reading a character, if any.
    std::optional<uint32_t> left_recursive() const {
        const auto& rules = grammar_.rules;
        std::vector<bool> nullable(rules.size(), false);
        for (bool changed = true; changed;) {
            changed = false;
            for (size_t r = 0; r < rules.size(); ++r) {
                if (nullable[r]) continue;
                for (const GrammarSequence& seq : rules[r].alternatives) {
                    const bool all = std::all_of(seq.begin(), seq.end(), [&](const GrammarSymbol& s) {
                        return s.kind == GrammarSymbol::Kind::Rule && nullable[s.rule];
                    });
                    if (all) {
                        nullable[r] = changed = true;
                        break;
                    }
                }
            }
        }
        // Edges r -> s where s stands after only nullable symbols in one of r's alternatives.
        std::vector<int> state(rules.size(), 0); // 0 unseen, 1 on the path, 2 done
        std::optional<uint32_t> found;
        std::function<void(uint32_t)> visit = [&](uint32_t r) {
            state[r] = 1;
            for (const GrammarSequence& seq : rules[r].alternatives) {
                for (const GrammarSymbol& s : seq) {
                    if (s.kind != GrammarSymbol::Kind::Rule) break;
                    if (state[s.rule] == 1 && !found) found = s.rule;
                    if (state[s.rule] == 0) visit(s.rule);
                    if (!nullable[s.rule]) break;
                }
            }
            state[r] = 2;
        };
        for (uint32_t r = 0; r < rules.size() && !found; ++r) {
            if (state[r] == 0) visit(r);
        }
        return found;
    }

    std::string_view text_;
    size_t pos_ = 0;
    std::string failure_;
    Grammar grammar_;
    std::map<std::string, uint32_t> names_;
    std::vector<bool> defined_;
};

} // namespace

Result<Grammar> Grammar::parse(std::string_view text, std::string_view root) {
    auto grammar = Parser(text).run(root);
    if (grammar && GrammarMatcher(grammar.value()).overflowed()) {
        return make_error(ErrorCode::InvalidArgument,
                          "grammar: its start can be read in more than " + std::to_string(GrammarMatcher::kMaxWays) +
                              " ways (nested repetitions such as ((x+)+)+ double them at each level)");
    }
    return grammar;
}

} // namespace octo
