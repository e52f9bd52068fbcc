// The built-in teaching model octet (docs/octet.md): what every entry point runs when no model
// is named, from any working directory.
#pragma once

#include <string>

#include "engine/core/result.h"
#include "engine/host/model_setup.h"

namespace octo {

// <resources>/octet/octet.gguf, relative to the resource folder (resource_dir.h).
inline constexpr const char* kBuiltinModel = "octet/octet.gguf";

// `requested` when it is not empty, else the built-in model's path; an error when the built-in
// model cannot be found (naming where it was looked for).
Result<std::string> model_path_or_builtin(const std::string& requested);

// open_model() (engine/host/model_setup.h) on `requested`, or on the built-in model when it is empty.
Result<OpenedModel> open_model_or_builtin(const std::string& requested, const OpenOptions& options = {});

} // namespace octo
