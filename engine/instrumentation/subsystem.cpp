#include "engine/instrumentation/subsystem.h"

#include <array>

namespace octo {
namespace {

constexpr std::array<std::string_view, kSubsystemCount> kIds = {
    "rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h"};

} // namespace

std::string_view subsystem_id(int index) { return kIds.at(static_cast<size_t>(index)); }

std::optional<int> subsystem_index(std::string_view id) {
    for (int s = 0; s < kSubsystemCount; ++s) {
        if (kIds[static_cast<size_t>(s)] == id) return s;
    }
    return std::nullopt;
}

} // namespace octo
