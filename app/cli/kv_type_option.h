// The `--kv-type`, `--kv-type-k` and `--kv-type-v` options of the commands that run a model
// (docs/cli.md, "KV cache"): how the KV pool stores keys and values, f32 or f16 (kv/kv_types.h).
#pragma once

#include <optional>

#include <CLI/CLI.hpp>

#include "engine/gguf/tensor_type.h"

namespace octo::cli {

struct KvTypeOptions {
    std::optional<TensorType> both, k, v; // not given: nullopt
    std::optional<TensorType> keys() const { return k ? k : both; }
    std::optional<TensorType> values() const { return v ? v : both; }
};

// Adds the three options to `cmd`; another value than f32 or f16 is a usage error naming both.
void add_kv_type_options(CLI::App& cmd, KvTypeOptions& options);

} // namespace octo::cli
