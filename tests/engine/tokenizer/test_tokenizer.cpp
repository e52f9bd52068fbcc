// Tokenizer behaviour on small hand-built vocabularies: byte fallback, space prefix,
// special tokens, BOS/EOS, decoding, pre-tokenizer rules, vocab validation, the fallback
// for an unknown pre-tokenizer and the refusal of unsupported tokenizer types.
// Covers: vocab.cpp, bpe_tokenizer.cpp, spm_tokenizer.cpp, byte_encoding.cpp, pretokenizer.cpp,
//   pretokenizer_rules.cpp, special_tokens.cpp, special_token_detection.cpp, token_pieces.cpp
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/byte_encoding.h"
#include "engine/tokenizer/pretokenizer.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/captured_log.h"

namespace octo {
namespace {

using Ids = std::vector<int32_t>;

const std::string kSp = "\xE2\x96\x81"; // ▁

int32_t add_token(Vocab& v, std::string text, TokenType type = TokenType::Normal,
                  float score = 0.0f) {
    v.tokens.push_back(std::move(text));
    v.types.push_back(type);
    v.scores.push_back(score);
    return v.size() - 1;
}

// A SentencePiece-style vocab: <unk> <s> </s>, the 256 byte tokens, then pieces.
Vocab spm_vocab() {
    Vocab v;
    v.model = "llama";
    v.unk_id = add_token(v, "<unk>", TokenType::Unknown);
    v.bos_id = add_token(v, "<s>", TokenType::Control);
    v.eos_id = add_token(v, "</s>", TokenType::Control);
    char name[8];
    for (int b = 0; b < 256; ++b) {
        std::snprintf(name, sizeof name, "<0x%02X>", b);
        add_token(v, name, TokenType::Byte);
    }
    // Scores decide merge order: higher first.
    add_token(v, kSp, TokenType::Normal, -1.0f);
    add_token(v, "a", TokenType::Normal, -2.0f);
    add_token(v, "b", TokenType::Normal, -2.0f);
    add_token(v, kSp + "a", TokenType::Normal, -0.5f);
    add_token(v, "ab", TokenType::Normal, -0.1f);
    add_token(v, kSp + "ab", TokenType::Normal, -3.0f);
    set_default_flags(v);
    detect_special_tokens(v);
    return v;
}

Tokenizer make(Vocab v) {
    auto t = Tokenizer::create(std::move(v));
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    return std::move(t.value());
}

Ids encode(const Tokenizer& t, std::string_view text, bool add_special = false,
           bool parse_special = false) {
    auto ids = t.encode(text, add_special, parse_special);
    EXPECT_TRUE(ids.ok()) << (ids.ok() ? "" : ids.error().message);
    return ids.ok() ? ids.value() : Ids{};
}

int32_t byte_id(int byte) { return 3 + byte; } // in spm_vocab()

TEST(SpmTokenizer, MergesByScoreAndFallsBackToBytes) {
    const Tokenizer t = make(spm_vocab());
    const int32_t sp_a = t.find_token(kSp + "a");
    const int32_t sp = t.find_token(kSp);
    // "▁ab": "ab" (-0.1) outscores "▁a" (-0.5), and "▁"+"ab" = "▁ab" then merges.
    EXPECT_EQ(encode(t, "ab"), (Ids{t.find_token(kSp + "ab")}));
    // "é" (C3 A9) has no token: its bytes are emitted as <0xC3> <0xA9>.
    EXPECT_EQ(encode(t, "a\xC3\xA9"), (Ids{sp_a, byte_id(0xC3), byte_id(0xA9)}));
    // A character without any piece in a word: "ab" then bytes of 'c'.
    EXPECT_EQ(encode(t, "abc"), (Ids{t.find_token(kSp + "ab"), byte_id('c')}));
    EXPECT_EQ(encode(t, " ab"), (Ids{sp, t.find_token(kSp + "ab")}));
    EXPECT_EQ(encode(t, ""), Ids{});
}

TEST(SpmTokenizer, AddSpacePrefixOnAndOff) {
    Vocab v = spm_vocab();
    const Tokenizer with = make(v);
    v.add_space_prefix = false;
    const Tokenizer without = make(v);
    EXPECT_EQ(encode(with, "a"), (Ids{with.find_token(kSp + "a")}));
    EXPECT_EQ(encode(without, "a"), (Ids{without.find_token("a")}));
    EXPECT_EQ(encode(without, "ab"), (Ids{without.find_token("ab")}));
}

TEST(SpmTokenizer, AddBosAndEos) {
    Vocab v = spm_vocab();
    EXPECT_TRUE(v.add_bos);   // llama.cpp's default for SentencePiece vocabs
    EXPECT_FALSE(v.add_eos);
    const int32_t sp_a = make(v).find_token(kSp + "a");
    EXPECT_EQ(encode(make(v), "a", true), (Ids{v.bos_id, sp_a}));
    EXPECT_EQ(encode(make(v), "a", false), (Ids{sp_a}));
    EXPECT_EQ(encode(make(v), "", true), (Ids{v.bos_id}));
    v.add_eos = true;
    EXPECT_EQ(encode(make(v), "a", true), (Ids{v.bos_id, sp_a, v.eos_id}));
    v.add_bos = false;
    EXPECT_EQ(encode(make(v), "a", true), (Ids{sp_a, v.eos_id}));
}

TEST(SpmTokenizer, ParseSpecialOnAndOff) {
    Vocab v = spm_vocab();
    const int32_t im_end = add_token(v, "<|im_end|>", TokenType::Control);
    const int32_t tool = add_token(v, "<tool>", TokenType::UserDefined);
    const Tokenizer t = make(v);
    const int32_t sp_a = t.find_token(kSp + "a");

    // parse_special: the control token is cut out; the text after it gets the
    // space prefix again (llama.cpp: a fragment after a special token).
    EXPECT_EQ(encode(t, "a<|im_end|>a", false, true), (Ids{sp_a, im_end, sp_a}));
    EXPECT_EQ(encode(t, "a</s>", false, true), (Ids{sp_a, v.eos_id}));
    // Without parse_special the control text is ordinary text ('<' etc. as bytes).
    const Ids plain = encode(t, "a<|im_end|>a", false, false);
    EXPECT_EQ(std::count(plain.begin(), plain.end(), im_end), 0);
    EXPECT_EQ(plain.front(), sp_a);
    EXPECT_EQ(plain[1], byte_id('<'));
    // User-defined tokens are matched either way.
    EXPECT_EQ(encode(t, "<tool>a", false, false), (Ids{tool, sp_a}));
    EXPECT_EQ(encode(t, "<tool>a", false, true), (Ids{tool, sp_a}));
    // Longest special text wins.
    Vocab v2 = v;
    const int32_t longer = add_token(v2, "<|im_end|>x", TokenType::Control);
    EXPECT_EQ(encode(make(v2), "<|im_end|>x", false, true), (Ids{longer}));
}

TEST(SpmTokenizer, DecodeRoundTripIncludingInvalidUtf8) {
    const Tokenizer t = make(spm_vocab());
    for (const std::string text : {"ab a", " a  b ", "a\xC3\xA9", "\xFF" "a\xC3", "\xE2\x82",
                                   "a\n\tb", ""}) {
        const Ids ids = encode(t, text, true);
        EXPECT_EQ(t.decode(ids), text) << "text: " << text;
    }
    // A prefix of a multi-byte character decodes to its raw bytes.
    const Ids ids = encode(t, "\xC3\xA9"); // "▁", <0xC3>, <0xA9>
    ASSERT_EQ(ids.size(), 3u);
    EXPECT_EQ(t.decode(std::span<const int32_t>(ids.data(), 2)), "\xC3");
    EXPECT_EQ(t.token_bytes(byte_id(0xC3)), "\xC3");
    EXPECT_EQ(t.token_bytes(t.find_token(kSp + "ab")), " ab");
    // Control tokens render only on request; out-of-range ids are skipped.
    const Ids with_bos = {1, t.find_token("ab"), 99999};
    EXPECT_EQ(t.decode(with_bos), "ab");
    EXPECT_EQ(t.decode(with_bos, true), "<s>ab");
    EXPECT_EQ(t.token_bytes(-1), "");
}

TEST(SpmTokenizer, NoByteFallbackIsAnError) {
    Vocab v;
    v.model = "llama";
    add_token(v, kSp + "a");
    v.add_space_prefix = true;
    const Tokenizer t = make(v);
    EXPECT_EQ(encode(t, "a"), Ids{0});
    auto ids = t.encode("b", false, false);
    ASSERT_FALSE(ids.ok());
    EXPECT_EQ(ids.error().code, ErrorCode::Tokenizer);
}

// A byte-level vocab: the 256 byte symbols, then `words` (raw text) with their merges.
Vocab bpe_vocab(const std::vector<std::string>& merges_raw, const std::string& pre = "gpt-2") {
    Vocab v;
    v.model = "gpt2";
    v.pre = pre;
    for (int b = 0; b < 256; ++b) add_token(v, byte_to_symbol(static_cast<uint8_t>(b)));
    const auto encoded = [](const std::string& raw) {
        std::string out;
        for (const char c : raw) out += byte_to_symbol(static_cast<uint8_t>(c));
        return out;
    };
    for (const std::string& merge : merges_raw) {
        const size_t space = merge.find('|');
        const std::string left = encoded(merge.substr(0, space));
        const std::string right = encoded(merge.substr(space + 1));
        v.merges.push_back(left + " " + right);
        if (std::find(v.tokens.begin(), v.tokens.end(), left + right) == v.tokens.end()) {
            add_token(v, left + right);
        }
    }
    v.eos_id = add_token(v, "<|endoftext|>");
    set_default_flags(v);
    detect_special_tokens(v);
    return v;
}

int32_t bpe_id(const Tokenizer& t, const std::string& raw) {
    std::string text;
    for (const char c : raw) text += byte_to_symbol(static_cast<uint8_t>(c));
    return t.find_token(text);
}

TEST(BpeTokenizer, MergesByRank) {
    // "b c" outranks "a b": "abc" -> "a" "bc".
    const Tokenizer t1 = make(bpe_vocab({"b|c", "a|b"}));
    EXPECT_EQ(encode(t1, "abc"), (Ids{bpe_id(t1, "a"), bpe_id(t1, "bc")}));
    const Tokenizer t2 = make(bpe_vocab({"a|b", "b|c"}));
    EXPECT_EQ(encode(t2, "abc"), (Ids{bpe_id(t2, "ab"), bpe_id(t2, "c")}));
    // Merges apply within pre-tokenizer pieces only: " ab" is one GPT-2 word.
    const Tokenizer t3 = make(bpe_vocab({"a|b", " |ab"}));
    EXPECT_EQ(encode(t3, "ab ab"), (Ids{bpe_id(t3, "ab"), bpe_id(t3, " ab")}));
}

TEST(BpeTokenizer, EndOfTextIsControlAndEog) {
    const Tokenizer t = make(bpe_vocab({}));
    const int32_t eot = t.find_token("<|endoftext|>");
    EXPECT_TRUE(t.is_control(eot)); // made Control by text, as llama.cpp does
    EXPECT_TRUE(t.is_eog(eot));
    EXPECT_EQ(t.vocab().eot_id, eot);
    EXPECT_FALSE(t.is_eog(0));
    EXPECT_EQ(encode(t, "x<|endoftext|>", false, true), (Ids{bpe_id(t, "x"), eot}));
    EXPECT_EQ(encode(t, "<|endoftext|>", false, false).size(), 13u); // plain bytes
    // gpt-2 vocabs add no BOS by default.
    EXPECT_FALSE(t.vocab().add_bos);
}

TEST(BpeTokenizer, DecodeRoundTrip) {
    const Tokenizer t = make(bpe_vocab({"a|b", " |ab"}));
    for (const std::string text : {"ab ab", "  x\n\n y ", "\xC3\xA9t\xC3\xA9 \xF0\x9F\xA6\x99", ""}) {
        EXPECT_EQ(t.decode(encode(t, text)), text) << text;
    }
    EXPECT_EQ(t.token_bytes(bpe_id(t, " ab")), " ab");
    // Malformed UTF-8 is read as U+FFFD, as llama.cpp does.
    EXPECT_EQ(t.decode(encode(t, "a\xFF")), "a\xEF\xBF\xBD");
    // A token holding part of a character decodes to those raw bytes.
    EXPECT_EQ(t.token_bytes(bpe_id(t, "\xF0")), "\xF0");
}

std::vector<std::string> split(std::string_view pre, std::string_view text) {
    auto p = PreTokenizer::create(*find_pretokenizer_rules(pre));
    EXPECT_TRUE(p.ok());
    auto words = p->split(text);
    EXPECT_TRUE(words.ok());
    return words.ok() ? words.value() : std::vector<std::string>{};
}

using Words = std::vector<std::string>;

TEST(PreTokenizer, Gpt2Rules) {
    EXPECT_EQ(split("gpt-2", "Hello world"), (Words{"Hello", " world"}));
    // \s+(?!\S): a whitespace run leaves its last space to the next word.
    EXPECT_EQ(split("gpt-2", "a   b"), (Words{"a", "  ", " b"}));
    EXPECT_EQ(split("gpt-2", "a \t\n"), (Words{"a", " \t\n"}));
    EXPECT_EQ(split("gpt-2", "I'll it's 'S"), (Words{"I", "'ll", " it", "'s", " '", "S"}));
    EXPECT_EQ(split("gpt-2", "x 123!?"), (Words{"x", " 123", "!?"}));
    // Non-ASCII whitespace (U+3000) counts as whitespace.
    EXPECT_EQ(split("gpt-2", "a\xE3\x80\x80\xE3\x80\x80" "b"),
              (Words{"a", "\xE3\x80\x80", "\xE3\x80\x80", "b"}));
}

TEST(PreTokenizer, Llama3AndQwen2Rules) {
    EXPECT_EQ(split("llama-bpe", "12345"), (Words{"123", "45"}));
    EXPECT_EQ(split("llama3", "I'LL go"), (Words{"I", "'LL", " go"}));
    EXPECT_EQ(split("llama-bpe", "..a!!\n\nb"), (Words{"..", "a", "!!\n\n", "b"}));
    EXPECT_EQ(split("llama-bpe", " .a"), (Words{" .", "a"}));
    EXPECT_EQ(split("llama-bpe", ".a"), (Words{".a"}));
    EXPECT_EQ(split("llama-bpe", "a \n b"), (Words{"a", " \n", " b"}));
    EXPECT_EQ(split("qwen2", "12345"), (Words{"1", "2", "3", "4", "5"}));
    EXPECT_EQ(split("deepseek-r1-qwen", "x 12"), (Words{"x", " ", "1", "2"}));
    EXPECT_NE(find_pretokenizer_rules("llama-v3"), nullptr);
    EXPECT_TRUE(find_pretokenizer_rules("llama3")->ignore_merges);
    EXPECT_TRUE(find_pretokenizer_rules("llama3")->add_bos);
}

TEST(PreTokenizer, DeepseekAndStarcoderRules) {
    // CJK runs stand alone; digits one by one (deepseek-coder) or in runs (-llm).
    EXPECT_EQ(split("deepseek-coder", "ab\xE6\x88\x91\xE6\x83\xB3" "12"),
              (Words{"ab", "\xE6\x88\x91\xE6\x83\xB3", "1", "2"}));
    EXPECT_EQ(split("deepseek-llm", "ab \xE6\x88\x91 12"),
              (Words{"ab", " ", "\xE6\x88\x91", " ", "12"}));
    EXPECT_EQ(split("starcoder", "x12"), (Words{"x", "1", "2"}));
    EXPECT_EQ(split("smollm", "x12"), (Words{"x", "1", "2"}));
}

TEST(PreTokenizer, DeepseekV3Rules) {
    // Digits in groups of three, then CJK ideographs / kana as runs of their own.
    EXPECT_EQ(split("deepseek-v3", "x 12345"), (Words{"x", " ", "123", "45"}));
    EXPECT_EQ(split("deepseek-v3", "ab\xE6\x97\xA5\xE6\x9C\xAC\xE3\x82\xAB\xE3\x81\x8B" "cd"),
              (Words{"ab", "\xE6\x97\xA5\xE6\x9C\xAC\xE3\x82\xAB\xE3\x81\x8B", "cd"})); // ab日本カかcd
    // Hangul is not in that list: it is a letter run with its leading space.
    EXPECT_EQ(split("deepseek-v3", "a \xED\x95\x9C\xEA\xB5\xAD"), (Words{"a", " \xED\x95\x9C\xEA\xB5\xAD"}));
    // One ASCII punctuation character joins the ASCII letters after it; other runs.
    EXPECT_EQ(split("deepseek-v3", "(hello) 'world'"), (Words{"(hello", ")", " '", "world", "'"}));
    EXPECT_EQ(split("deepseek-v3", "a.\n\nb"), (Words{"a", ".\n\n", "b"}));
    // A letter run keeps a combining mark (\p{M}).
    EXPECT_EQ(split("deepseek-v3", "e\xCC\x81t\xC3\xA9!"), (Words{"e\xCC\x81t\xC3\xA9", "!"}));
    // llama.cpp c392e50's `~`: in no punctuation run, so "%~" is "%" + "~", and a
    // leading character of a letter run ("~é"). Unmatched text between matches is one piece.
    EXPECT_EQ(split("deepseek-v3", "%~"), (Words{"%", "~"}));
    EXPECT_EQ(split("deepseek-v3", "~\xC3\xA9"), (Words{"~\xC3\xA9"}));
    EXPECT_EQ(split("deepseek-v3", "a~~b"), (Words{"a", "~", "~b"}));
    EXPECT_EQ(split("deepseek-v3", "!~~?"), (Words{"!", "~~", "?"}));
}

// "gpt-4o" (o200k_base, the gpt-oss vocabulary) against vectors computed from the published
// expression by another engine (tools/tokenizer/o200k_vectors.py: Python's `regex` module):
// case-split words, contractions, digits in threes, symbol runs with their newlines and slashes,
// non-Latin scripts, combining marks, titlecase and modifier letters.
TEST(PreTokenizer, Gpt4oMatchesThePublishedExpression) {
    std::ifstream in(std::filesystem::path(OCTOSCOPE_TESTS_DIR) / "data" / "tokenizer" / "o200k_pretokenizer.json");
    ASSERT_TRUE(in) << "tests/data/tokenizer/o200k_pretokenizer.json";
    const auto vectors = nlohmann::json::parse(in);
    ASSERT_GE(vectors.size(), 20u);
    for (const auto& v : vectors) {
        const auto text = v.at("text").get<std::string>();
        EXPECT_EQ(split("gpt-4o", text), v.at("pieces").get<Words>()) << text;
    }
    // the cases that tell it from the Llama 3 rules
    EXPECT_EQ(split("gpt-4o", "camelCase"), (Words{"camel", "Case"}));
    EXPECT_EQ(split("llama-bpe", "camelCase"), (Words{"camelCase"}));
    EXPECT_EQ(split("gpt-4o", "x?!\n/y"), (Words{"x", "?!\n/", "y"})); // a symbol run takes newlines and slashes
    EXPECT_FALSE(find_pretokenizer_rules("gpt-4o")->add_bos);
}

TEST(VocabValidation, SpecialIdOutOfRange) {
    Vocab v = spm_vocab();
    v.bos_id = 40000;
    const Status s = validate_vocab(v);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::Tokenizer);
    EXPECT_NE(s.error().message.find("tokenizer.ggml.bos_token_id"), std::string::npos);
    EXPECT_NE(s.error().message.find("40000"), std::string::npos);
    EXPECT_FALSE(Tokenizer::create(v).ok());
}

TEST(VocabValidation, MergeNamingUnknownToken) {
    Vocab v = bpe_vocab({"a|b"});
    v.merges.push_back("zz q");
    const Status s = validate_vocab(v);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::Tokenizer);
    EXPECT_NE(s.error().message.find("'zz q'"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("'zz'"), std::string::npos) << s.error().message;
    v.merges.back() = "nospace";
    EXPECT_FALSE(validate_vocab(v).ok());
}

TEST(VocabValidation, UnknownPreLoadsWithTheDefaultRulesAndAWarning) {
    Vocab v = bpe_vocab({"a|b", " |ab", "1|2"});
    v.pre = "no-such-pre";
    EXPECT_TRUE(validate_vocab(v).ok());
    test::CapturedLog log;
    const Tokenizer t = make(v);
    EXPECT_TRUE(t.pretokenizer_is_fallback());
    EXPECT_EQ(t.pretokenizer_rules(), "default");
    const std::vector<std::string> lines = log.lines();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].rfind("warning ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("tokenizer.ggml.pre 'no-such-pre'"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("the 'default' rules"), std::string::npos) << lines[0];

    // The same ids as a vocab that asks for "default" (which splits digits off, unlike gpt-2).
    v.pre = "default";
    const Tokenizer by_default = make(v);
    EXPECT_FALSE(by_default.pretokenizer_is_fallback());
    for (const std::string text : {"ab ab", "x 1234 ab!", "  \xC3\xA9 ab"}) {
        EXPECT_EQ(encode(t, text), encode(by_default, text)) << text;
    }
    EXPECT_EQ(log.lines().size(), 1u); // known rules: no further warning
    v.pre = "";
    EXPECT_EQ(make(v).pretokenizer_rules(), "default"); // absent pre means "default", silently
    v.pre = "llama3";
    EXPECT_EQ(make(v).pretokenizer_rules(), "llama-bpe");
    EXPECT_EQ(make(spm_vocab()).pretokenizer_rules(), "");
    EXPECT_EQ(log.lines().size(), 1u);
}

TEST(VocabValidation, UnsupportedTokenizerTypeIsRefusedClearly) {
    Vocab v = bpe_vocab({});
    for (const auto& [model, what] : {std::pair<std::string, std::string>{"t5", "Unigram"},
                                      {"bert", "WordPiece"},
                                      {"rwkv", "RWKV"},
                                      {"none", "no vocabulary"},
                                      {"sentencepiece-v9", "not a tokenizer type Octoscope knows"}}) {
        v.model = model;
        const Status s = validate_vocab(v);
        ASSERT_FALSE(s.ok()) << model;
        EXPECT_EQ(s.error().code, ErrorCode::Tokenizer);
        const std::string& m = s.error().message;
        EXPECT_NE(m.find("tokenizer.ggml.model"), std::string::npos) << m;
        EXPECT_NE(m.find("'" + model + "'"), std::string::npos) << m;
        EXPECT_NE(m.find(what), std::string::npos) << m;
        EXPECT_NE(m.find("only 'llama' (SentencePiece-style BPE) and 'gpt2' (byte-level BPE)"), std::string::npos)
            << m;
        const auto t = Tokenizer::create(v);
        ASSERT_FALSE(t.ok());
        EXPECT_EQ(t.error().message, m);
    }
}

TEST(VocabValidation, ArraysAndTokens) {
    Vocab v = spm_vocab();
    v.scores.pop_back();
    EXPECT_FALSE(validate_vocab(v).ok());
    v = spm_vocab();
    v.types.push_back(TokenType::Normal);
    EXPECT_FALSE(validate_vocab(v).ok());
    v = spm_vocab();
    v.tokens.back() = "a"; // duplicate
    EXPECT_FALSE(validate_vocab(v).ok());
    v = spm_vocab();
    v.types[5] = static_cast<TokenType>(9);
    EXPECT_FALSE(validate_vocab(v).ok());
    v = spm_vocab();
    v.bos_id = -1; // add_bos without a BOS token
    EXPECT_FALSE(validate_vocab(v).ok());
}

} // namespace
} // namespace octo
