// What the workbench, the CLI and captures know of an open model beside its weights: its
// description, the KV pool, the head and expert maps in force, the backend and the chat
// rendering (model_setup.h fills it when it opens a model). A value type: views that describe a
// model include this, not the set-up.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/backend/precision.h"
#include "engine/capture/capture_engine.h"
#include "engine/generation/token_metrics.h"
#include "engine/instrumentation/expert_map.h"
#include "engine/instrumentation/head_map.h"
#include "engine/kv/kv_types.h"
#include "engine/model/model_description.h"

namespace octo {

// The open model: its description (ModelDescription, what a capture records; sha256 empty until
// the engine host has hashed the file) and what opening it added.
struct ModelInfo : ModelDescription {
    uint64_t weights_bytes = 0;
    uint64_t kv_bytes = 0;      // the KV pool, allocated once
    KvTypes kv_types;           // ... and how it stores keys and values
    std::string kv_note;        // why they are not the ones asked for (OpenOptions::kv_fallback), or empty
    // Multi-head latent attention: the values a position caches per layer, one row of the RoPE key
    // part and the latent (n_rot + kv_lora_rank) serving as keys and values; 0: keys and values per KV head.
    int64_t kv_latent = 0;
    int64_t context_trained = 0;    // the model's own context (n_ctx is this unless asked or shortened)
    bool context_shortened = false; // n_ctx is shorter because the whole context would not fit in memory
    bool has_router = false;
    bool shared_expert = false; // qwen2moe's gated shared expert
    Metric default_metric = Metric::NormShare;      // what a run is shown by first (default_metric())
    Precision default_precision = Precision::Exact; // what a run takes when it names none
    std::string backend;        // e.g. "cpu (avx2, 2 threads)", "cuda (NVIDIA H200)"
    std::string backend_note;   // why "auto" did not take CUDA (empty when it did, or for cpu)
    std::optional<HeadMap> head_map;
    std::optional<ExpertMap> expert_map; // a mixture of experts' calibrated expert → subsystem map
    int32_t kv_block_size = 0;
    int32_t kv_blocks = 0;
    // What the architecture does beyond the llama block (architecture_features: "GELU gated FFN",
    // "sliding window 4096 on even layers", …) and each layer's sliding window (0: every earlier
    // position) within this context. A capture's recorded model has neither.
    std::vector<std::string> features;
    std::vector<int64_t> layer_windows; // [n_layer]
    // [n_layer][n_expert] the router's bias of each expert (gpt-oss: ArchitectureInfo::expert_biases);
    // empty when the router has none.
    std::vector<float> router_bias;
    // The chat template's family as recognised (chat_family_name: "llama3", "harmony", …), or empty
    // when the file has none or it is not recognised.
    std::string chat_family;
    // How a conversation reaches it (ConversationRendering::label: "chat template (llama3)",
    // "chatml", "prompt template (last user message)"), and whether every turn does (false: only
    // the last user message, so turns share no prefix); a server's: empty and true.
    std::string conversation_rendering;
    bool conversation_whole = true;
    // Every token id's bytes (its text where it has none, as control tokens), for showing
    // alternatives by their text; empty for a capture's recorded model or a server's.
    std::shared_ptr<const std::vector<std::string>> token_texts;
    // Set when runs go to a server instead (engine/host/remote_runner.h): which one and its model.
    std::optional<CaptureEngine> engine;
};

} // namespace octo
