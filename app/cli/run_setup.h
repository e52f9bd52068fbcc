// What the commands that run a model on a prompt (generate, compare) set up first: the model
// and tokenizer, the backend (--backend), the head map in force, and one KV pool shared by their runs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "app/cli/model_loading.h"
#include "engine/backend/backend.h"
#include "engine/core/result.h"
#include "engine/instrumentation/head_map.h"
#include "engine/kv/kv_store.h"

namespace octo::cli {

// --backend auto|cpu|cuda with `threads` for the CPU (0: all cores); auto falls back to the CPU,
// logging why. InvalidArgument for another name; cuda unusable: the reason.
Result<std::unique_ptr<Backend>> make_backend(const std::string& backend, int threads);

struct RunSetup {
    LoadedModel loaded;
    std::unique_ptr<Backend> backend;
    HeadMap map;
    std::unique_ptr<KvStore> kv;
};

// `model_path` empty: the built-in model; `ctx_size` 0: the model's; `threads` 0: all cores;
// `head_map_file` empty: the map's usual precedence (docs/instrumentation.md); `backend`: auto, cpu
// or cuda (auto falls back to the CPU, logging why).
Result<RunSetup> set_up_run(const std::string& model_path, int64_t ctx_size, int threads,
                            const std::string& head_map_file, const std::string& backend);

} // namespace octo::cli
