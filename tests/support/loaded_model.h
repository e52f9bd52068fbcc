// A model parsed from an in-memory GGUF image that this object keeps alive (the model's
// tensors point into `bytes`), for tests that run random-weight synthetic models.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "engine/model/model.h"
#include "engine/model/synthetic_model.h"

namespace octo::test {

struct LoadedModel {
    std::vector<uint8_t> bytes;
    std::unique_ptr<Model> model; // null when loading failed (a test failure was recorded)
};

// Parses and loads `bytes`; failures are reported as gtest failures.
LoadedModel load_bytes(std::vector<uint8_t> bytes);

// load_bytes(make_synthetic_model(spec)).
LoadedModel load_synthetic(const SyntheticModelSpec& spec);

// A copy of the model's GGUF image (every metadata entry and tensor) in which `edit` may change
// the values of each F32 tensor in place ([ne1][ne0] floats).
std::vector<uint8_t> rewrite_model(const Model& model,
                                   const std::function<void(const GgufTensorInfo&, std::span<float>)>& edit);

} // namespace octo::test
