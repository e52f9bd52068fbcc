// Opening a model for runs: the one set-up the workbench's engine thread, every CLI command
// (bench included), the claims lab's further models and the tests share. One call gives the
// model, its tokenizer, the backend, the head map in force, one KV pool for the runs, and a
// ModelInfo describing them.
//
// Order: the backend is chosen first (an unusable CUDA fails before gigabytes are paged in),
// then the file's memory estimate is reported, the weights are loaded (with progress and
// cancel), the tokenizer built from the file's vocabulary, the head map resolved and the pool
// allocated. Errors about the file name it once; a cancel is ErrorCode::Cancelled.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/cpu/cpu_features.h"
#include "engine/backend/precision.h"
#include "engine/capture/capture.h"
#include "engine/core/result.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/kv/kv_store.h"
#include "engine/model/model.h"
#include "engine/host/model_info.h"
#include "engine/model/model_description.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

struct OpenOptions {
    std::string backend = "auto"; // auto (CUDA when usable, else the CPU, saying why), cpu or cuda
    int threads = 0;               // CPU threads; 0: all cores
    std::optional<CpuPath> kernels = std::nullopt; // the CPU backend's kernel path (bench --kernels); default: the best this CPU runs
    // Open onto this backend, which the caller keeps (`backend`, `threads` and `kernels` are then
    // not used and OpenedModel::backend stays empty): a further model beside a loaded one.
    Backend* on_backend = nullptr;
    int64_t n_ctx = 0;             // positions a run can hold; 0: the model's whole context, as far as memory allows (plan_context)
    int64_t n_batch = kDefaultBatch; // tokens per forward batch (activation memory)
    // Full-context sequences the KV pool holds at once (a server's --parallel); 0: no pool (a
    // caller whose sessions hold their own, as bench's do).
    int kv_sequences = 1;
    // How the pool stores keys and values (a run's ExecutionSpec kv types); nullopt: the default
    // for `precision`, the precision runs will take (nullopt: the model's default) — resolve_kv_types.
    KvTypeChoice kv_types = {};
    std::optional<Precision> precision = std::nullopt;
    // A quantised type the model's heads cannot fill (blocks of 32) takes the default instead of
    // failing, saying so in ModelInfo::kv_note: the workbench's remembered choice meets every model.
    bool kv_fallback = false;
    std::string head_map_file = {}; // empty: the usual precedence (docs/instrumentation.md)
    // Before the weights are paged in: what the model will need (weights, KV pool, activations).
    std::function<void(const MemoryEstimate&)> on_estimate = nullptr;
    // The fraction loaded, 0..1; returning false cancels.
    std::function<bool(double fraction)> progress = nullptr;
};

struct OpenedModel {
    std::shared_ptr<const std::vector<uint8_t>> image; // an in-memory model's bytes, which `model` reads: declared first
    std::unique_ptr<Model> model;
    std::unique_ptr<Tokenizer> tokenizer;
    std::unique_ptr<Backend> backend; // empty with OpenOptions::on_backend
    std::unique_ptr<KvStore> kv;      // empty with OpenOptions::kv_sequences 0
    ModelInfo info; // holds the head map in force and the expert map: they are stored there only

    const HeadMap& map() const { return *info.head_map; } // always set once opened
    void set_map(HeadMap map) { info.head_map = std::move(map); }
    // calibrate --experts (docs/moe.md); null: no experts metric
    const ExpertMap* expert_map() const { return info.expert_map ? &*info.expert_map : nullptr; }
};

Result<OpenedModel> open_model(const std::string& path, const OpenOptions& options = {});
// The same for a GGUF image in memory (bench's synthetic models); `name` stands for the path.
Result<OpenedModel> open_model_image(std::shared_ptr<const std::vector<uint8_t>> image, const std::string& name,
                                     const OpenOptions& options = {});

} // namespace octo
