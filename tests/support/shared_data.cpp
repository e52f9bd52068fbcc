#include "tests/support/shared_data.h"

#include <cstdlib>

namespace octo::test {

std::optional<std::filesystem::path> shared_dir() {
    std::filesystem::path dir;
    if (const char* env = std::getenv("OCTOSCOPE_SHARED_DIR"); env && *env) {
        dir = env;
    } else {
        dir = std::filesystem::path(OCTOSCOPE_SOURCE_DIR) / ".." / "shared";
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
    return std::filesystem::weakly_canonical(dir, ec);
}

std::optional<std::filesystem::path> refdata_dir() {
    auto dir = shared_dir();
    if (!dir) return std::nullopt;
    auto ref = *dir / "refdata";
    std::error_code ec;
    if (!std::filesystem::is_directory(ref, ec)) return std::nullopt;
    return ref;
}

} // namespace octo::test
