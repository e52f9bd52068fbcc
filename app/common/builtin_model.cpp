#include "app/common/builtin_model.h"

#include <filesystem>

#include "app/common/resource_dir.h"

namespace octo {

Result<std::string> model_path_or_builtin(const std::string& requested) {
    if (!requested.empty()) return requested;
    auto dir = resource_dir();
    if (!dir) return make_error(ErrorCode::Io, "no --model given and the built-in model cannot be found: " +
                                                         dir.error().message);
    const std::filesystem::path path = dir.value() / kBuiltinModel;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        return make_error(ErrorCode::Io, "no --model given and the built-in model " + path.string() +
                                                   " is missing (it ships in resources/octet/; docs/octet.md)");
    }
    return path.string();
}

Result<OpenedModel> open_model_or_builtin(const std::string& requested, const OpenOptions& options) {
    auto path = model_path_or_builtin(requested);
    if (!path) return path.error();
    return open_model(path.value(), options);
}

} // namespace octo
