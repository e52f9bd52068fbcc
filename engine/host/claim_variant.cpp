#include "engine/host/claim_variant.h"

#include <memory>

#include "engine/host/model_setup.h"

namespace octo {

Result<ClaimVariant> open_claim_variant(const std::string& path, Backend& backend) {
    auto opened = open_model(path, {.on_backend = &backend});
    if (!opened) return opened.error();
    auto owner = std::make_shared<OpenedModel>(std::move(opened.value()));
    ClaimVariant v;
    v.model = ClaimModel{owner->model.get(), &backend, owner->tokenizer.get(), &owner->map(), owner->expert_map(), owner->kv.get(),
                         owner->info.name};
    v.owner = std::move(owner);
    return v;
}

} // namespace octo
