// json_valid: the JSON part of the output must parse. The JSON part is each ```json block, or,
// when there is none, the text from the first { or [ on (prose after a complete value is allowed).
#include <algorithm>

#include <nlohmann/json.hpp>

#include "engine/advisor/code_fences.h"
#include "engine/advisor/output_check_kinds.h"

namespace octo {

namespace {

// Accepts every event and records the first parse error (nlohmann's SAX interface).
struct ErrorRecorder {
    using json = nlohmann::json;
    bool failed = false;
    size_t position = 0;       // bytes read when the error was found (the end of the offending token)
    bool string_token = false; // the offending token is a complete string (it ends in '"')
    std::string message;

    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(json::number_integer_t) { return true; }
    bool number_unsigned(json::number_unsigned_t) { return true; }
    bool number_float(json::number_float_t, const json::string_t&) { return true; }
    bool string(json::string_t&) { return true; }
    bool binary(json::binary_t&) { return true; }
    bool start_object(std::size_t) { return true; }
    bool key(json::string_t&) { return true; }
    bool end_object() { return true; }
    bool start_array(std::size_t) { return true; }
    bool end_array() { return true; }
    bool parse_error(std::size_t pos, const std::string& token, const nlohmann::detail::exception& e) {
        failed = true;
        position = pos;
        string_token = token.size() >= 2 && token.back() == '"';
        message = e.what();
        if (const size_t close = message.find("] "); message.front() == '[' && close != std::string::npos) {
            message.erase(0, close + 2); // drop "[json.exception.parse_error.101] "
        }
        return false;
    }
};

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// The parser's own message stays as nlohmann words it (English) in both languages.
LocalText invalid_at(size_t at, const ErrorRecorder& r) {
    return {"invalid JSON at output byte " + std::to_string(at) + ": " + r.message,
            "输出第 " + std::to_string(at) + " 字节处的 JSON 无效：" + r.message};
}

// The span to underline for an error in [from, to): from the offending token to the end of its
// line; at the end of the text or on white space, the last non-space code point.
CheckHit error_hit(std::string_view output, size_t from, size_t to, const ErrorRecorder& r) {
    size_t at = from + (r.position > 0 ? r.position - 1 : 0); // the last character read
    if (r.string_token && at < to && output[at] == '"') {  // back to the string's opening quote
        for (size_t k = at; k-- > from;) {
            if (output[k] == '"' && (k == from || output[k - 1] != '\\')) {
                at = k;
                break;
            }
        }
    }
    if (at >= to || is_space(output[at])) {
        at = std::min(at, to);
        while (at > from && (at >= to || is_space(output[at]))) --at;
        while (at > from && (static_cast<unsigned char>(output[at]) & 0xC0) == 0x80) --at;
        size_t end = at + 1;
        while (end < to && (static_cast<unsigned char>(output[end]) & 0xC0) == 0x80) ++end;
        return CheckHit{at, end, invalid_at(at, r)};
    }
    while (at > from && (static_cast<unsigned char>(output[at]) & 0xC0) == 0x80) --at;
    size_t end = output.find('\n', at);
    end = std::min(end == std::string_view::npos ? to : end, to);
    while (end > at + 1 && is_space(output[end - 1])) --end;
    while (end < to && (static_cast<unsigned char>(output[end]) & 0xC0) == 0x80) ++end;
    return CheckHit{at, end, invalid_at(at, r)};
}

void check_part(std::string_view output, size_t from, size_t to, std::vector<CheckHit>& out) {
    const std::string_view part = output.substr(from, to - from);
    if (part.find_first_not_of(" \t\r\n") == std::string_view::npos) return; // an empty block: nothing to parse
    ErrorRecorder recorder;
    nlohmann::json::sax_parse(part.begin(), part.end(), &recorder, nlohmann::json::input_format_t::json, false);
    if (recorder.failed) out.push_back(error_hit(output, from, to, recorder));
}

} // namespace

std::vector<CheckHit> check_json_valid(std::string_view output) {
    std::vector<CheckHit> out;
    bool fenced = false;
    for (const FencedBlock& b : fenced_blocks(output)) {
        if (b.lang != "json") continue;
        fenced = true;
        check_part(output, b.body_start, b.body_end, out);
    }
    if (fenced) return out;
    const size_t first = output.find_first_of("{[");
    if (first != std::string_view::npos) {
        check_part(output, first, output.size(), out);
    } else if (output.find_first_not_of(" \t\r\n") != std::string_view::npos) {
        const size_t start = output.find_first_not_of(" \t\r\n");
        size_t end = output.find('\n', start);
        if (end == std::string_view::npos) end = output.size();
        while (end > start && is_space(output[end - 1])) --end;
        out.push_back(CheckHit{start, end, {"no JSON object or array in the output", "输出中没有 JSON 对象或数组"}});
    }
    return out;
}

} // namespace octo
