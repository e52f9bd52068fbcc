// Exact fractions for checking arithmetic claims (internal to engine/advisor). Parts are int64
// and every operation is overflow-checked: nullopt instead of a wrong value, so a claim too big
// to evaluate exactly is skipped rather than judged. Exactness matters at rounding ties and for
// '=' claims, where floating point would mis-judge decimals such as 0.1 + 0.2 = 0.3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace octo {

struct Rational {
    int64_t num = 0;
    int64_t den = 1; // > 0; num/den in lowest terms
};

std::optional<Rational> make_rational(int64_t num, int64_t den);
std::optional<Rational> add(Rational a, Rational b);
std::optional<Rational> subtract(Rational a, Rational b);
std::optional<Rational> multiply(Rational a, Rational b);
std::optional<Rational> divide(Rational a, Rational b); // nullopt for b = 0
// 10^exponent for exponent in [-18, 18].
std::optional<Rational> power_of_ten(int exponent);

// Whether |value - stated| <= unit / 2 (unit 0: exactly equal); nullopt on overflow.
std::optional<bool> within_half_unit(Rational value, Rational stated, Rational unit);
// value rounded to a multiple of unit (> 0), halves away from zero, as units: round(value / unit).
std::optional<int64_t> round_to_units(Rational value, Rational unit);

// "5/6"-style text of the fraction and ten significant digits of its value.
std::string fraction_text(Rational r);
std::string decimal_text(Rational r);

} // namespace octo
