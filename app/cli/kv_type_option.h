// The `--kv-type`, `--kv-type-k` and `--kv-type-v` options of the commands that run a model
// (docs/cli.md, "KV cache"): how the KV pool stores keys and values, f32, f16, q8_0 or q4_0 (kv/kv_types.h).
#pragma once

#include <optional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "engine/kv/kv_types.h"

namespace octo::cli {

struct KvTypeOptions {
    std::optional<TensorType> both, k, v; // not given: nullopt
    std::optional<TensorType> keys() const { return k ? k : both; }
    std::optional<TensorType> values() const { return v ? v : both; }
    KvTypeChoice choice() const { return {keys(), values()}; }
};

// {"k": "f16", "v": "f16"}: how the JSON of bench, serve and info names a cache's types.
nlohmann::json kv_types_json(KvTypes types);

// Adds the three options to `cmd`; any other value is a usage error naming the four.
void add_kv_type_options(CLI::App& cmd, KvTypeOptions& options);

} // namespace octo::cli
