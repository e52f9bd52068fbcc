// Fuzz target: arbitrary bytes as a JSON Schema (engine/grammar/json_schema.h). Whatever the
// compiler accepts must be a grammar the GBNF parser accepts (the compiler writes only grammars it
// can read back), and the bytes after the first NUL are then fed to its matcher. Any crash,
// sanitizer report, exception, a compiled grammar that does not parse, or unbounded time is a
// finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/grammar_matcher.h"
#include "engine/grammar/json_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const size_t nul = input.find('\0');
    const std::string_view schema = input.substr(0, nul);
    const std::string_view text = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1, 256);
    auto gbnf = octo::json_schema_to_gbnf(schema);
    if (!gbnf) return 0;
    auto grammar = octo::Grammar::parse(gbnf.value());
    if (!grammar) std::abort(); // the compiler wrote a grammar it cannot read back
    octo::GrammarMatcher m(grammar.value());
    (void)m.advance(text);
    (void)m.can_end();
    return 0;
}
