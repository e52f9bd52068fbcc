// Head-map calibration (docs/router.md, "Head-map calibration"): which subsystem each head of a
// downloaded model serves, measured on the labelled probe set.
//
// 1. Profile: for each probe, each head's contribution norm ‖W_h z_h‖ averaged over the probe's
//    positions without BOS.
// 2. Affinity: per head, its mean profile over each subsystem's train probes, z-scored across
//    the eight subsystems.
// 3. Assignment: per layer, heads to subsystems with the default map's counts (H/8 each, the
//    first H mod 8 one more), maximising total affinity (balanced_assignment.h).
// The same steps calibrate a mixture of experts' experts (CalibrationUnit::Experts, docs/moe.md):
// a probe's profile is then each expert's routing weight averaged over its positions without BOS
// (0 where not chosen), and the map assigns the experts of each layer to subsystems.
//
// 4. Separation (dev split): each dev probe's profile, standardised per head with the train
//    statistics, averaged over each subsystem's assigned heads; the fraction of dev probes whose
//    largest average is their own label. Two nulls: the same score for a map calibrated on
//    shuffled train labels (labels that carry no information; chance is 1/8), and for a map
//    calibrated on units that respond to token identity alone — per (token, layer, unit) a
//    hashed value, only the top k of a layer kept where a router picks k experts — which is what
//    a router (or heads) with random weights reaches from the probes' surface tokens. A map is
//    earned only when it clearly beats both (map_earned, head_map_source.h).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/core/result.h"
#include "engine/instrumentation/head_map.h"
#include "engine/model/model.h"
#include "engine/router/probe_set.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

struct CalibrationResult {
    HeadMap map = HeadMap::make_default(1, 1);
    double separation = 0.0;      // on dev, this map
    double null_separation = 0.0; // on dev, a map calibrated on shuffled train labels
    double token_null_separation = 0.0; // on dev, a map calibrated on token-identity units
    size_t n_train = 0;
    size_t n_dev = 0;
};

// What a map assigns to subsystems: the heads of each layer, or its experts.
enum class CalibrationUnit { Heads, Experts };

struct CalibrationOptions {
    CalibrationUnit unit = CalibrationUnit::Heads;
    uint64_t null_seed = 1;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(size_t done, size_t total)> progress; // probes profiled
    std::optional<Precision> precision = std::nullopt; // of the profiling runs; nullopt: the model's default
};

// Profiles of the probes, [n_probes][n_layer * n_head] (or n_expert per layer with
// CalibrationUnit::Experts); empty for a probe whose text the vocabulary cannot encode
// (calibrate_head_map leaves those out and counts only the rest).
Result<std::vector<std::vector<float>>> head_profiles(const Model& model, Backend& backend, const Tokenizer& tokenizer,
                                                      std::span<const Probe> probes, const CalibrationOptions& options,
                                                      size_t progress_offset = 0, size_t progress_total = 0);

// The token-identity null's profiles, shaped as head_profiles' ([n_probes][n_layer * n_units],
// empty where the vocabulary cannot encode the probe): each unit's hashed response to each token
// (in [0, 1)), averaged over the probe's positions without the first; with `chosen` < n_units
// only the `chosen` largest of a layer count, each 1/chosen, as a router's top k.
std::vector<std::vector<float>> token_identity_profiles(const Model& model, const Tokenizer& tokenizer,
                                                        std::span<const Probe> probes, int64_t n_units, int64_t chosen,
                                                        uint64_t seed);

// Steps 2-3 from profiles: the calibrated map (source Calibrated).
HeadMap assign_from_profiles(std::span<const std::vector<float>> profiles, std::span<const int> labels, int64_t n_layer,
                             int64_t n_head);

// Step 4.
// (The train probes give each head's standardisation; the dev labels are used only to score.)
double separation_score(const HeadMap& map, std::span<const std::vector<float>> train_profiles,
                        std::span<const int> train_labels, std::span<const std::vector<float>> dev_profiles,
                        std::span<const int> dev_labels);

// InvalidArgument for CalibrationUnit::Experts on a model without experts.
Result<CalibrationResult> calibrate_head_map(const Model& model, Backend& backend, const Tokenizer& tokenizer,
                                             std::span<const Probe> train, std::span<const Probe> dev,
                                             const CalibrationOptions& options);

} // namespace octo
