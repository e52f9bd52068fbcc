// python_indentation: in each ```python (or py, python3) block, and in each untagged block that
// looks like Python (a def, class, import or from … import line), the first of these errors, as
// Python's tokenizer reports them: an unexpected indent, a missing indent after a line ending in
// ':', and a dedent to a column that matches no outer level. Blank lines, comments, lines inside
// brackets or triple-quoted strings and backslash continuations are not indentation.
#include "engine/advisor/code_fences.h"
#include "engine/advisor/output_check_kinds.h"
#include "engine/core/regex_pattern.h"

namespace octo {

namespace {

bool looks_like_python(std::string_view body) {
    static const RegexPattern header =
        RegexPattern::compile(R"((?m)^[ \t]*(?-i:def \w+\(|class \w+|import \w+|from [\w.]+ import ))").value();
    return header.found_in(body);
}

// Carries bracket depth, an open triple-quoted string and backslash continuation across lines.
struct LineState {
    int depth = 0;
    char triple = 0; // '"' or '\'' while inside """ or '''
    bool continued = false;
};

// Scans one physical line; returns the last significant character outside strings and comments.
char scan(std::string_view line, LineState& s) {
    char last = 0;
    s.continued = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (s.triple) {
            if (c == '\\') ++i;
            else if (line.substr(i, 3) == std::string(3, s.triple)) s.triple = 0, i += 2, last = c;
            continue;
        }
        if (c == '#') break;
        if (c == '"' || c == '\'') {
            if (line.substr(i, 3) == std::string(3, c)) {
                s.triple = c;
                i += 2;
                continue;
            }
            for (++i; i < line.size() && line[i] != c; ++i) {
                if (line[i] == '\\') ++i;
            }
            last = c;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') ++s.depth;
        else if ((c == ')' || c == ']' || c == '}') && s.depth > 0) --s.depth;
        if (c == '\\' && i + 1 == line.size()) {
            s.continued = true;
            continue;
        }
        if (c != ' ' && c != '\t' && c != '\r') last = c;
    }
    return last;
}

size_t indent_width(std::string_view line) {
    size_t w = 0;
    for (char c : line) {
        if (c == ' ') ++w;
        else if (c == '\t') w = (w / 8 + 1) * 8;
        else break;
    }
    return w;
}

void check_block(std::string_view output, size_t from, size_t to, std::vector<CheckHit>& out) {
    std::vector<size_t> levels = {0};
    LineState state;
    bool expect_indent = false;
    for (size_t start = from; start < to;) {
        size_t end = output.find('\n', start);
        if (end == std::string_view::npos || end > to) end = to;
        const std::string_view line = output.substr(start, end - start);
        const bool logical_start = state.depth == 0 && !state.triple && !state.continued;
        const size_t first = line.find_first_not_of(" \t\r");
        if (logical_start && first != std::string_view::npos && line[first] != '#') {
            const size_t w = indent_width(line);
            LocalText problem; // Python's own words, and their Chinese
            if (expect_indent && w <= levels.back()) {
                problem = {"expected an indented block after the line ending in ':'", "以 ':' 结尾的行之后应有缩进块"};
            } else if (!expect_indent && w > levels.back()) {
                problem = {"unexpected indent", "意外的缩进"};
            } else if (w < levels.back()) {
                while (levels.size() > 1 && w < levels.back()) levels.pop_back();
                if (w != levels.back()) problem = {"unindent does not match any outer indentation level", "取消缩进与任何外层缩进级别都不匹配"};
            }
            if (!problem.en.empty()) {
                size_t stop = line.find_last_not_of(" \t\r");
                out.push_back(CheckHit{start, start + stop + 1, {"Python: " + problem.en, "Python：" + problem.zh}});
                return;
            }
            if (w > levels.back()) levels.push_back(w);
            expect_indent = false;
        }
        const char last = scan(line, state);
        if (state.depth == 0 && !state.triple && !state.continued && last != 0) expect_indent = last == ':';
        start = end + 1;
    }
}

} // namespace

std::vector<CheckHit> check_python_indentation(std::string_view output) {
    std::vector<CheckHit> out;
    for (const FencedBlock& b : fenced_blocks(output)) {
        const std::string_view body = output.substr(b.body_start, b.body_end - b.body_start);
        const bool python = b.lang == "python" || b.lang == "py" || b.lang == "python3";
        if (python || (b.lang.empty() && looks_like_python(body))) check_block(output, b.body_start, b.body_end, out);
    }
    return out;
}

} // namespace octo
