// Router centroids on disk (docs/router.md), for embeddings that are slow to evaluate (the
// model's: one forward pass per probe). One file per embedding function — its cache id names the
// model file's SHA-256, the layer and the embedding's version — in
// $XDG_DATA_HOME/octoscope/router-centroids/<cache id>.json, holding the centroids of the probe
// set last fitted with it:
//   {"version": 1, "embedding": "<cache id>", "probes": "<probe_set_digest>", "dims": D,
//    "centroids": [[D numbers] × 8]}
// Floats are written with enough digits to read back bit-identical. A file that is missing,
// unreadable, corrupt, of another version or for another probe set is a miss: the caller
// recomputes and overwrites it.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "engine/core/result.h"
#include "engine/router/centroids.h"
#include "engine/router/probe_set.h"

namespace octo {

constexpr int kCentroidCacheVersion = 1;

std::filesystem::path centroid_cache_dir();

// SHA-256 of the probes' labels and texts, in order (what the centroids depend on).
std::string probe_set_digest(std::span<const Probe> probes);

std::optional<Centroids> load_cached_centroids(const std::string& cache_id, const std::string& probes_digest);
Status save_cached_centroids(const std::string& cache_id, const std::string& probes_digest, const Centroids& centroids);

} // namespace octo
