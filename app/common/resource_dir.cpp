#include "app/common/resource_dir.h"

#include <cstdlib>

namespace octo {

namespace {

std::filesystem::path executable_dir() {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

} // namespace

Result<std::filesystem::path> resource_dir() {
    std::error_code ec;
    if (const char* env = std::getenv("OCTOSCOPE_RESOURCES"); env && *env) {
        std::filesystem::path dir(env);
        if (std::filesystem::is_directory(dir, ec)) return dir;
        return make_error(ErrorCode::Io, "OCTOSCOPE_RESOURCES is set to '" + dir.string() + "', which is not a folder");
    }
    const auto dir = executable_dir() / ".." / "share" / "octoscope" / "resources";
    if (std::filesystem::is_directory(dir, ec)) return std::filesystem::weakly_canonical(dir, ec);
    return make_error(ErrorCode::Io, "resources not found at '" + dir.string() +
                                         "'; set OCTOSCOPE_RESOURCES to the resources folder");
}

} // namespace octo
