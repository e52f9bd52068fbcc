#include "engine/backend/precision.h"

#include "engine/model/architecture.h"

namespace octo {

std::string_view precision_name(Precision precision) {
    switch (precision) {
    case Precision::Reference: return "reference";
    case Precision::Exact: return "exact";
    }
    return "?";
}

std::optional<Precision> parse_precision(std::string_view name) {
    if (name == "reference") return Precision::Reference;
    if (name == "exact") return Precision::Exact;
    return std::nullopt;
}

Precision default_precision(std::string_view architecture) {
    const ArchitectureInfo* info = find_architecture(architecture);
    return info && info->exact_by_default ? Precision::Exact : Precision::Reference;
}

} // namespace octo
