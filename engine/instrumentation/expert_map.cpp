#include "engine/instrumentation/expert_map.h"

#include <algorithm>

namespace octo {

bool map_earned(double separation, double null_separation, std::optional<double> token_null_separation) {
    if (!token_null_separation) return false;
    return separation >= std::max(null_separation, *token_null_separation) + kMapMargin && separation > 1.0 / 8;
}

} // namespace octo
