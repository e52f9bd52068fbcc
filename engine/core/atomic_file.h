// Crash-safe file writes: every file the app writes (captures, autosaves, head maps, caches)
// goes through here, so a crash, a full disk or a concurrent reader never sees half a file.
#pragma once

#include <filesystem>
#include <string_view>

#include "engine/core/result.h"

namespace octo {

// Creates the parent folders, writes `bytes` to a temporary file beside `path`, flushes it to
// the disk and renames it over `path`. On any failure the temporary file is removed and `path`
// is left as it was. Errors: Io, naming the file and the reason.
Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

} // namespace octo
