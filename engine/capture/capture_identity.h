// A model's identity in a capture, and the check that a file is that very model (same size
// and SHA-256) before a capture is repeated on it.
#pragma once

#include <string>

#include "engine/capture/capture.h"
#include "engine/core/result.h"
#include "engine/model/model.h"

namespace octo {

// The identity of `model`, loaded from its file (SHA-256 through the user-data index:
// engine/model/user_data.h). Io when the file cannot be read.
Result<ModelDescription> capture_model_identity(const Model& model);

// The same without sha256 (left empty): what is cheap to read at once; the hash can follow on
// another thread (user_data.h: file_sha256).
Result<ModelDescription> describe_capture_model(const Model& model);

// Ok when the file at `path` has the size and SHA-256 the capture recorded; otherwise
// InvalidArgument saying which differs, naming the file.
Status check_capture_model(const ModelDescription& recorded, const std::string& path);

} // namespace octo
