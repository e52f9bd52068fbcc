// The eight subsystems rte-a … rte-h: index 0..7 in every per-subsystem array, rte-a first.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace octo {

inline constexpr int kSubsystemCount = 8;

// One value per subsystem, rte-a first.
using SubsystemValues = std::array<float, kSubsystemCount>;

// "rte-a" for 0 … "rte-h" for 7; index must be in 0..7.
std::string_view subsystem_id(int index);

// 0..7 for "rte-a" … "rte-h" (exact, lower case); nullopt for anything else.
std::optional<int> subsystem_index(std::string_view id);

} // namespace octo
