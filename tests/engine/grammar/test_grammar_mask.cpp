// GrammarMask (engine/grammar/grammar_mask.h), the per-position token sort, against
// GrammarMatcher::allowed(), which tries every token on its own (and is itself checked against a
// grammar's whole language in test_grammar.cpp): equal at every step of many random walks, on
// vocabularies with quotes, escapes, split multi-byte characters, and on Llama 3's real one.
#include <gtest/gtest.h>

#include <algorithm>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/gguf/gguf_file.h"
#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/grammar_mask.h"
#include "engine/grammar/grammar_matcher.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/shared_data.h"

namespace octo {
namespace {

const char* const kJson = R"(
root   ::= object
value  ::= object | array | string | number | ("true" | "false" | "null") ws
object ::= "{" ws ( string ":" ws value ("," ws string ":" ws value)* )? "}" ws
array  ::= "[" ws ( value ("," ws value)* )? "]" ws
string ::= "\"" ( [^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4}) )* "\"" ws
number ::= ("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]+)? ([eE] [-+]? [0-9]{1,3})? ws
ws ::= | " " | "\n" [ \t]{0,20}
)";

// A schema-like grammar: fixed keys, an enum, a bounded array, a string with a length bound.
const char* const kRecord = R"(
root ::= "{" ws "\"name\"" ws ":" ws name "," ws "\"kind\"" ws ":" ws kind "," ws "\"tags\"" ws ":" ws tags ws "}"
name ::= "\"" [a-zA-Z\u00C0-\u024F ]{1,12} "\""
kind ::= "\"cat\"" | "\"dog\"" | "\"hedgehog\""
tags ::= "[" ws ( tag ( "," ws tag ){0,2} )? ws "]"
tag  ::= "\"" [a-z]+ "\"" | [0-9]+
ws   ::= [ \n]?
)";

Grammar parse(const char* text) {
    auto g = Grammar::parse(text);
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
    return g.ok() ? std::move(g.value()) : Grammar{};
}

// Random tokens over an alphabet that hits every kind of grammar step, with "é" (C3 A9) and
// "😀" (F0 9F 98 80) cut anywhere, invalid bytes, and the empty token.
std::vector<std::string> random_vocab(size_t n, uint32_t seed) {
    const std::vector<std::string> pieces = {"{", "}", "[", "]", "\"", "\\", ":", ",", " ", "\n", "\t", "a", "b", "n", "u",
                                             "t", "r", "e", "0", "1", "9", "-", ".", "E", "+", "x", "\xC3", "\xA9",
                                             "\xF0\x9F", "\x98\x80", "\xFF", "cat", "dog", "name", "kind", "tags", "true",
                                             "null", "ok", "\\u00e9"};
    std::mt19937 rng(seed);
    std::vector<std::string> vocab = {""};
    for (const std::string& p : pieces) vocab.push_back(p);
    while (vocab.size() < n) {
        std::string t;
        const size_t parts = 1 + rng() % 4;
        for (size_t i = 0; i < parts; ++i) t += pieces[rng() % pieces.size()];
        vocab.push_back(t);
    }
    return vocab;
}

// Walks `steps` random allowed tokens from the start, comparing the fast mask with the slow one at
// each step; returns the steps compared.
size_t compare_walks(const Grammar& g, const std::vector<std::string>& vocab, uint32_t seed, int walks, int steps) {
    GrammarMask fast(g, vocab);
    std::mt19937 rng(seed);
    std::vector<uint8_t> got;
    size_t compared = 0;
    for (int w = 0; w < walks; ++w) {
        GrammarMatcher m(g);
        for (int s = 0; s < steps; ++s) {
            const std::vector<uint8_t> want = m.allowed(vocab);
            fast.allowed(m, got);
            for (size_t t = 0; t < vocab.size(); ++t) {
                if (got[t] != want[t]) {
                    ADD_FAILURE() << "walk " << w << " step " << s << ": token " << t << " '" << vocab[t] << "' fast "
                                  << int(got[t]) << " slow " << int(want[t]);
                    return compared;
                }
            }
            ++compared;
            std::vector<size_t> ok;
            for (size_t t = 0; t < vocab.size(); ++t) {
                if (want[t]) ok.push_back(t);
            }
            if (ok.empty()) break;
            const size_t pick = ok[rng() % ok.size()];
            EXPECT_TRUE(m.advance(vocab[pick]));
        }
    }
    return compared;
}

TEST(GrammarMask, EqualsTheTokenByTokenMaskOnRandomJsonWalks) {
    const Grammar g = parse(kJson);
    for (uint32_t seed = 1; seed <= 3; ++seed) {
        EXPECT_GT(compare_walks(g, random_vocab(1500, seed), seed, 6, 40), 100u) << "seed " << seed;
    }
}

TEST(GrammarMask, EqualsTheTokenByTokenMaskOnABoundedRecord) {
    const Grammar g = parse(kRecord);
    for (uint32_t seed = 11; seed <= 13; ++seed) {
        EXPECT_GT(compare_walks(g, random_vocab(1500, seed), seed, 6, 40), 50u) << "seed " << seed;
    }
}

TEST(GrammarMask, SortsEachPositionOnceAndTriesFewTokensInAString) {
    const Grammar g = parse(kJson);
    const std::vector<std::string> vocab = random_vocab(3000, 7);
    GrammarMask fast(g, vocab);
    GrammarMatcher m(g);
    ASSERT_TRUE(m.advance("{\"ab"));
    std::vector<uint8_t> out;
    fast.allowed(m, out);
    const size_t cached = fast.positions_cached();
    EXPECT_GT(cached, 0u);
    EXPECT_LT(fast.last_checked(), vocab.size()) << "not every token was tried one by one";
    fast.allowed(m, out);
    EXPECT_EQ(fast.positions_cached(), cached) << "a second mask at the same state sorts nothing again";
}

// Llama 3's 128,256 tokens (../shared/refdata/vocab): the masks along a real JSON document, as
// the tokenizer cuts it, equal the token-by-token ones.
TEST(GrammarMask, EqualsTheTokenByTokenMaskWithLlama3sVocabulary) {
    const auto ref = test::refdata_dir();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    auto gguf = GgufFile::open((*ref / "vocab" / "ggml-vocab-llama3.gguf").string());
    ASSERT_TRUE(gguf.ok()) << gguf.error().message;
    auto vocab = vocab_from_gguf(*gguf);
    ASSERT_TRUE(vocab.ok()) << vocab.error().message;
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    ASSERT_TRUE(tokenizer.ok()) << tokenizer.error().message;
    std::vector<std::string> texts(static_cast<size_t>(tokenizer->n_tokens()));
    for (int32_t id = 0; id < tokenizer->n_tokens(); ++id) {
        if (!tokenizer->is_control(id)) texts[static_cast<size_t>(id)] = tokenizer->token_bytes(id);
    }
    const Grammar g = parse(kJson);
    GrammarMask fast(g, texts);
    const std::string doc = "{\"name\": \"Zoë 😀\", \"n\": [1, -2.5e3, true], \"q\": \"a\\\"b\"}";
    auto ids = tokenizer->encode(doc, false, false);
    ASSERT_TRUE(ids.ok());
    GrammarMatcher m(g);
    std::vector<uint8_t> got;
    size_t allowed_total = 0;
    size_t most_checked = 0;
    for (int32_t id : *ids) {
        const std::vector<uint8_t> want = m.allowed(texts);
        fast.allowed(m, got);
        most_checked = std::max(most_checked, fast.last_checked());
        ASSERT_EQ(got, want) << "before token " << id << " '" << texts[static_cast<size_t>(id)] << "'";
        ASSERT_TRUE(want[static_cast<size_t>(id)]) << "the document's own token is allowed";
        for (uint8_t a : want) allowed_total += a;
        ASSERT_TRUE(m.advance(texts[static_cast<size_t>(id)]));
    }
    EXPECT_TRUE(m.can_end());
    EXPECT_GT(allowed_total, 100000u) << "string positions allow most of the vocabulary";
    // The point of the sort: no step tries more than a few percent of the tokens one by one.
    EXPECT_LT(most_checked, texts.size() / 50) << "tokens tried one by one at the worst step";
}

} // namespace
} // namespace octo
