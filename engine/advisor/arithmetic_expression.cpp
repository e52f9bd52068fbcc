#include "engine/advisor/arithmetic_expression.h"

namespace octo {

namespace {

bool digit(std::string_view t, size_t i) { return i < t.size() && t[i] >= '0' && t[i] <= '9'; }

class Parser {
public:
    explicit Parser(std::string_view text) : t_(text) {}

    std::optional<EvaluatedExpression> whole() {
        auto v = sum();
        skip_spaces();
        if (!v || i_ != t_.size()) return std::nullopt;
        return EvaluatedExpression{*v, operators_};
    }

private:
    std::string_view t_;
    size_t i_ = 0;
    int operators_ = 0;

    void skip_spaces() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t')) ++i_;
    }

    // Consumes one of `symbols` (after spaces) and returns its index, or -1.
    int take(std::initializer_list<std::string_view> symbols) {
        skip_spaces();
        int k = 0;
        for (std::string_view s : symbols) {
            if (t_.substr(i_, s.size()) == s) {
                i_ += s.size();
                return k;
            }
            ++k;
        }
        return -1;
    }

    std::optional<Rational> sum() {
        auto v = product();
        for (int op; v && (op = take({"+", "-", "−"})) >= 0;) {
            auto r = product();
            if (!r) return std::nullopt;
            v = op == 0 ? add(*v, *r) : subtract(*v, *r);
            ++operators_;
        }
        return v;
    }

    std::optional<Rational> product() {
        auto v = unary();
        for (int op; v && (op = take({"*", "×", "/", "÷"})) >= 0;) {
            auto r = unary();
            if (!r) return std::nullopt;
            v = op <= 1 ? multiply(*v, *r) : divide(*v, *r);
            ++operators_;
        }
        return v;
    }

    std::optional<Rational> unary() {
        if (take({"-", "−"}) >= 0) {
            auto v = unary();
            if (!v) return std::nullopt;
            return Rational{-v->num, v->den};
        }
        auto v = primary();
        if (v && take({"%", "％"}) >= 0) return divide(*v, Rational{100, 1});
        return v;
    }

    std::optional<Rational> primary() {
        const int open = take({"(", "（"});
        if (open >= 0) {
            auto v = sum();
            if (!v || take({")", "）"}) < 0) return std::nullopt;
            return v;
        }
        skip_spaces();
        auto n = parse_decimal(t_, i_);
        if (!n) return std::nullopt;
        return n->value;
    }
};

} // namespace

std::optional<DecimalNumber> parse_decimal(std::string_view text, size_t& pos) {
    size_t i = pos;
    if (!digit(text, i)) return std::nullopt;
    int64_t mantissa = 0;
    int digits = 0;
    DecimalNumber n;
    const auto push = [&](char c) {
        mantissa = mantissa * 10 + (c - '0');
        return ++digits <= 18;
    };
    size_t run = 0; // digits since the last grouping comma
    for (; i < text.size(); ++i) {
        if (digit(text, i)) {
            if (!push(text[i])) return std::nullopt;
            ++run;
        } else if (text[i] == ',' && run >= 1 && run <= 3 && digit(text, i + 1) && digit(text, i + 2) &&
                   digit(text, i + 3) && !digit(text, i + 4)) {
            run = 0; // a thousands separator: exactly three digits follow
        } else {
            break;
        }
    }
    for (size_t k = i; k > pos + 1 && text[k - 1] == '0'; --k) ++n.trailing_zeros;
    if (i + 1 < text.size() && text[i] == '.' && digit(text, i + 1)) {
        n.trailing_zeros = 0;
        for (++i; digit(text, i); ++i) {
            if (!push(text[i])) return std::nullopt;
            ++n.decimals;
        }
    }
    const auto scale = power_of_ten(n.decimals);
    const auto value = scale ? make_rational(mantissa, scale->num) : std::nullopt;
    if (!value) return std::nullopt;
    n.value = *value;
    pos = i;
    return n;
}

std::optional<EvaluatedExpression> evaluate_expression(std::string_view text) { return Parser(text).whole(); }

} // namespace octo
