// What the per-model stores in the user's data directory share — calibrated head maps
// (engine/instrumentation/calibrated_maps.h) and cached router centroids
// (engine/router/centroid_cache.h): the directory and the model file's SHA-256 they are keyed
// by. Their files are written with write_file_atomic (engine/core/atomic_file.h).
//   $XDG_DATA_HOME/octoscope (default ~/.local/share/octoscope)
//     model-index.json   model identity (path, size, mtime) -> sha256, so that finding a model's
//                        data does not hash the whole file on every load
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>

#include "engine/core/result.h"
#include "engine/model/model.h"

namespace octo {

std::filesystem::path user_data_dir();

// The SHA-256 of the file the model was loaded from: from the index when the model's identity
// is there, else hashed and recorded. An error for a model parsed from bytes (no file).
Result<std::string> model_sha256(const Model& model);

// The same for the file at `path` whose Model::identity() is `identity` (what model_sha256 does,
// without the model: a thread that must not hold it). Cancelled when `cancel` is set.
Result<std::string> file_sha256(const std::string& path, const std::string& identity,
                                const std::atomic<bool>* cancel = nullptr);

// From the index only (never hashes); nullopt when the model is not in it.
std::optional<std::string> indexed_model_sha256(const Model& model);

} // namespace octo
