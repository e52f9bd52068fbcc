#include "engine/backend/backend.h"

namespace octo {

std::string Backend::missing_weight_types(const ForwardFeatures& needed) const {
    std::string missing;
    for (TensorType type : needed.weight_types) {
        if (supports(type)) continue;
        const auto info = tensor_type_info(static_cast<uint32_t>(type));
        missing += (missing.empty() ? "" : ", ") + std::string(info ? info->name : "unknown") + " weights";
    }
    return missing;
}

} // namespace octo
