// The C++ output checks behind the "check" detectors (internal to engine/advisor).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/advisor/advisor_rules.h" // LocalText

namespace octo {

struct CheckHit {
    size_t start = 0; // UTF-8 byte offsets into the output, [start, end)
    size_t end = 0;
    LocalText detail; // what is wrong, in English and Chinese
};

// The JSON part (each ```json block, else the first { or [ to the end) does not parse.
std::vector<CheckHit> check_json_valid(std::string_view output);
// Markdown table rows whose cell count differs from the header's.
std::vector<CheckHit> check_markdown_table_columns(std::string_view output);
// The header cells of each Markdown table outside code fences (a header row followed by a
// delimiter row), in order.
std::vector<std::vector<std::string>> markdown_table_headers(std::string_view output);
// The first indentation error of each Python code block.
std::vector<CheckHit> check_python_indentation(std::string_view output);
// "expression = / ≈ result" claims that do not hold.
std::vector<CheckHit> check_arithmetic_claims(std::string_view output);

} // namespace octo
