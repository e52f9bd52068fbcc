#include "app/cli/model_loading.h"

#include "app/common/builtin_model.h"
#include "engine/tokenizer/vocab.h"

namespace octo::cli {

Result<LoadedModel> load_model_and_tokenizer(const std::string& requested_path, const LoadOptions& options) {
    auto path = model_path_or_builtin(requested_path);
    if (!path) return path.error();
    auto model = Model::load(path.value(), options);
    if (!model) return model.error();
    auto vocab = vocab_from_gguf(model.value()->file());
    if (!vocab) return make_error(vocab.error().code, path.value() + ": " + vocab.error().message);
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    if (!tokenizer) return make_error(tokenizer.error().code, path.value() + ": " + tokenizer.error().message);
    return LoadedModel{path.value(), std::move(model.value()), std::make_unique<Tokenizer>(std::move(tokenizer.value()))};
}

} // namespace octo::cli
