// Fuzz target: arbitrary bytes as a GBNF grammar (engine/grammar/gbnf_grammar.h), and, when it
// parses, the bytes after its first NUL as a text for the matcher, fed whole and byte by byte
// (the two must agree), with the mask over a few tokens cut from that text — token by token and
// by GrammarMask's per-position sort, which must agree at every step of the text. Any crash,
// sanitizer report, exception, disagreement or unbounded time is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/grammar_mask.h"
#include "engine/grammar/grammar_matcher.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t nul = input.find('\0');
    const std::string_view grammar_text = input.substr(0, nul);
    const std::string_view text = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1, 256);
    auto grammar = octo::Grammar::parse(grammar_text);
    if (!grammar) return 0;
    octo::GrammarMatcher whole(grammar.value());
    const bool at_once = whole.advance(text);
    octo::GrammarMatcher bytes(grammar.value());
    bool each = true;
    for (const char c : text) each = each && bytes.advance(std::string_view(&c, 1));
    if (at_once != each || (at_once && whole.can_end() != bytes.can_end())) std::abort();
    std::vector<std::string> tokens;
    for (size_t i = 0; i + 2 <= text.size() && tokens.size() < 16; i += 2) tokens.emplace_back(text.substr(i, 2));
    tokens.emplace_back("\xC3");
    tokens.emplace_back("\xA9\"");
    octo::GrammarMask mask(grammar.value(), tokens);
    octo::GrammarMatcher walk(grammar.value());
    std::vector<uint8_t> fast;
    for (const std::string& t : tokens) {
        const uint64_t overflows = octo::GrammarMatcher::overflows();
        mask.allowed(walk, fast);
        const std::vector<uint8_t> slow = walk.allowed(tokens);
        // Past GrammarMatcher::kMaxWays both refuse, but not always at the same token: compared
        // only where neither hit the limit.
        if (fast != slow && octo::GrammarMatcher::overflows() == overflows) std::abort();
        if (!walk.advance(t)) break;
    }
    return 0;
}
