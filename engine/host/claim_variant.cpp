#include "engine/host/claim_variant.h"

#include <memory>
#include <utility>

namespace octo {

ClaimModel claim_model_of(const OpenedModel& opened, Backend& backend, std::string name) {
    return ClaimModel{opened.model.get(), &backend, opened.tokenizer.get(), &opened.map(), opened.expert_map(), opened.kv.get(),
                      std::move(name)};
}

Result<ClaimVariant> open_claim_variant(const std::string& path, Backend& backend) {
    auto opened = open_model(path, {.on_backend = &backend});
    if (!opened) return opened.error();
    auto owner = std::make_shared<OpenedModel>(std::move(opened.value()));
    ClaimVariant v;
    v.model = claim_model_of(*owner, backend, owner->info.name);
    v.owner = std::move(owner);
    return v;
}

} // namespace octo
