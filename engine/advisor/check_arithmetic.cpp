// arithmetic_claims: "expression = | ≈ | 约 | approximately … result" outside code fences, where
// the expression has at least one operator and the result is a number, a fraction a/b or a
// percentage. Evaluation is exact (exact_rational.h). How a claim is judged (docs/advisor.md):
//  - a result written with d decimals stands for the true value rounded to d decimals (in the
//    result's unit: 2.7% is compared with 100 × value), for '=' and for '≈' alike;
//  - an integer result must be exact after '='; after '≈' it is rounded to its last non-zero
//    digit (≈ 120 means to the tens);
//  - a fraction result must be exact after '='; an '≈' with a fraction is not judged;
//  - a tie (exactly half a unit off) is accepted either way.
// Claims that cannot be read unambiguously are skipped, never reported: an expression glued to
// a letter, ^, ** or a closing bracket before it (a variable, power or function call), or a
// result followed by another operator or glued to a letter.
#include "engine/advisor/arithmetic_expression.h"
#include "engine/advisor/code_fences.h"
#include "engine/advisor/output_check_kinds.h"

namespace octo {

namespace {

struct Relation {
    std::string_view text;
    bool approximate;
    bool word; // English: needs a space before it
};

// Longest first where one is a prefix of another.
constexpr Relation kRelations[] = {
    {"is approximately", true, true}, {"is about", true, true}, {"is roughly", true, true},
    {"is around", true, true},        {"is equal to", false, true}, {"approximately", true, true},
    {"approx.", true, true},          {"about", true, true},        {"roughly", true, true},
    {"around", true, true},           {"equals", false, true},      {"≈", true, false},
    {"≃", true, false},               {"约等于", true, false},      {"约为", true, false},
    {"大约", true, false},            {"约", true, false},          {"等于", false, false},
    {"=", false, false},              {"＝", false, false},
};

bool ascii_alnum(char c) {
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

bool space(char c) { return c == ' ' || c == '\t'; }

bool same_ascii_lower(std::string_view text, size_t at, std::string_view word) {
    if (text.size() - at < word.size()) return false;
    for (size_t k = 0; k < word.size(); ++k) {
        const char c = text[at + k];
        if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c) != word[k]) return false;
    }
    return true;
}

// The relation at `at`, if any. '=' must not be part of ==, !=, <=, >= or =>.
const Relation* relation_at(std::string_view t, size_t at) {
    for (const Relation& r : kRelations) {
        if (!same_ascii_lower(t, at, r.text)) continue;
        const size_t end = at + r.text.size();
        if (r.word && ((at > 0 && !space(t[at - 1])) || (end < t.size() && ascii_alnum(t[end])))) continue;
        if (r.text == "=" && ((at > 0 && (t[at - 1] == '=' || t[at - 1] == '!' || t[at - 1] == '<' || t[at - 1] == '>')) ||
                              (end < t.size() && (t[end] == '=' || t[end] == '>')))) {
            return nullptr;
        }
        return &r;
    }
    return nullptr;
}

bool digit(std::string_view t, size_t i) { return i < t.size() && t[i] >= '0' && t[i] <= '9'; }

// The byte length of the arithmetic character ending at `end`, or 0.
size_t arithmetic_before(std::string_view t, size_t end) {
    for (std::string_view s : {"−", "×", "÷", "（", "）", "％"}) {
        if (end >= s.size() && t.substr(end - s.size(), s.size()) == s) return s.size();
    }
    if (end == 0) return 0;
    const char c = t[end - 1];
    if (c == '*' && end >= 2 && t[end - 2] == '*') return 0; // ** is a power or Markdown bold
    if (digit(t, end - 1) || c == '%' || c == '+' || c == '-' || c == '*' || c == '/' || c == '(' || c == ')' || space(c)) {
        return 1;
    }
    if (c == '.' && digit(t, end)) return 1;
    if (c == ',' && end >= 2 && digit(t, end - 2) && digit(t, end)) return 1;
    return 0;
}

// Whether an expression may start at `at`: not glued to a variable, a power or a call.
bool free_start(std::string_view t, size_t at) {
    if (at == 0) return true;
    const char c = t[at - 1];
    if (c == '*' && at >= 2 && t[at - 2] == '*') return at == 2 || !(ascii_alnum(t[at - 3]) || t[at - 3] == ')');
    return !(ascii_alnum(c) || c == '_' || c == '^' || c == '.' || c == ')' || c == ']' || c == '}' || c == '\\');
}

struct Expression {
    size_t start;
    EvaluatedExpression value;
};

// The expression that ends at `end`: the arithmetic run before it, or a part of the run that
// follows white space after a complete number (as in "in 2023 (a-b)/b").
std::optional<Expression> expression_before(std::string_view t, size_t end) {
    size_t start = end;
    while (size_t n = arithmetic_before(t, start)) start -= n;
    while (start < end && space(t[start])) ++start;
    for (size_t s = start; s < end; ++s) {
        if (s > start && !(space(t[s - 1]) && !space(t[s]))) continue;
        if (s > start) {
            size_t before = s - 1;
            while (before > start && space(t[before])) --before;
            if (!(digit(t, before) || t[before] == ')' || t[before] == '%')) continue;
        } else if (!free_start(t, s)) {
            return std::nullopt;
        }
        if (auto v = evaluate_expression(t.substr(s, end - s)); v && v->operators > 0) return Expression{s, *v};
    }
    return std::nullopt;
}

struct Stated {
    Rational value;
    Rational unit; // the rounding unit in the value's own scale (0: exact)
    bool percent = false;
    bool fraction = false;
    size_t end = 0;
};

size_t skip_bold(std::string_view t, size_t i) {
    while (i < t.size() && space(t[i])) ++i;
    return t.substr(i, 2) == "**" ? i + 2 : i;
}

std::optional<Stated> stated_after(std::string_view t, size_t from, bool approximate) {
    size_t i = skip_bold(t, from);
    bool negative = false;
    if (t.substr(i, 1) == "-") negative = true, i += 1;
    else if (t.substr(i, 3) == "−") negative = true, i += 3;
    auto n = parse_decimal(t, i);
    if (!n) return std::nullopt;
    Stated s;
    s.value = n->value;
    if (negative) s.value.num = -s.value.num;
    if (t.substr(i, 1) == "/" && digit(t, i + 1)) {
        ++i;
        auto d = parse_decimal(t, i);
        const auto q = d ? divide(s.value, d->value) : std::nullopt;
        if (!q) return std::nullopt;
        s.value = *q;
        s.fraction = true;
        if (approximate) return std::nullopt; // ≈ with a fraction is not judged
    } else {
        size_t j = i;
        while (j < t.size() && space(t[j])) ++j;
        if (t.substr(j, 1) == "%" || t.substr(j, 3) == "％") s.percent = true, i = j + (t[j] == '%' ? 1 : 3);
        const int exponent = n->decimals > 0 ? -n->decimals : (approximate ? n->trailing_zeros : 0);
        const auto unit = power_of_ten(exponent);
        if (!unit) return std::nullopt;
        s.unit = (n->decimals > 0 || approximate) ? *unit : Rational{0, 1};
    }
    if (i < t.size() && (ascii_alnum(t[i]) || t[i] == '_')) return std::nullopt; // 5x, 5th, 2.5e3
    s.end = i;
    if (t.substr(i, 2) == "**") i += 2;
    size_t j = i;
    while (j < t.size() && space(t[j])) ++j;
    if (j < t.size() && (t[j] == '+' || t[j] == '-' || t[j] == '*' || t[j] == '/' || t[j] == '^' ||
                         (t[j] == '.' && digit(t, j + 1)) || t.substr(j, 3) == "−" || t.substr(j, 2) == "×" ||
                         t.substr(j, 2) == "÷")) {
        return std::nullopt; // the result is itself an expression
    }
    return s;
}

// The stated result as written, without the spaces and bold markers before it.
std::string_view stated_text(std::string_view t, size_t relation_end, const Stated& s) {
    size_t from = relation_end;
    while (from < s.end && (space(t[from]) || t[from] == '*')) ++from;
    return t.substr(from, s.end - from);
}

// "expected" text: the true value at the stated precision.
std::string expected_text(Rational value, const Stated& s) {
    const auto units = round_to_units(value, s.unit);
    if (!units) return "?";
    const int64_t magnitude = *units < 0 ? -*units : *units;
    std::string digits;
    if (s.unit.den > 1) { // decimals: as many as the unit's denominator has zeros
        const size_t decimals = std::to_string(s.unit.den).size() - 1;
        digits = std::to_string(magnitude);
        if (digits.size() <= decimals) digits.insert(0, decimals + 1 - digits.size(), '0');
        digits.insert(digits.size() - decimals, ".");
    } else {
        digits = std::to_string(magnitude * s.unit.num);
    }
    return (*units < 0 ? "-" : "") + digits + (s.percent ? "%" : "");
}

LocalText claim_detail(std::string_view t, const Expression& e, size_t relation_start, const Relation& r,
                       const Stated& s, Rational scaled) {
    std::string_view expression = t.substr(e.start, relation_start - e.start);
    expression = expression.substr(0, expression.find_last_not_of(" \t") + 1);
    std::string value = std::string(expression) + " = " + decimal_text(e.value.value);
    if (s.fraction && e.value.value.den != 1) value += " (" + fraction_text(e.value.value) + ")";
    if (s.percent) value += " (" + decimal_text(scaled) + "%)";
    const std::string stated = std::string(r.text) + " " + std::string(stated_text(t, relation_start + r.text.size(), s));
    LocalText detail{value + ", stated " + stated, value + "，文中写的是 " + stated};
    if (s.unit.num != 0) {
        detail.en += "; to the stated digits it is " + expected_text(scaled, s);
        detail.zh += "；按所写的位数应为 " + expected_text(scaled, s);
    }
    return detail;
}

} // namespace

std::vector<CheckHit> check_arithmetic_claims(std::string_view output) {
    std::vector<CheckHit> out;
    const auto fences = fenced_blocks(output);
    for (size_t at = 0; at < output.size(); ++at) {
        const Relation* r = relation_at(output, at);
        if (!r) continue;
        const size_t relation_start = at;
        at += r->text.size() - 1; // the loop's ++ steps past the relation
        if (inside_fence(fences, relation_start)) continue;
        const auto e = expression_before(output, relation_start);
        const auto s = e ? stated_after(output, relation_start + r->text.size(), r->approximate) : std::nullopt;
        if (!s) continue;
        const auto scaled = s->percent ? multiply(e->value.value, Rational{100, 1}) : e->value.value;
        if (!scaled) continue;
        const auto holds = s->unit.num == 0 ? std::optional<bool>(scaled->num == s->value.num && scaled->den == s->value.den)
                                             : within_half_unit(*scaled, s->value, s->unit);
        if (!holds || *holds) continue;
        out.push_back(CheckHit{e->start, s->end, claim_detail(output, *e, relation_start, *r, *s, *scaled)});
    }
    return out;
}

} // namespace octo
