// GBNF grammars (engine/grammar): parsing and its errors, the matcher over whole texts, and the
// token mask against a brute-force answer computed from the grammar's language itself.
// Covers: gbnf_grammar.cpp, grammar_matcher.cpp
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/grammar_mask.h"
#include "engine/grammar/grammar_matcher.h"

namespace octo {
namespace {

Grammar parse(const std::string& text) {
    auto g = Grammar::parse(text);
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
    return g.ok() ? std::move(g.value()) : Grammar{};
}

// Whether `text` is a whole sentence of `grammar`, fed in one piece and byte by byte.
bool matches(const Grammar& grammar, const std::string& text) {
    GrammarMatcher whole(grammar);
    const bool at_once = whole.advance(text) && whole.can_end();
    GrammarMatcher bytes(grammar);
    bool ok = true;
    for (const char c : text) ok = ok && bytes.advance(std::string(1, c));
    EXPECT_EQ(at_once, ok && bytes.can_end()) << "byte by byte differs for '" << text << "'";
    return at_once;
}

const char* const kJson = R"(
root   ::= object
value  ::= object | array | string | number | ("true" | "false" | "null") ws
object ::=
  "{" ws (
            string ":" ws value
    ("," ws string ":" ws value)*
  )? "}" ws
array  ::= "[" ws ( value ("," ws value)* )? "]" ws
string ::= "\"" ( [^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4}) )* "\"" ws
number ::= ("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]+)? ([eE] [-+]? [0-9]{1,3})? ws
ws ::= | " " | "\n" [ \t]{0,20}   # limited whitespace
)";

TEST(Grammar, JsonGrammarAcceptsJsonAndNothingElse) {
    const Grammar g = parse(kJson);
    for (const char* ok : {R"({})", R"({"a": 1})", R"({"a": [1, 2.5, -3e10], "b": {"c": null}})", R"({"s": "x\"\u00e9y"})",
                           "{\"é\": \"ü\"}", R"({"a": true} )"}) {
        EXPECT_TRUE(matches(g, ok)) << ok;
    }
    for (const char* bad : {R"({)", R"({"a" 1})", R"({"a": 01})", R"([1])", R"({"a": tru})", R"({'a': 1})", R"({"a": "x)",
                            "{\"a\": \"\x01\"}", R"({"a": 1,})"}) {
        EXPECT_FALSE(matches(g, bad)) << bad;
    }
    GrammarMatcher m(g);
    EXPECT_FALSE(m.can_end()) << "the empty text is not an object";
    EXPECT_TRUE(m.advance(R"({"a": 1})"));
    EXPECT_TRUE(m.can_end());
    EXPECT_FALSE(m.finished()) << "whitespace may still follow";
    EXPECT_FALSE(m.advance("x"));
    EXPECT_TRUE(m.can_end()) << "a refused advance changes nothing";
}

TEST(Grammar, RepetitionsHaveTheirBounds) {
    const Grammar g = parse(R"(root ::= "a"{2,3} "b"? "c"* ("xy"){1,} [0-9]{2})");
    EXPECT_TRUE(matches(g, "aaxy12"));
    EXPECT_TRUE(matches(g, "aaabcccxyxy00"));
    EXPECT_FALSE(matches(g, "axy12")) << "a{2,3}: one is too few";
    EXPECT_FALSE(matches(g, "aaaaxy12")) << "four too many";
    EXPECT_FALSE(matches(g, "aa12")) << "(xy)+ needs one";
    EXPECT_FALSE(matches(g, "aaxyx12"));
    EXPECT_FALSE(matches(g, "aaxy123"));
    const Grammar spaced = parse(R"(root ::= "ab" * "c")");
    EXPECT_TRUE(matches(spaced, "ababc")) << "the whole literal repeats, a space before the operator or not";
    EXPECT_TRUE(matches(spaced, "c"));
    EXPECT_FALSE(matches(spaced, "abbc"));
    const Grammar twice = parse(R"(root ::= "x"{0} "y"+? )");
    EXPECT_TRUE(matches(twice, "") && matches(twice, "yy")) << "(y+)? repeats the result";
    EXPECT_FALSE(Grammar::parse(R"(root ::= "x"{0}*)").ok()) << "{0} leaves nothing to repeat";
    EXPECT_FALSE(Grammar::parse(R"(root ::= ""*)").ok());
    const Grammar exact = parse(R"(root ::= [a-c]{3})");
    EXPECT_TRUE(matches(exact, "abc"));
    EXPECT_FALSE(matches(exact, "ab"));
    EXPECT_FALSE(matches(exact, "abca"));
}

TEST(Grammar, MalformedGrammarsAreRefusedWithTheirLine) {
    const auto refused = [](const std::string& text, const std::string& words) {
        const auto g = Grammar::parse(text);
        if (g.ok()) return testing::AssertionFailure() << "accepted: " << text;
        if (g.error().message.find(words) == std::string::npos) return testing::AssertionFailure() << g.error().message;
        return testing::AssertionSuccess();
    };
    EXPECT_TRUE(refused("root ::= item", "'item' is used but never defined"));
    EXPECT_TRUE(refused("start ::= \"a\"", "no rule 'root'"));
    EXPECT_TRUE(refused("root ::= \"a", "ends inside"));
    EXPECT_TRUE(refused("root ::= [z-a]", "ends before it starts"));
    EXPECT_TRUE(refused("root ::= \"a\"\nroot ::= \"b\"", "line 2: rule 'root' is defined twice"));
    EXPECT_TRUE(refused("root ::= expr\nexpr ::= expr \"+\" term | term\nterm ::= [0-9]", "'expr' is left-recursive"));
    EXPECT_TRUE(refused("root ::= opt root\nopt ::= \"x\"?", "left-recursive")) << "through a rule that may be empty";
    EXPECT_TRUE(refused("root ::= \"a\"{2000}", "over 1000"));
    EXPECT_TRUE(refused("root ::= \"\\q\"", "unknown escape"));
    EXPECT_TRUE(refused("root ::= * \"a\"", "repeats nothing"));
    EXPECT_TRUE(refused("root \"a\"", "'::=' was expected"));
    // Right recursion is fine: it reads a character before it recurses.
    EXPECT_TRUE(Grammar::parse("root ::= \"(\" root \")\" | \"\"").ok());
}

// Every sentence of a finite grammar up to `max_len` bytes, by walking its rules (independent of
// the matcher).
std::set<std::string> language(const Grammar& g, size_t max_len) {
    std::set<std::string> out;
    // Work: the text so far and the symbols still to produce (front first).
    std::function<void(std::string, std::vector<GrammarSymbol>)> walk = [&](std::string text, std::vector<GrammarSymbol> todo) {
        if (text.size() > max_len) return;
        if (todo.empty()) {
            out.insert(text);
            return;
        }
        const GrammarSymbol s = todo.front();
        todo.erase(todo.begin());
        if (s.kind == GrammarSymbol::Kind::Rule) {
            for (const GrammarSequence& alt : g.rules[s.rule].alternatives) {
                std::vector<GrammarSymbol> next(alt.begin(), alt.end());
                next.insert(next.end(), todo.begin(), todo.end());
                walk(text, next);
            }
            return;
        }
        for (const auto& [lo, hi] : s.chars.ranges) {
            for (char32_t c = lo; c <= hi; ++c) {
                std::string t = text;
                if (c < 0x80) {
                    t.push_back(static_cast<char>(c));
                } else if (c < 0x800) {
                    t.push_back(static_cast<char>(0xC0 | (c >> 6)));
                    t.push_back(static_cast<char>(0x80 | (c & 0x3F)));
                } else {
                    t.push_back(static_cast<char>(0xE0 | (c >> 12)));
                    t.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
                    t.push_back(static_cast<char>(0x80 | (c & 0x3F)));
                }
                walk(t, todo);
            }
        }
    };
    walk("", {GrammarSymbol{GrammarSymbol::Kind::Rule, {}, g.root}});
    return out;
}

// The mask after every prefix of every sentence equals the brute-force answer: a token is allowed
// exactly when prefix + token starts some sentence. The vocabulary has multi-byte characters cut
// in two ("\xC3" then "\xA9" is "é").
TEST(Grammar, TheMaskEqualsABruteForceCheckOverTheVocabulary) {
    const Grammar g = parse(R"(
root ::= "{" pair ("," pair){0,2} "}"
pair ::= key ":" val
key  ::= "a" | "é" | "ab"
val  ::= [0-2] | "[" [0-1]? "]"
)");
    const std::vector<std::string> vocab = {"{", "}", ",", ":", "a", "b", "ab", "é", "\xC3", "\xA9", "0", "1", "2", "[", "]",
                                            "{a", ":1", "1}", "},", "\xC3\xA9:", "a:0}", "x", "é\xC3", "[]", ""};
    const std::set<std::string> sentences = language(g, 24);
    ASSERT_GT(sentences.size(), 100u);
    std::set<std::string> prefixes;
    for (const std::string& s : sentences) {
        for (size_t n = 0; n <= s.size(); ++n) prefixes.insert(s.substr(0, n));
    }
    size_t checked = 0;
    GrammarMask fast(g, vocab);
    std::vector<uint8_t> fast_mask;
    for (const std::string& prefix : prefixes) {
        if (prefix.size() > 14) continue; // the longer ones' continuations may pass max_len
        GrammarMatcher m(g);
        ASSERT_TRUE(m.advance(prefix)) << "a prefix of a sentence was refused: " << prefix;
        EXPECT_EQ(m.can_end(), sentences.count(prefix) == 1) << prefix;
        const std::vector<uint8_t> mask = m.allowed(vocab);
        fast.allowed(m, fast_mask);
        EXPECT_EQ(fast_mask, mask) << "GrammarMask after '" << prefix << "'";
        for (size_t t = 0; t < vocab.size(); ++t) {
            const std::string next = prefix + vocab[t];
            const bool expected = !vocab[t].empty() && prefixes.count(next) == 1;
            EXPECT_EQ(mask[t] == 1, expected) << "after '" << prefix << "' token '" << vocab[t] << "'";
            checked += 1;
        }
    }
    EXPECT_GT(checked, 1000u);
}

// Fuzz finding: nested repetitions double the ways through the grammar at each level; 40 of them
// ran the matcher out of memory. Such a grammar is refused when parsed, and one whose ways
// multiply only later refuses the text there instead of growing without bound.
TEST(Grammar, WaysThatMultiplyAreBoundedNotFollowedForever) {
    std::string nested = "root ::= [a-z]";
    for (int i = 0; i < 40; ++i) nested += "+";
    auto deep = Grammar::parse(nested);
    ASSERT_TRUE(deep.ok()) << deep.error().message;
    GrammarMatcher d(*deep);
    const uint64_t limited = GrammarMatcher::overflows();
    const bool read = d.advance("abc");
    EXPECT_TRUE(read || GrammarMatcher::overflows() > limited) << "read, or refused at the limit: either way it returns";

    std::string wide = "root ::= s0\n";
    for (int i = 0; i < 16; ++i) wide += "s" + std::to_string(i) + " ::= s" + std::to_string(i + 1) + " \"x\" | s" + std::to_string(i + 1) + " \"y\"\n";
    wide += "s16 ::= [a-z]\n";
    auto refused = Grammar::parse(wide); // 2^16 ways at the very start
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("ways"), std::string::npos) << refused.error().message;

    std::string later = "root ::= \"x\" r0\n";
    for (int i = 0; i < 16; ++i) {
        later += "r" + std::to_string(i) + " ::= (r" + std::to_string(i + 1) + " | r" + std::to_string(i + 1) + " \"!\")\n";
    }
    later += "r16 ::= [a-z]\n";
    const Grammar g = parse(later); // 2^16 ways after "x", few at the start
    GrammarMatcher m(g);
    EXPECT_FALSE(m.overflowed());
    const uint64_t before = GrammarMatcher::overflows();
    EXPECT_FALSE(m.advance("x")) << "refused past the limit";
    EXPECT_GT(GrammarMatcher::overflows(), before);
    EXPECT_FALSE(m.accepts("x"));
}

TEST(Grammar, HalfACharacterWaitsForTheRest) {
    const Grammar g = parse(R"(root ::= "é" [a-z] | "ü")");
    GrammarMatcher m(g);
    EXPECT_FALSE(m.accepts("\xC4")) << "no allowed character starts with C4 (U+0100 to U+013F)";
    EXPECT_TRUE(m.advance("\xC3"));
    EXPECT_FALSE(m.can_end()) << "half a character is not an end";
    EXPECT_FALSE(m.accepts("\xA8")) << "è is not allowed";
    EXPECT_FALSE(m.accepts("a")) << "not a continuation byte";
    EXPECT_TRUE(m.advance("\xA9x"));
    EXPECT_TRUE(m.can_end());
    GrammarMatcher bad(g);
    EXPECT_FALSE(bad.accepts("\xFF"));
    EXPECT_FALSE(bad.accepts("\xE0\x80")) << "an overlong start";
    const Grammar any_but = parse(R"(root ::= [^\u00E0-\u00FF])");
    EXPECT_TRUE(GrammarMatcher(any_but).accepts("\xC3")) << "C3 starts U+00C0 to U+00FF, some of which are allowed";
    const Grammar none_of = parse(R"(root ::= [^\u00C0-\u00FF])");
    EXPECT_FALSE(GrammarMatcher(none_of).accepts("\xC3")) << "every completion of C3 is excluded";
}

} // namespace
} // namespace octo
