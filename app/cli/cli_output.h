// Input and output conventions shared by every octoscope-cli command: text files read
// byte for byte, one JSON object on stdout with --json, errors as one line on stderr (and
// {"error": ...} on stdout with --json), exit statuses 1..127 only.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/core/file_bytes.h" // read_file_bytes
#include "engine/core/result.h"
#include "engine/core/utf8_text.h" // valid_utf8

namespace octo::cli {

enum ExitCode : int {
    kExitOk = 0,
    kExitError = 1, // the command failed (bad model, unreadable file ...)
    kExitUsage = 2, // the command line itself is wrong
};

// Prints `message` as one line on stderr, and as {"error": message} on stdout when `json`.
int report_error(bool json, const std::string& message, int exit_code = kExitError);
int report_error(bool json, const Error& error);

// Prints a JSON object on one line; strings are guaranteed valid UTF-8 by the callers.
void print_json(const nlohmann::json& object);

// Lower-case hex of the bytes, two digits each ("e4bda0").
std::string hex_bytes(std::string_view bytes);

} // namespace octo::cli
