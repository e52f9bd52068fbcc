// head_groups: "why 8" — the article says 4 groups propagate errors and 16 strain caches. The
// honest test trains octet itself with other group counts under the same budget and compares
// accuracy and specialisation; it needs those variants as resources
// (octet/variants/octet-g<N>.gguf for every N in "groups"). Until they ship, the claim is not
// measurable, and says which files are missing.
#include <filesystem>

#include "engine/claims/claim_protocols.h"

namespace octo {

Result<ClaimResult> protocol_head_groups(ClaimLab& lab, const Claim& claim) {
    std::vector<int64_t> groups = {4, 16};
    if (claim.params.contains("groups") && claim.params["groups"].is_array()) {
        groups.clear();
        for (const auto& g : claim.params["groups"]) groups.push_back(g.is_number_integer() ? g.get<int64_t>() : 0);
    }
    std::string missing;
    for (const int64_t g : groups) {
        const auto path = std::filesystem::path(lab.data().resource_dir) / "octet" / "variants" / ("octet-g" + std::to_string(g) + ".gguf");
        if (!std::filesystem::exists(path)) missing += (missing.empty() ? "" : ", ") + path.filename().string();
    }
    const std::string method = "Compares octet with 8 head groups against the same model trained with other group counts "
                               "under the same budget, on accuracy and specialisation.";
    if (!missing.empty()) {
        return not_measurable("the octet variants trained with other head-group counts are not shipped yet (" + missing +
                                  " missing from octet/variants/), so there is nothing to compare the 8 groups with",
                              method);
    }
    return not_measurable("comparing the octet variants is not implemented in this version", method);
}

} // namespace octo
