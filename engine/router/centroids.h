// One centroid per subsystem (router stage 1): the mean of the unit embeddings of its labelled
// probes, normalised to unit length. A subsystem without probes has a zero centroid (cosine 0).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "engine/instrumentation/subsystem.h"

namespace octo {

using Centroids = std::array<std::vector<float>, kSubsystemCount>; // each [dims]

// embeddings[i] (unit vectors of one dimension) labelled labels[i] (0..7).
Centroids compute_centroids(std::span<const std::vector<float>> embeddings, std::span<const int> labels);

// Cosine of `embedding` to each centroid, rte-a first.
std::array<float, kSubsystemCount> centroid_similarities(const Centroids& centroids, std::span<const float> embedding);

} // namespace octo
