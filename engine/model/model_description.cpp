#include "engine/model/model_description.h"

#include <filesystem>
#include <system_error>

#include "engine/model/model.h"

namespace octo {

Result<ModelDescription> describe_model(const Model& model) {
    uint64_t size = model.file().file_size(); // a model parsed from memory has no path: its image's size
    if (!model.path().empty()) {
        std::error_code ec;
        size = std::filesystem::file_size(model.path(), ec);
        if (ec) return make_error(ErrorCode::Io, "cannot read the size of '" + model.path() + "': " + ec.message());
    }
    const ModelParams& p = model.params();
    ModelDescription m;
    m.file_name = std::filesystem::path(model.path()).filename().string();
    m.path = model.path();
    m.size = size;
    m.name = p.name.empty() ? m.file_name : p.name;
    m.architecture = p.architecture;
    m.n_layer = p.n_layer;
    m.n_head = p.n_head;
    m.n_embd = p.n_embd;
    m.n_params = model.n_params();
    m.n_ctx = model.n_ctx();
    m.router_groups = model.weights().n_router_groups;
    m.n_expert = p.n_expert;
    m.n_expert_used = p.n_expert_used;
    return m;
}

} // namespace octo
