// A grammar in GBNF, llama.cpp's notation for constrained decoding (its grammars/README.md):
//
//   root   ::= object                    # a rule: alternatives separated by |
//   object ::= "{" ws ( pair ( "," ws pair )* )? "}"
//   pair   ::= string ":" ws value
//   digit  ::= [0-9]                      # a character class; [^"\\] negated; . any character
//   hex    ::= [0-9a-fA-F]{4}             # repetition: * + ? {m} {m,} {m,n}
//
// Literals are "…" with the escapes \n \r \t \\ \" \[ \] \xHH \uHHHH \UHHHHHHHH; characters are
// Unicode code points (the text is UTF-8). A parenthesised group and every repetition become a
// rule of their own, so that a grammar is rules of alternatives of plain sequences, each symbol a
// character set or a rule reference (what GrammarMatcher walks). Parsing refuses undefined rules,
// a missing root and left recursion (a rule that can reach itself before reading a character:
// the matcher would never stop expanding it), each with the line it is on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/result.h"

namespace octo {

// Code points in any of `ranges` (inclusive), or in none of them when negated.
struct CharSet {
    std::vector<std::pair<char32_t, char32_t>> ranges;
    bool negated = false;
    bool contains(char32_t c) const;
    // Whether some code point in [lo, hi] is in the set.
    bool intersects(char32_t lo, char32_t hi) const;
    bool operator==(const CharSet&) const = default;
};

struct GrammarSymbol {
    enum class Kind { Chars, Rule };
    Kind kind = Kind::Chars;
    CharSet chars;     // Chars
    uint32_t rule = 0; // Rule: an index into Grammar::rules
    bool operator==(const GrammarSymbol&) const = default;
};

using GrammarSequence = std::vector<GrammarSymbol>;

struct GrammarRule {
    std::string name; // as written, or "name_N" for a group or repetition made from it
    std::vector<GrammarSequence> alternatives; // an empty sequence matches nothing at all (epsilon)
};

struct Grammar {
    std::vector<GrammarRule> rules;
    uint32_t root = 0;

    // `text` in GBNF; `root` names the start rule. InvalidArgument, naming the line, for anything
    // malformed.
    static Result<Grammar> parse(std::string_view text, std::string_view root = "root");
};

} // namespace octo
