// Exact evaluation of the arithmetic in a model's claims (internal to engine/advisor): a
// recursive-descent parser over numbers (digits, optional 1,234 grouping and decimals), + - −,
// × * ÷ /, parentheses (also full-width （）), unary minus and a postfix % (÷ 100).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "engine/advisor/exact_rational.h"

namespace octo {

struct DecimalNumber {
    Rational value;
    int decimals = 0;       // digits after the decimal point as written
    int trailing_zeros = 0; // zeros at the end of a number written without decimals ("120" -> 1)
};

// A number at text[pos] (no sign); advances pos past it. nullopt when there is none or it has
// more than 18 digits.
std::optional<DecimalNumber> parse_decimal(std::string_view text, size_t& pos);

struct EvaluatedExpression {
    Rational value;
    int operators = 0; // binary operators used
};

// The value of the whole of `text` (surrounding spaces allowed); nullopt when it is not one
// complete expression, divides by zero or overflows.
std::optional<EvaluatedExpression> evaluate_expression(std::string_view text);

} // namespace octo
