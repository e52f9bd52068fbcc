// How the workbench asks for a model to be opened (EngineHost::load_model): the backend and the
// KV cache's types. What open_model does with them is engine/host/model_setup.h.
#pragma once

#include <string>

#include "engine/kv/kv_types.h"

namespace octo {

// How a model is opened.
struct LoadChoice {
    // "auto" (CUDA when usable, else the CPU, saying why in ModelInfo::backend_note), "cpu" or
    // "cuda" (a load error naming the reason when CUDA is unusable)
    std::string backend = "auto";
    KvTypeChoice kv_types = {}; // how the KV pool stores keys and values; nullopt: the default
};

} // namespace octo
