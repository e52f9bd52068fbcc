// The one description of a model that every part shares: what identifies the file (its name,
// size and SHA-256) and its shape (architecture, layers, heads, experts, context). A capture
// records it; the open model's ModelInfo (host/model_setup.h) is it plus what opening added
// (backend, KV pool, head map, token texts); a server's model fills what its server tells.
#pragma once

#include <cstdint>
#include <string>

#include "engine/core/result.h"

namespace octo {

class Model;

struct ModelDescription {
    std::string file_name;     // the file's name, e.g. "octet.gguf" ("" for a server's model)
    std::string path;          // as opened (a capture: absolute, as captured)
    uint64_t size = 0;         // bytes
    std::string sha256;        // lower-case hex of the whole file ("" until hashed)
    std::string name;          // general.name, or the file name
    std::string architecture;  // general.architecture
    int64_t n_layer = 0;
    int64_t n_head = 0;
    int64_t n_embd = 0;
    int64_t n_params = 0;
    int64_t n_ctx = 0;         // the context a run can have
    int64_t router_groups = 0; // head groups of the per-layer routers (0: no router)
    int64_t n_expert = 0;      // experts per layer (0: a dense model), docs/moe.md
    int64_t n_expert_used = 0; // experts each token runs through
    bool operator==(const ModelDescription&) const = default;
};

// The description of a loaded model (its file's size read from the disk; sha256 left empty: it
// takes a while, capture_identity.h computes it). Errors: Io when the file's size cannot be read.
Result<ModelDescription> describe_model(const Model& model);

} // namespace octo
