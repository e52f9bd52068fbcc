// markdown_table_columns: a Markdown table is a header row, a delimiter row (| --- | :-: |) and
// the rows after it that contain a '|'. Every row (the delimiter row included) must have as many
// cells as the header. Cells are split at '|' outside `code` and not escaped as \|; one leading
// and one trailing '|' are dropped. Tables inside code fences are not looked at.
#include "engine/advisor/code_fences.h"
#include "engine/advisor/output_check_kinds.h"

namespace octo {

namespace {

struct Line {
    size_t start, end; // without the line break
};

std::vector<Line> lines_of(std::string_view text) {
    std::vector<Line> lines;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        size_t trimmed = end;
        if (trimmed > start && text[trimmed - 1] == '\r') --trimmed;
        lines.push_back(Line{start, trimmed});
        if (end == text.size()) break;
        start = end + 1;
    }
    return lines;
}

std::string_view trim(std::string_view s) {
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string_view::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

std::vector<std::string_view> cells(std::string_view row) {
    row = trim(row);
    if (!row.empty() && row.front() == '|') row.remove_prefix(1);
    if (!row.empty() && row.back() == '|' && (row.size() < 2 || row[row.size() - 2] != '\\')) row.remove_suffix(1);
    std::vector<std::string_view> out;
    size_t start = 0;
    bool code = false;
    for (size_t i = 0; i < row.size(); ++i) {
        if (row[i] == '\\') {
            ++i;
        } else if (row[i] == '`') {
            code = !code;
        } else if (row[i] == '|' && !code) {
            out.push_back(trim(row.substr(start, i - start)));
            start = i + 1;
        }
    }
    out.push_back(trim(row.substr(start)));
    return out;
}

bool is_delimiter_row(std::string_view row) {
    if (row.find('-') == std::string_view::npos || row.find('|') == std::string_view::npos) return false;
    for (std::string_view cell : cells(row)) {
        if (cell.empty()) return false;
        for (char c : cell) {
            if (c != '-' && c != ':' && c != ' ') return false;
        }
    }
    return true;
}

// Calls `table(header line, first row after the delimiter, end row)` for each table, with the
// output's lines.
template <class F>
void for_each_table(std::string_view output, const std::vector<Line>& lines, F&& table) {
    const auto fences = fenced_blocks(output);
    const auto text = [&](const Line& l) { return output.substr(l.start, l.end - l.start); };
    for (size_t k = 0; k + 1 < lines.size(); ++k) {
        const std::string_view header = text(lines[k]);
        if (header.find('|') == std::string_view::npos || inside_fence(fences, lines[k].start) ||
            !is_delimiter_row(text(lines[k + 1]))) {
            continue;
        }
        size_t row = k + 1;
        while (row < lines.size() && text(lines[row]).find('|') != std::string_view::npos) ++row;
        table(k, k + 1, row);
        k = row - 1;
    }
}

} // namespace

std::vector<CheckHit> check_markdown_table_columns(std::string_view output) {
    std::vector<CheckHit> out;
    const std::vector<Line> lines = lines_of(output);
    const auto text = [&](const Line& l) { return output.substr(l.start, l.end - l.start); };
    for_each_table(output, lines, [&](size_t header, size_t first, size_t end) {
        const size_t columns = cells(text(lines[header])).size();
        for (size_t row = first; row < end; ++row) {
            const size_t n = cells(text(lines[row])).size();
            if (n == columns) continue;
            const std::string_view body = trim(text(lines[row]));
            const size_t start = lines[row].start + static_cast<size_t>(body.data() - text(lines[row]).data());
            out.push_back(CheckHit{start, start + body.size(),
                                   {"table row has " + std::to_string(n) + " cells, the header has " + std::to_string(columns),
                                    "表格行有 " + std::to_string(n) + " 个单元格，表头有 " + std::to_string(columns) + " 个"}});
        }
    });
    return out;
}

std::vector<std::vector<std::string>> markdown_table_headers(std::string_view output) {
    std::vector<std::vector<std::string>> out;
    const std::vector<Line> lines = lines_of(output);
    for_each_table(output, lines, [&](size_t header, size_t, size_t) {
        std::vector<std::string> names;
        for (std::string_view cell : cells(output.substr(lines[header].start, lines[header].end - lines[header].start))) {
            names.emplace_back(cell);
        }
        out.push_back(std::move(names));
    });
    return out;
}

} // namespace octo
