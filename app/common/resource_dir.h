// Where the app's resources (built-in model, probe sets, rule tables ...) live.
// Both the build tree and an installation put them at <exe dir>/../share/octoscope/resources;
// $OCTOSCOPE_RESOURCES overrides that.
#pragma once

#include <filesystem>

#include "engine/core/result.h"

namespace octo {

// The resource folder, or an error naming every place that was tried.
Result<std::filesystem::path> resource_dir();

} // namespace octo
