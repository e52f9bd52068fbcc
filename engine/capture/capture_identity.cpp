#include "engine/capture/capture_identity.h"

#include <filesystem>
#include <system_error>

#include "engine/core/sha256.h"
#include "engine/model/user_data.h"

namespace octo {

namespace {

Result<uint64_t> file_size(const std::string& path) {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) return make_error(ErrorCode::Io, "cannot read the size of '" + path + "': " + ec.message());
    return size;
}

} // namespace

Result<ModelDescription> capture_model_identity(const Model& model) {
    auto m = describe_capture_model(model);
    if (!m) return m.error();
    auto sha = model_sha256(model);
    if (!sha) return sha.error();
    m->sha256 = sha.value();
    return m;
}

Result<ModelDescription> describe_capture_model(const Model& model) {
    auto m = describe_model(model);
    if (!m) return m.error();
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(model.path(), ec);
    if (!ec) m->path = absolute.lexically_normal().string();
    return m;
}

Status check_capture_model(const ModelDescription& recorded, const std::string& path) {
    auto size = file_size(path);
    if (!size) return size.error();
    if (size.value() != recorded.size) {
        return make_error(ErrorCode::InvalidArgument,
                          "'" + path + "' is not the captured model " + recorded.file_name + ": it has " +
                              std::to_string(size.value()) + " bytes, the capture's model " +
                              std::to_string(recorded.size));
    }
    auto sha = sha256_file(path);
    if (!sha) return sha.error();
    if (sha.value() != recorded.sha256) {
        return make_error(ErrorCode::InvalidArgument, "'" + path + "' is not the captured model " + recorded.file_name +
                                                          ": its SHA-256 is " + sha.value() + ", the capture's model " +
                                                          recorded.sha256);
    }
    return Ok{};
}

} // namespace octo
