#include "engine/tokenizer/pretokenizer_rules.h"

#include <array>
#include <utility>

namespace octo {

namespace {

// GPT-2: contractions, optionally space-led runs of letters / digits / other
// symbols, and whitespace runs that leave their last character to the next word.
constexpr std::string_view kGpt2 =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))";

// Llama 3 (tiktoken cl100k style): case-insensitive contractions, a letter run that
// may take one leading non-letter, digits in groups of at most three, symbol runs
// that swallow following newlines, newline-ending whitespace, other whitespace.
constexpr std::string_view kLlama3 =
    R"((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// Qwen2: as Llama 3 but every digit is its own piece.
constexpr std::string_view kQwen2 =
    R"((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// DeepSeek: CJK ideographs (U+4E00..U+9FA5), the block U+0800..U+4E00 and Hangul
// syllables + Jamo extensions (U+AC00..U+D7FF) form runs of their own.
constexpr std::string_view kDeepseekCjk = R"([\x{4E00}-\x{9FA5}\x{800}-\x{4E00}\x{AC00}-\x{D7FF}]+)";

// DeepSeek LLM letters: the cased letters (Lu/Ll/Lt) of the scripts DeepSeek lists,
// transcribed range by range from its tokenizer.json.
constexpr std::string_view kDeepseekLlmLetters =
    R"(\s?[A-Za-z\x{B5}\x{C0}-\x{D6}\x{D8}-\x{F6}\x{F8}-\x{1BA}\x{1BC}-\x{1BF}\x{1C4}-\x{293})"
    R"(\x{295}-\x{2AF}\x{370}-\x{373}\x{376}\x{377}\x{37B}-\x{37D}\x{37F}\x{386}\x{388}-\x{38A})"
    R"(\x{38C}\x{38E}-\x{3A1}\x{3A3}-\x{3F5}\x{3F7}-\x{481}\x{48A}-\x{52F}\x{531}-\x{556})"
    R"(\x{10A0}-\x{10C5}\x{13A0}-\x{13F5}\x{13F8}-\x{13FD}\x{1C90}-\x{1CBA}\x{1CBD}-\x{1CBF})"
    R"(\x{1D00}-\x{1D2B}\x{1D6B}-\x{1D77}\x{1D79}-\x{1D9A}\x{1E00}-\x{1F15}\x{1F18}-\x{1F1D})"
    R"(\x{1F20}-\x{1F45}\x{1F48}-\x{1F4D}\x{1F50}-\x{1F57}\x{1F59}\x{1F5B}\x{1F5D}\x{1F5F}-\x{1F7D})"
    R"(\x{1F80}-\x{1FB4}\x{1FB6}-\x{1FBC}\x{1FBE}\x{1FC2}-\x{1FC4}\x{1FC6}-\x{1FCC}\x{1FD0}-\x{1FD3})"
    R"(\x{1FD6}-\x{1FDB}\x{1FE0}-\x{1FEC}\x{1FF2}-\x{1FF4}\x{1FF6}-\x{1FFC}\x{2102}\x{2107})"
    R"(\x{210A}-\x{2113}\x{2115}\x{2119}-\x{211D}\x{2124}\x{2126}\x{2128}\x{212A}-\x{212D})"
    R"(\x{212F}-\x{2134}\x{2139}\x{213C}-\x{213F}\x{2145}-\x{2149}\x{214E}\x{2183}\x{2184})"
    R"(\x{2C00}-\x{2C7B}\x{2C7E}-\x{2CE4}\x{2CEB}-\x{2CEE}\x{2CF2}\x{2CF3}\x{A640}-\x{A66D})"
    R"(\x{A680}-\x{A69B}\x{A722}-\x{A76F}\x{A771}-\x{A787}\x{A78B}-\x{A78E}\x{AB70}-\x{ABBF})"
    R"(\x{FB00}-\x{FB06}\x{FB13}-\x{FB17}\x{FF21}-\x{FF3A}\x{FF41}-\x{FF5A}\x{10400}-\x{1044F})"
    R"(\x{104B0}-\x{104D3}\x{104D8}-\x{104FB}\x{10C80}-\x{10CB2}\x{10CC0}-\x{10CF2})"
    R"(\x{118A0}-\x{118DF}\x{1E900}-\x{1E943}]+)";

// DeepSeek LLM punctuation: ASCII punctuation, its full-width forms, curly quotes
// (U+2018..U+201F) and U+3000..U+3002.
constexpr std::string_view kDeepseekLlmPunct =
    R"(\s?[!-/:-~\x{FF01}-\x{FF0F}\x{FF1A}-\x{FF5E}\x{2018}-\x{201F}\x{3000}-\x{3002}]+)";

// DeepSeek V3 (llama.cpp's LLAMA_VOCAB_PRE_TYPE_DEEPSEEK3_LLM), three expressions:
//  1. digits in groups of at most three;
//  2. runs of CJK ideographs (U+4E00..U+9FA5), Hiragana (U+3040..U+309F) and Katakana
//     (U+30A0..U+30FF);
//  3. an ASCII punctuation character glued to the ASCII letters after it; a letter/mark
//     run that may take one leading character that is no letter, punctuation or symbol;
//     punctuation/symbol runs with the newlines after them; newline-ending whitespace;
//     other whitespace.
// llama.cpp (c392e50) runs expression 3 through std::regex on a text where every code
// point above U+007F stands for its category and ASCII keeps its own byte; its ASCII
// lists for \p{P} and \p{S} leave out `~`. So `~` is never part of a punctuation run
// (unless letters follow, it is left in the unmatched text between two matches, which
// is a piece of its own) and it may lead a letter run, as in "~é". The `(?!~)` and `~|`
// below reproduce exactly that: "%~" is split "%" + "~" as by llama.cpp, where the
// Hugging Face tokenizer keeps "%~" whole.
constexpr std::string_view kDeepseekV3Digits = R"(\p{N}{1,3})";
constexpr std::string_view kDeepseekV3Cjk = R"([\x{4E00}-\x{9FA5}\x{3040}-\x{309F}\x{30A0}-\x{30FF}]+)";
constexpr std::string_view kDeepseekV3Words =
    R"re([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+)re"
    R"re(|(?:~|[^\r\n\p{L}\p{P}\p{S}])?[\p{L}\p{M}]+)re"
    R"re(| ?(?:(?!~)[\p{P}\p{S}])+[\r\n]*)re"
    R"re(|\s*[\r\n]+|\s+(?!\S)|\s+)re";

// GPT-4o (tiktoken's o200k_base, the gpt-oss vocabulary), as published: a word is an optional
// leading non-letter, then upper-case-like letters and lower-case-like ones (Lm, Lo and marks
// count as both), so "camelCase" splits before "Case" and "PDFFile" stays whole, with an optional
// case-insensitive contraction; digits in groups of at most three; symbol runs that take the
// newlines and slashes after them; newline-ending whitespace; other whitespace. llama.cpp-family
// engines rewrite the letter classes as "a letter but not a-z" / "not A-Z", which splits
// non-ASCII words differently; this is the published expression (PCRE2 has the categories).
constexpr std::string_view kGpt4o =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
    R"(|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

const std::array<PreTokenizerRules, 11>& rule_sets() {
    static const std::array<PreTokenizerRules, 11> sets = {{
        {"default",
         {R"([\p{P}\$\+<=>\^~\|]+)", kGpt2, R"(\p{N}+)", "[0-9][0-9][0-9]"},
         false, false},
        {"gpt-2", {kGpt2}, false, false},
        {"llama-bpe", {kLlama3}, true, true},
        {"dbrx", {kLlama3}, false, false},
        {"qwen2", {kQwen2}, false, false},
        {"starcoder", {R"(\p{N})", kGpt2}, false, false},
        {"falcon", {R"([\p{P}\$\+<=>\^~\|`]+)", kGpt2, "[0-9][0-9][0-9]"}, false, false},
        {"deepseek-llm",
         {R"([\r\n])", kDeepseekLlmLetters, kDeepseekLlmPunct, R"(\s+$)", kDeepseekCjk,
          R"(\p{N}+)"},
         false, false},
        {"deepseek-coder",
         {R"([\r\n])", R"(\s?\p{L}+)", R"(\s?\p{P}+)", kDeepseekCjk, R"(\p{N})"},
         false, false},
        {"deepseek-v3", {kDeepseekV3Digits, kDeepseekV3Cjk, kDeepseekV3Words}, false, false},
        {"gpt-4o", {kGpt4o}, false, false},
    }};
    return sets;
}

// `tokenizer.ggml.pre` values and the rule set each selects (llama.cpp's mapping).
constexpr std::array<std::pair<std::string_view, std::string_view>, 22> kNames = {{
    {"default", "default"},
    {"gpt-2", "gpt-2"},
    {"mpt", "gpt-2"},
    {"starcoder", "starcoder"},
    {"refact", "starcoder"},
    {"smollm", "starcoder"},
    {"falcon", "falcon"},
    {"deepseek-llm", "deepseek-llm"},
    {"deepseek-coder", "deepseek-coder"},
    {"deepseek-v3", "deepseek-v3"},
    {"llama-bpe", "llama-bpe"},
    {"llama3", "llama-bpe"},
    {"llama-v3", "llama-bpe"},
    {"falcon3", "llama-bpe"},
    {"falcon-h1", "llama-bpe"},
    {"pixtral", "llama-bpe"},
    {"dbrx", "dbrx"},
    {"smaug-bpe", "dbrx"},
    {"qwen2", "qwen2"},
    {"deepseek-r1-qwen", "qwen2"},
    {"stablelm2", "qwen2"},
    {"gpt-4o", "gpt-4o"},
}};

} // namespace

const PreTokenizerRules* find_pretokenizer_rules(std::string_view pre) {
    if (pre.empty()) pre = "default";
    for (const auto& [name, set_name] : kNames) {
        if (name != pre) continue;
        for (const auto& set : rule_sets()) {
            if (set.name == set_name) return &set;
        }
    }
    return nullptr;
}

const PreTokenizerRules& fallback_pretokenizer_rules() { return *find_pretokenizer_rules("default"); }

std::vector<std::string_view> known_pretokenizer_names() {
    std::vector<std::string_view> names;
    for (const auto& entry : kNames) names.push_back(entry.first);
    return names;
}

} // namespace octo
