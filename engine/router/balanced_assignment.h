// Assigning a layer's heads to the eight subsystems, as many heads per subsystem as the default
// map gives (H/8, the first H mod 8 subsystems one more), maximising the total affinity — an
// assignment problem solved exactly with the Hungarian method.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace octo {

// affinity[h][s] (n_head × 8, row-major); returns the subsystem of each head.
std::vector<int> assign_heads_balanced(std::span<const double> affinity, int64_t n_head);

// The minimum-cost perfect matching of a square cost matrix [n][n]: column of each row.
std::vector<int> hungarian(std::span<const double> cost, int64_t n);

} // namespace octo
