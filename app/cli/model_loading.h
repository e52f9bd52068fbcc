// What the model-running commands (generate, eval, calibrate, route --embedding model) load
// first: the model (the built-in one when no path is given) and its tokenizer. Errors name the
// file.
#pragma once

#include <memory>
#include <string>

#include "engine/core/result.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo::cli {

struct LoadedModel {
    std::string path;
    std::unique_ptr<Model> model;
    std::unique_ptr<Tokenizer> tokenizer;
};

Result<LoadedModel> load_model_and_tokenizer(const std::string& requested_path, const LoadOptions& options = {});

} // namespace octo::cli
