// A whole file read byte for byte, for the small text and JSON files the engine and the CLI read
// (resources, conversations, prompt files).
#pragma once

#include <string>

#include "engine/core/result.h"

namespace octo {

// The whole file; `what` names it in errors ("prompt file": "cannot open prompt file 'x'").
Result<std::string> read_file_bytes(const std::string& path, const std::string& what);

} // namespace octo
