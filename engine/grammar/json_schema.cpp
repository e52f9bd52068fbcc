#include "engine/grammar/json_schema.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/utf8_text.h"
#include "engine/tokenizer/utf8.h"

namespace octo {

namespace {

using Json = nlohmann::ordered_json;

struct SchemaError {
    std::string message;
};

[[noreturn]] void fail(const std::string& pointer, const std::string& what) {
    throw SchemaError{(pointer.empty() ? std::string("/") : pointer) + ": " + what};
}

std::string hex2(unsigned v) {
    static const char* digits = "0123456789ABCDEF";
    return std::string{digits[(v >> 4) & 0xF], digits[v & 0xF]};
}

// A GBNF literal for `text` (UTF-8): quotes, backslashes and ASCII controls escaped.
std::string literal(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 || u == 0x7F) {
            out += "\\x" + hex2(u);
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// A code point as it may stand inside a GBNF character class.
std::string class_char(char32_t c) {
    if (c == '\\' || c == ']' || c == '[' || c == '-' || c == '^' || c == '"') return std::string("\\") + static_cast<char>(c);
    if (c < 0x20 || c == 0x7F) return "\\x" + hex2(static_cast<unsigned>(c));
    std::string out;
    append_utf8(static_cast<uint32_t>(c), out);
    return out;
}

using Ranges = std::vector<std::pair<char32_t, char32_t>>;

Ranges normalised(Ranges r) {
    std::sort(r.begin(), r.end());
    Ranges out;
    for (const auto& [lo, hi] : r) {
        if (!out.empty() && lo <= out.back().second + 1) {
            out.back().second = std::max(out.back().second, hi);
        } else {
            out.emplace_back(lo, hi);
        }
    }
    return out;
}

Ranges complement(const Ranges& r) {
    Ranges out;
    char32_t next = 0;
    for (const auto& [lo, hi] : normalised(r)) {
        if (lo > next) out.emplace_back(next, lo - 1);
        next = hi + 1;
    }
    if (next <= 0x10FFFF) out.emplace_back(next, 0x10FFFF);
    return out;
}

bool contains(const Ranges& r, char32_t c) {
    for (const auto& [lo, hi] : r) {
        if (c >= lo && c <= hi) return true;
    }
    return false;
}

// How JSON writes the character `c` inside a string.
std::string json_escaped(char32_t c) {
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\b': return "\\b";
    case '\f': return "\\f";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
    }
    if (c < 0x20) return "\\u00" + std::string(hex2(static_cast<unsigned>(c)));
    std::string out;
    append_utf8(static_cast<uint32_t>(c), out);
    return out;
}

// GBNF for one JSON string character whose decoded value is in `set`: the plain characters as a
// class, the ones JSON must escape (", \, controls) as their escapes.
std::string json_char_of(const Ranges& set) {
    Ranges plain;
    for (const auto& [lo, hi] : normalised(set)) {
        char32_t a = std::max<char32_t>(lo, 0x20);
        for (char32_t cut : {char32_t{'"'}, char32_t{'\\'}}) {
            if (a <= cut && cut <= hi) {
                if (a < cut) plain.emplace_back(a, cut - 1);
                a = cut + 1;
            }
        }
        if (a <= hi) plain.emplace_back(a, hi);
    }
    std::vector<std::string> alternatives;
    if (!plain.empty()) {
        std::string cls = "[";
        for (const auto& [lo, hi] : plain) cls += lo == hi ? class_char(lo) : class_char(lo) + "-" + class_char(hi);
        alternatives.push_back(cls + "]");
    }
    for (char32_t c = 0; c < 0x20; ++c) {
        if (contains(set, c)) alternatives.push_back(literal(json_escaped(c)));
    }
    if (contains(set, '"')) alternatives.push_back(literal("\\\""));
    if (contains(set, '\\')) alternatives.push_back(literal("\\\\"));
    if (alternatives.empty()) return "";
    if (alternatives.size() == 1) return alternatives[0];
    std::string out = "(";
    for (size_t i = 0; i < alternatives.size(); ++i) out += (i ? " | " : "") + alternatives[i];
    return out + ")";
}

// A regular expression (JSON Schema's `pattern`) as GBNF over the JSON-escaped text.
class PatternCompiler {
public:
    PatternCompiler(std::string_view pattern, std::string pointer) : pointer_(std::move(pointer)) {
        size_t at = 0;
        while (at < pattern.size()) {
            auto cp = code_point_at(pattern, at);
            if (!cp) fail(pointer_, "the pattern is not valid UTF-8");
            chars_.push_back(cp->value);
            at += cp->size;
        }
    }

    std::string compile(const std::string& any_char) {
        bool anchored_start = false, anchored_end = false;
        if (!chars_.empty() && chars_.front() == '^') {
            anchored_start = true;
            chars_.erase(chars_.begin());
        }
        if (!chars_.empty() && chars_.back() == '$' && (chars_.size() < 2 || chars_[chars_.size() - 2] != '\\')) {
            anchored_end = true;
            chars_.pop_back();
        }
        std::string body = alternation();
        if (at_ < chars_.size()) fail(pointer_, "unbalanced ')' in the pattern");
        std::string out;
        if (!anchored_start) out += any_char + "* ";
        out += "(" + body + ")";
        if (!anchored_end) out += " " + any_char + "*";
        return out;
    }

private:
    bool more() const { return at_ < chars_.size(); }
    char32_t peek() const { return chars_[at_]; }

    std::string alternation() {
        std::string out = sequence();
        while (more() && peek() == '|') {
            ++at_;
            out += " | " + sequence();
        }
        return out;
    }

    std::string sequence() {
        std::string out;
        while (more() && peek() != '|' && peek() != ')') {
            std::string atom_text = atom();
            atom_text += quantifier();
            out += (out.empty() ? "" : " ") + atom_text;
        }
        return out.empty() ? "\"\"" : out;
    }

    std::string quantifier() {
        if (!more()) return "";
        std::string q;
        const char32_t c = peek();
        if (c == '*' || c == '+' || c == '?') {
            ++at_;
            q = std::string(1, static_cast<char>(c));
        } else if (c == '{') {
            size_t end = at_ + 1;
            std::string inside;
            while (end < chars_.size() && chars_[end] != '}') inside += static_cast<char>(chars_[end++]);
            if (end == chars_.size()) fail(pointer_, "an unclosed '{' in the pattern");
            // {m}, {m,} or {m,n}: m is required ({,n} is not a quantifier in ECMAScript), n >= m,
            // both within the grammar's repetition limit (1000)
            const size_t comma = inside.find(',');
            const std::string lo = inside.substr(0, comma);
            const std::string hi = comma == std::string::npos ? lo : inside.substr(comma + 1);
            const auto digits = [](const std::string& t) { return std::all_of(t.begin(), t.end(), [](char d) { return d >= '0' && d <= '9'; }); };
            if (lo.empty() || !digits(lo) || !digits(hi)) fail(pointer_, "a malformed {m,n} in the pattern");
            if (lo.size() > 4 || hi.size() > 4 || std::stoi(lo) > 1000 || (!hi.empty() && std::stoi(hi) > 1000)) {
                fail(pointer_, "a repetition {m,n} above 1000 in the pattern");
            }
            if (!hi.empty() && std::stoi(hi) < std::stoi(lo)) fail(pointer_, "a repetition {m,n} with n < m in the pattern");
            at_ = end + 1;
            q = "{" + inside + "}";
        }
        if (!q.empty() && more() && peek() == '?') ++at_; // lazy: the same language
        if (more() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{')) {
            fail(pointer_, "a repeated quantifier in the pattern");
        }
        return q;
    }

    Ranges escape_class(char32_t e) {
        switch (e) {
        case 'd': return {{'0', '9'}};
        case 'D': return complement({{'0', '9'}});
        case 'w': return {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
        case 'W': return complement({{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}});
        case 's': return {{'\t', '\r'}, {' ', ' '}};
        case 'S': return complement({{'\t', '\r'}, {' ', ' '}});
        case 'n': return {{'\n', '\n'}};
        case 't': return {{'\t', '\t'}};
        case 'r': return {{'\r', '\r'}};
        case 'f': return {{'\f', '\f'}};
        case 'v': return {{'\v', '\v'}};
        default: break;
        }
        if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
            fail(pointer_, "the pattern escape \\" + std::string(1, static_cast<char>(e)) + " is not supported");
        }
        return {{e, e}};
    }

    std::string atom() {
        const char32_t c = chars_[at_++];
        switch (c) {
        case '(': {
            if (more() && peek() == '?') {
                if (at_ + 1 < chars_.size() && chars_[at_ + 1] == ':') {
                    at_ += 2;
                } else {
                    fail(pointer_, "lookarounds and named groups are not supported in the pattern");
                }
            }
            std::string inner = alternation();
            if (!more() || peek() != ')') fail(pointer_, "an unclosed '(' in the pattern");
            ++at_;
            return "(" + inner + ")";
        }
        case '[': return json_char_of(char_class());
        case '.': return json_char_of(complement({{'\n', '\n'}}));
        case '\\': {
            if (!more()) fail(pointer_, "the pattern ends with a backslash");
            return json_char_of(escape_class(chars_[at_++]));
        }
        case '^':
        case '$': fail(pointer_, "anchors are supported only at the pattern's start and end");
        case '*':
        case '+':
        case '?':
        case '{': fail(pointer_, "a quantifier with nothing to repeat in the pattern");
        default: return literal(json_escaped(c));
        }
    }

    Ranges char_class() {
        bool negated = false;
        if (more() && peek() == '^') {
            negated = true;
            ++at_;
        }
        Ranges set;
        bool first = true;
        while (more() && (peek() != ']' || first)) {
            first = false;
            char32_t lo = chars_[at_++];
            if (lo == '\\') {
                if (!more()) fail(pointer_, "an unclosed '[' in the pattern");
                const Ranges e = escape_class(chars_[at_++]);
                if (e.size() != 1 || e[0].first != e[0].second) { // a class such as \d
                    set.insert(set.end(), e.begin(), e.end());
                    continue;
                }
                lo = e[0].first;
            }
            char32_t hi = lo;
            if (at_ + 1 < chars_.size() && peek() == '-' && chars_[at_ + 1] != ']') {
                ++at_;
                hi = chars_[at_++];
                if (hi == '\\') {
                    if (!more()) fail(pointer_, "an unclosed '[' in the pattern");
                    const Ranges e = escape_class(chars_[at_++]);
                    if (e.size() != 1 || e[0].first != e[0].second) fail(pointer_, "a class cannot end a range");
                    hi = e[0].first;
                }
                if (hi < lo) fail(pointer_, "a reversed range in a pattern class");
            }
            set.emplace_back(lo, hi);
        }
        if (!more()) fail(pointer_, "an unclosed '[' in the pattern");
        ++at_;
        return negated ? complement(set) : normalised(set);
    }

    std::string pointer_;
    std::vector<char32_t> chars_;
    size_t at_ = 0;
};

// The decimal numbers n with lo <= n <= hi, both of `digits` digits (no leading zeros but 0).
std::string same_length_range(const std::string& lo, const std::string& hi) {
    if (lo.size() == 1) return lo == hi ? literal(lo) : "[" + lo + "-" + hi + "]";
    if (lo[0] == hi[0]) return literal(lo.substr(0, 1)) + " (" + same_length_range(lo.substr(1), hi.substr(1)) + ")";
    const size_t rest = lo.size() - 1;
    std::vector<std::string> alternatives;
    alternatives.push_back(literal(lo.substr(0, 1)) + " (" + same_length_range(lo.substr(1), std::string(rest, '9')) + ")");
    if (lo[0] + 1 <= hi[0] - 1) {
        alternatives.push_back("[" + std::string(1, static_cast<char>(lo[0] + 1)) + "-" + std::string(1, static_cast<char>(hi[0] - 1)) +
                               "] [0-9]{" + std::to_string(rest) + "}");
    }
    alternatives.push_back(literal(hi.substr(0, 1)) + " (" + same_length_range(std::string(rest, '0'), hi.substr(1)) + ")");
    std::string out;
    for (size_t i = 0; i < alternatives.size(); ++i) out += (i ? " | " : "") + alternatives[i];
    return out;
}

// Non-negative integers in [lo, hi]; hi empty: no upper bound.
std::string natural_range(uint64_t lo, std::optional<uint64_t> hi) {
    std::vector<std::string> alternatives;
    const std::string lo_text = std::to_string(lo);
    const size_t max_digits = hi ? std::to_string(*hi).size() : lo_text.size();
    for (size_t digits = lo_text.size(); digits <= max_digits; ++digits) {
        const std::string a = digits == lo_text.size() ? lo_text : "1" + std::string(digits - 1, '0');
        const std::string b = hi && digits == max_digits ? std::to_string(*hi) : std::string(digits, '9');
        alternatives.push_back("(" + same_length_range(a, b) + ")");
    }
    if (!hi) alternatives.push_back("[1-9] [0-9]{" + std::to_string(lo_text.size()) + ",15}");
    std::string out;
    for (size_t i = 0; i < alternatives.size(); ++i) out += (i ? " | " : "") + alternatives[i];
    return out;
}

class SchemaCompiler {
public:
    explicit SchemaCompiler(const Json& root) : root_(root) {}

    std::string run(std::string_view before, std::string_view after) {
        const std::string body = value(root_, "");
        std::string out = "root ::= " + (before.empty() ? "" : literal(before) + " ") + body +
                          (after.empty() ? "" : " " + literal(after)) + "\n";
        for (const auto& [name, rule] : rules_) out += name + " ::= " + rule + "\n";
        return out;
    }

    // The shared rules, named once.
    std::string ws() { return shared("ws", R"(| " " | "\n" [ \t]{0,20})"); }
    std::string json_char() { return shared("char", R"([^"\\\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4}))"); }
    std::string string_rule() { return shared("string", "\"\\\"\" " + json_char() + "* \"\\\"\""); }
    std::string number() {
        return shared("number", R"("-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,2})?)");
    }
    std::string integer() { return shared("integer", R"("-"? ("0" | [1-9] [0-9]{0,15}))"); }
    std::string boolean() { return shared("boolean", R"("true" | "false")"); }
    std::string null() { return shared("null", R"("null")"); }
    std::string any_value() {
        if (!rules_.count("value")) {
            rules_["value"] = ""; // named before its parts, which refer to it
            const std::string w = ws();
            const std::string s = string_rule();
            rules_["object"] = "\"{\" " + w + " ( " + s + " " + w + " \":\" " + w + " value " + w + " ( \",\" " + w + " " + s + " " +
                               w + " \":\" " + w + " value " + w + " )* )? \"}\"";
            rules_["array"] = "\"[\" " + w + " ( value " + w + " ( \",\" " + w + " value " + w + " )* )? \"]\"";
            rules_["value"] = "object | array | " + s + " | " + number() + " | " + boolean() + " | " + null();
        }
        return "value";
    }

private:
    std::string shared(const std::string& name, const std::string& body) {
        if (!rules_.count(name)) rules_[name] = body;
        return name;
    }

    // A fresh rule name from a JSON pointer.
    std::string fresh(const std::string& pointer) {
        std::string base;
        for (const char c : pointer) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (ok) {
                base += c;
            } else if (!base.empty() && base.back() != '-') {
                base += '-';
            }
        }
        while (!base.empty() && base.back() == '-') base.pop_back();
        base = "s-" + (base.empty() ? std::string("root") : base);
        std::string name = base;
        for (int i = 2; rules_.count(name) || taken_.count(name); ++i) name = base + "-" + std::to_string(i);
        taken_.insert(name);
        return name;
    }

    std::string named(const std::string& pointer, const std::string& body) {
        const std::string name = fresh(pointer);
        rules_[name] = body;
        return name;
    }

    static void check_keywords(const Json& schema, const std::string& pointer) {
        static const std::set<std::string> known = {
            "type", "properties", "required", "additionalProperties", "items", "prefixItems", "minItems", "maxItems",
            "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
            "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "$defs", "definitions",
            // annotations
            "title", "description", "default", "examples", "$schema", "$id", "$comment", "deprecated", "readOnly",
            "writeOnly", "strict", "name"};
        for (const auto& [key, value] : schema.items()) {
            if (!known.count(key)) fail(pointer + "/" + key, "the keyword \"" + key + "\" is not supported");
        }
    }

    static uint64_t count(const Json& schema, const char* key, const std::string& pointer, uint64_t fallback) {
        if (!schema.contains(key)) return fallback;
        const Json& v = schema[key];
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0)) {
            fail(pointer + "/" + key, "must be a non-negative integer");
        }
        return v.get<uint64_t>();
    }

    std::string value(const Json& schema, const std::string& pointer) {
        if (schema.is_boolean()) {
            if (!schema.get<bool>()) fail(pointer, "the schema false accepts no document");
            return any_value();
        }
        if (!schema.is_object()) fail(pointer, "a schema must be an object or a boolean");
        check_keywords(schema, pointer);
        if (schema.contains("$ref")) return reference(schema, pointer);
        if (schema.contains("const")) return literal(schema["const"].dump());
        if (schema.contains("enum")) {
            const Json& values = schema["enum"];
            if (!values.is_array() || values.empty()) fail(pointer + "/enum", "must be a non-empty array");
            std::string out;
            for (const Json& v : values) out += (out.empty() ? "" : " | ") + literal(v.dump());
            return "(" + out + ")";
        }
        for (const char* key : {"anyOf", "oneOf"}) {
            if (!schema.contains(key)) continue;
            const Json& list = schema[key];
            if (!list.is_array() || list.empty()) fail(pointer + "/" + key, "must be a non-empty array");
            std::string out;
            for (size_t i = 0; i < list.size(); ++i) {
                out += (i ? " | " : "") + value(list[i], pointer + "/" + key + "/" + std::to_string(i));
            }
            return "(" + out + ")";
        }
        if (schema.contains("allOf")) {
            const Json& list = schema["allOf"];
            if (!list.is_array() || list.size() != 1) fail(pointer + "/allOf", "only an allOf of one schema is supported");
            return value(list[0], pointer + "/allOf/0");
        }
        std::vector<std::string> types;
        if (schema.contains("type")) {
            const Json& t = schema["type"];
            if (t.is_string()) {
                types.push_back(t.get<std::string>());
            } else if (t.is_array() && !t.empty()) {
                for (const Json& one : t) {
                    if (!one.is_string()) fail(pointer + "/type", "must be a type name or a list of them");
                    types.push_back(one.get<std::string>());
                }
            } else {
                fail(pointer + "/type", "must be a type name or a list of them");
            }
        } else if (schema.contains("properties") || schema.contains("additionalProperties") || schema.contains("required")) {
            types.push_back("object");
        } else if (schema.contains("items") || schema.contains("prefixItems")) {
            types.push_back("array");
        } else if (schema.contains("pattern") || schema.contains("minLength") || schema.contains("maxLength") ||
                   schema.contains("format")) {
            types.push_back("string");
        } else {
            return any_value();
        }
        std::string out;
        for (const std::string& type : types) out += (out.empty() ? "" : " | ") + typed(schema, type, pointer);
        return types.size() == 1 ? out : "(" + out + ")";
    }

    std::string typed(const Json& schema, const std::string& type, const std::string& pointer) {
        const bool numeric_bounds = schema.contains("minimum") || schema.contains("maximum") ||
                                    schema.contains("exclusiveMinimum") || schema.contains("exclusiveMaximum");
        if (numeric_bounds && type != "integer") {
            fail(pointer, "minimum and maximum are supported on integers only (a grammar of bounded decimals is not)");
        }
        if (type == "object") return object(schema, pointer);
        if (type == "array") return array(schema, pointer);
        if (type == "string") return string(schema, pointer);
        if (type == "number") return number();
        if (type == "integer") return numeric_bounds ? bounded_integer(schema, pointer) : integer();
        if (type == "boolean") return boolean();
        if (type == "null") return null();
        fail(pointer + "/type", "unknown type \"" + type + "\"");
    }

    std::string reference(const Json& schema, const std::string& pointer) {
        if (schema.size() > 1) {
            for (const auto& [key, v] : schema.items()) {
                if (key != "$ref" && key != "description" && key != "title" && key != "$comment" && key != "$defs" &&
                    key != "definitions" && key != "$schema" && key != "$id") {
                    fail(pointer, "keywords beside $ref are not supported (\"" + key + "\")");
                }
            }
        }
        if (!schema["$ref"].is_string()) fail(pointer + "/$ref", "must be a string");
        const std::string ref = schema["$ref"].get<std::string>();
        if (auto it = refs_.find(ref); it != refs_.end()) return it->second;
        const Json* target = nullptr;
        if (ref == "#") {
            target = &root_;
        } else {
            for (const char* prefix : {"#/$defs/", "#/definitions/"}) {
                const std::string p = prefix;
                if (ref.rfind(p, 0) != 0) continue;
                const std::string section = p.substr(2, p.size() - 3);
                const std::string name = ref.substr(p.size());
                if (root_.contains(section) && root_[section].is_object() && root_[section].contains(name)) {
                    target = &root_[section][name];
                }
            }
        }
        if (!target) fail(pointer + "/$ref", "\"" + ref + "\" is not a definition in this schema (#, #/$defs/NAME, #/definitions/NAME)");
        const std::string name = fresh(ref.substr(1));
        refs_[ref] = name;
        rules_[name] = "";
        rules_[name] = value(*target, ref.substr(1));
        return name;
    }

    std::string object(const Json& schema, const std::string& pointer) {
        const std::string w = ws();
        std::vector<std::string> pairs;
        std::vector<bool> required;
        std::set<std::string> required_names;
        if (schema.contains("required")) {
            if (!schema["required"].is_array()) fail(pointer + "/required", "must be an array of names");
            for (const Json& n : schema["required"]) {
                if (!n.is_string()) fail(pointer + "/required", "must be an array of names");
                required_names.insert(n.get<std::string>());
            }
        }
        std::set<std::string> declared;
        if (schema.contains("properties")) {
            if (!schema["properties"].is_object()) fail(pointer + "/properties", "must be an object");
            for (const auto& [key, sub] : schema["properties"].items()) {
                const std::string v = value(sub, pointer + "/properties/" + key);
                pairs.push_back(named(pointer + "/" + key + "-kv", literal(Json(key).dump()) + " " + w + " \":\" " + w + " " + v + " " + w));
                required.push_back(required_names.count(key) == 1);
                declared.insert(key);
            }
        }
        for (const std::string& n : required_names) {
            if (!declared.count(n)) fail(pointer + "/required", "\"" + n + "\" is required but not among the properties");
        }
        std::string extra;
        if (schema.contains("additionalProperties")) {
            const Json& a = schema["additionalProperties"];
            if (!(a.is_boolean() && !a.get<bool>())) {
                const std::string v = value(a, pointer + "/additionalProperties");
                extra = named(pointer + "/extra-kv", string_rule() + " " + w + " \":\" " + w + " " + v + " " + w);
            }
        }
        // after[k]: the rest once something was written, from property k; first[k]: nothing yet.
        const size_t n = pairs.size();
        std::vector<std::string> after(n + 1), first(n + 1);
        after[n] = extra.empty() ? "" : "( \",\" " + w + " " + extra + " )*";
        first[n] = extra.empty() ? "" : "( " + extra + " " + after[n] + " )?";
        for (size_t k = n; k-- > 0;) {
            const std::string then = after[k + 1];
            const std::string tail = then.empty() ? "" : " " + named(pointer + "/after-" + std::to_string(k + 1), then);
            if (required[k]) {
                after[k] = "\",\" " + w + " " + pairs[k] + tail;
                first[k] = pairs[k] + tail;
            } else {
                after[k] = "( \",\" " + w + " " + pairs[k] + " )?" + tail;
                const std::string rest = first[k + 1].empty() ? "" : named(pointer + "/first-" + std::to_string(k + 1), first[k + 1]);
                first[k] = "( " + pairs[k] + tail + (rest.empty() ? " )?" : " | " + rest + " )");
            }
        }
        return named(pointer.empty() ? "/object" : pointer, "\"{\" " + w + " " + first[0] + (first[0].empty() ? "" : " ") + "\"}\"");
    }

    std::string array(const Json& schema, const std::string& pointer) {
        const std::string w = ws();
        const uint64_t min_items = count(schema, "minItems", pointer, 0);
        const uint64_t max_items = count(schema, "maxItems", pointer, std::numeric_limits<uint64_t>::max());
        if (max_items < min_items) fail(pointer + "/maxItems", "is below minItems");
        std::vector<std::string> prefix;
        if (schema.contains("prefixItems")) {
            const Json& list = schema["prefixItems"];
            if (!list.is_array()) fail(pointer + "/prefixItems", "must be an array of schemas");
            for (size_t i = 0; i < list.size(); ++i) prefix.push_back(value(list[i], pointer + "/prefixItems/" + std::to_string(i)));
        }
        std::string item;
        if (schema.contains("items")) {
            const Json& items = schema["items"];
            if (!(items.is_boolean() && !items.get<bool>())) item = value(items, pointer + "/items");
        } else if (prefix.empty()) {
            item = any_value();
        } else {
            item = any_value();
        }
        std::string body = "\"[\" " + w;
        for (size_t i = 0; i < prefix.size(); ++i) body += (i ? " \",\" " + w + " " : " ") + prefix[i] + " " + w;
        if (!item.empty() && max_items > prefix.size()) {
            const uint64_t lo = min_items > prefix.size() ? min_items - prefix.size() : 0;
            const bool unbounded = max_items == std::numeric_limits<uint64_t>::max() || max_items > 1000;
            const uint64_t hi = unbounded ? 0 : max_items - prefix.size();
            const std::string element = item + " " + w;
            if (prefix.empty()) {
                // lo..hi elements, the first without a comma.
                const std::string more = "( \",\" " + w + " " + element + " )";
                const std::string rest_lo = std::to_string(lo == 0 ? 0 : lo - 1);
                const std::string rest = unbounded ? more + "{" + rest_lo + ",}" : more + "{" + rest_lo + "," + std::to_string(hi - 1) + "}";
                body += lo == 0 ? " ( " + element + " " + rest + " )?" : " " + element + " " + rest;
            } else {
                const std::string more = "( \",\" " + w + " " + element + " )";
                body += unbounded ? " " + more + "{" + std::to_string(lo) + ",}"
                                  : " " + more + "{" + std::to_string(lo) + "," + std::to_string(hi) + "}";
            }
        } else if (prefix.size() < min_items) {
            fail(pointer + "/minItems", "asks for more items than prefixItems allows");
        }
        return named(pointer.empty() ? "/array" : pointer, body + " \"]\"");
    }

    std::string string(const Json& schema, const std::string& pointer) {
        const std::string quote = "\"\\\"\"";
        if (schema.contains("pattern")) {
            if (schema.contains("minLength") || schema.contains("maxLength") || schema.contains("format")) {
                fail(pointer, "pattern together with minLength, maxLength or format is not supported");
            }
            if (!schema["pattern"].is_string()) fail(pointer + "/pattern", "must be a string");
            PatternCompiler pattern(schema["pattern"].get<std::string>(), pointer + "/pattern");
            return named(pointer.empty() ? "/string" : pointer, quote + " " + pattern.compile(json_char()) + " " + quote);
        }
        if (schema.contains("format")) {
            if (!schema["format"].is_string()) fail(pointer + "/format", "must be a string");
            const std::string f = schema["format"].get<std::string>();
            const std::string date = R"([0-9]{4} "-" ("0" [1-9] | "1" [0-2]) "-" ("0" [1-9] | [12] [0-9] | "3" [01]))";
            const std::string time =
                R"(([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" [0-5] [0-9] ("." [0-9]{1,6})? ("Z" | [+-] ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9]))";
            std::string body;
            if (f == "date") body = date;
            if (f == "time") body = time;
            if (f == "date-time") body = date + " \"T\" " + time;
            if (f == "uuid") {
                body = R"([0-9a-fA-F]{8} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{12})";
            }
            if (!body.empty()) {
                if (schema.contains("minLength") || schema.contains("maxLength")) {
                    fail(pointer, "format together with minLength or maxLength is not supported");
                }
                return named(pointer.empty() ? "/string" : pointer, quote + " " + body + " " + quote);
            }
            // Other formats (email, uri, …) are annotations, as the specification allows.
        }
        const uint64_t lo = count(schema, "minLength", pointer, 0);
        const uint64_t hi = count(schema, "maxLength", pointer, std::numeric_limits<uint64_t>::max());
        if (hi < lo) fail(pointer + "/maxLength", "is below minLength");
        if (lo == 0 && hi == std::numeric_limits<uint64_t>::max()) return string_rule();
        if (lo > 1000 || (hi != std::numeric_limits<uint64_t>::max() && hi > 1000)) {
            fail(pointer, "string length bounds above 1000 are not supported");
        }
        const std::string bounds = hi == std::numeric_limits<uint64_t>::max() ? "{" + std::to_string(lo) + ",}"
                                                                                : "{" + std::to_string(lo) + "," + std::to_string(hi) + "}";
        return named(pointer.empty() ? "/string" : pointer, quote + " " + json_char() + bounds + " " + quote);
    }

    std::string bounded_integer(const Json& schema, const std::string& pointer) {
        std::optional<int64_t> lo, hi;
        const auto bound = [&](const char* key, bool upper, bool exclusive) {
            if (!schema.contains(key)) return;
            const Json& v = schema[key];
            if (!v.is_number()) fail(pointer + "/" + key, "must be a number");
            const double d = v.get<double>();
            if (std::fabs(d) > 1e15) fail(pointer + "/" + key, "bounds beyond ±10^15 are not supported");
            int64_t b = static_cast<int64_t>(upper ? std::floor(d) : std::ceil(d));
            if (exclusive && static_cast<double>(b) == d) b += upper ? -1 : 1;
            auto& slot = upper ? hi : lo;
            slot = slot ? (upper ? std::min(*slot, b) : std::max(*slot, b)) : b;
        };
        bound("minimum", false, false);
        bound("exclusiveMinimum", false, true);
        bound("maximum", true, false);
        bound("exclusiveMaximum", true, true);
        if (lo && hi && *hi < *lo) fail(pointer, "no integer lies between the bounds");
        std::vector<std::string> parts;
        // Negative numbers: "-" then their magnitudes, in [max(1, -hi), -lo] (lo absent: unbounded).
        if (!lo || *lo < 0) {
            const uint64_t mag_lo = hi && *hi < 0 ? static_cast<uint64_t>(-*hi) : 1;
            std::optional<uint64_t> mag_hi;
            if (lo) mag_hi = static_cast<uint64_t>(-*lo);
            parts.push_back("\"-\" (" + natural_range(mag_lo, mag_hi) + ")");
        }
        if (!hi || *hi >= 0) {
            const uint64_t nat_lo = lo && *lo > 0 ? static_cast<uint64_t>(*lo) : 0;
            std::optional<uint64_t> nat_hi;
            if (hi) nat_hi = static_cast<uint64_t>(*hi);
            parts.push_back("(" + natural_range(nat_lo, nat_hi) + ")");
        }
        std::string body;
        for (size_t i = 0; i < parts.size(); ++i) body += (i ? " | " : "") + parts[i];
        return named(pointer.empty() ? "/integer" : pointer, body);
    }

    const Json& root_;
    std::map<std::string, std::string> rules_;
    std::set<std::string> taken_;
    std::map<std::string, std::string> refs_;
};

} // namespace

Result<std::string> json_schema_to_gbnf(std::string_view schema, std::string_view before, std::string_view after) {
    Json root;
    try {
        root = Json::parse(schema);
    } catch (const Json::exception& e) { // a parse error, or a number out of range
        return make_error(ErrorCode::InvalidArgument, std::string("the schema is not valid JSON: ") + e.what());
    }
    try {
        SchemaCompiler compiler(root);
        return compiler.run(before, after);
    } catch (const SchemaError& e) {
        return make_error(ErrorCode::InvalidArgument, "JSON schema " + e.message);
    } catch (const Json::exception& e) {
        return make_error(ErrorCode::InvalidArgument, std::string("JSON schema: ") + e.what());
    }
}

std::string json_object_gbnf() {
    auto gbnf = json_schema_to_gbnf(kJsonObjectSchema);
    return gbnf.ok() ? gbnf.value() : std::string{};
}

} // namespace octo
