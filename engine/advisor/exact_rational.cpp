#include "engine/advisor/exact_rational.h"

#include <cstdio>
#include <numeric>

namespace octo {

namespace {

std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
    int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

std::optional<int64_t> checked_add(int64_t a, int64_t b) {
    int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
    return r;
}

} // namespace

std::optional<Rational> make_rational(int64_t num, int64_t den) {
    if (den == 0 || num == INT64_MIN || den == INT64_MIN) return std::nullopt;
    if (den < 0) num = -num, den = -den;
    const int64_t g = std::gcd(num, den);
    return Rational{num / g, den / g};
}

std::optional<Rational> add(Rational a, Rational b) {
    const int64_t g = std::gcd(a.den, b.den);
    const auto l = checked_mul(a.num, b.den / g), r = checked_mul(b.num, a.den / g), d = checked_mul(a.den / g, b.den);
    if (!l || !r || !d) return std::nullopt;
    const auto n = checked_add(*l, *r);
    if (!n) return std::nullopt;
    return make_rational(*n, *d);
}

std::optional<Rational> subtract(Rational a, Rational b) {
    return add(a, Rational{-b.num, b.den});
}

std::optional<Rational> multiply(Rational a, Rational b) {
    const int64_t g1 = std::gcd(a.num, b.den), g2 = std::gcd(b.num, a.den); // >= 1: denominators are >= 1
    const auto n = checked_mul(a.num / g1, b.num / g2);
    const auto d = checked_mul(a.den / g2, b.den / g1);
    if (!n || !d) return std::nullopt;
    return make_rational(*n, *d);
}

std::optional<Rational> divide(Rational a, Rational b) {
    if (b.num == 0) return std::nullopt;
    return multiply(a, Rational{b.num < 0 ? -b.den : b.den, b.num < 0 ? -b.num : b.num});
}

std::optional<Rational> power_of_ten(int exponent) {
    if (exponent < -18 || exponent > 18) return std::nullopt;
    int64_t p = 1;
    for (int k = 0; k < (exponent < 0 ? -exponent : exponent); ++k) p *= 10;
    return exponent < 0 ? Rational{1, p} : Rational{p, 1};
}

std::optional<bool> within_half_unit(Rational value, Rational stated, Rational unit) {
    const auto diff = subtract(value, stated);
    if (!diff) return std::nullopt;
    const auto twice = multiply(Rational{diff->num < 0 ? -diff->num : diff->num, diff->den}, Rational{2, 1});
    if (!twice) return std::nullopt;
    const auto margin = subtract(unit, *twice);
    if (!margin) return std::nullopt;
    return margin->num >= 0;
}

std::optional<int64_t> round_to_units(Rational value, Rational unit) {
    const auto q = divide(value, unit);
    if (!q) return std::nullopt;
    // round half away from zero: floor((2|n| + d) / 2d) with the sign of n
    const int64_t n = q->num < 0 ? -q->num : q->num;
    const auto twice = checked_mul(n, 2), twice_den = checked_mul(q->den, 2);
    if (!twice || !twice_den) return std::nullopt;
    const auto top = checked_add(*twice, q->den);
    if (!top) return std::nullopt;
    const int64_t r = *top / *twice_den;
    return q->num < 0 ? -r : r;
}

std::string fraction_text(Rational r) {
    return r.den == 1 ? std::to_string(r.num) : std::to_string(r.num) + "/" + std::to_string(r.den);
}

std::string decimal_text(Rational r) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.10Lg", static_cast<long double>(r.num) / static_cast<long double>(r.den));
    return buffer;
}

} // namespace octo
