// Locating ../shared (reference data from other implementations) for tests.
// Tests that use it call GTEST_SKIP() with a message when it is absent.
#pragma once

#include <filesystem>
#include <optional>

namespace octo::test {

// $OCTOSCOPE_SHARED_DIR, else <source>/../shared; nullopt when the folder is absent.
std::optional<std::filesystem::path> shared_dir();

// shared_dir()/refdata, when present.
std::optional<std::filesystem::path> refdata_dir();

} // namespace octo::test
