#include "engine/instrumentation/subsystem_grouping.h"

#include <cmath>
#include <string>

namespace octo {
namespace {

using Means = std::array<double, kSubsystemCount>;

Status check_size(const HeadMap& map, std::span<const float> per_head) {
    if (static_cast<int64_t>(per_head.size()) == map.n_layer() * map.n_head()) return Ok{};
    return make_error(ErrorCode::InvalidArgument,
                      "per-head values: got " + std::to_string(per_head.size()) + ", expected " +
                          std::to_string(map.n_layer()) + " layers x " + std::to_string(map.n_head()) + " heads");
}

// Mean per head of each subsystem in double; 0 for an empty subsystem. Sizes already checked.
Means means_per_head(const HeadMap& map, std::span<const float> per_head) {
    const int64_t n_head = map.n_head();
    Means sums{};
    for (int64_t l = 0; l < map.n_layer(); ++l) {
        for (int64_t h = 0; h < n_head; ++h) {
            sums[static_cast<size_t>(map.subsystem_of(l, h))] += per_head[static_cast<size_t>(l * n_head + h)];
        }
    }
    for (size_t s = 0; s < sums.size(); ++s) {
        const int64_t count = map.head_counts()[s];
        sums[s] = count == 0 ? 0.0 : sums[s] / static_cast<double>(count);
    }
    return sums;
}

} // namespace

Result<SubsystemValues> group_mean_per_head(const HeadMap& map, std::span<const float> per_head) {
    if (Status size = check_size(map, per_head); !size) return size.error();
    const Means means = means_per_head(map, per_head);
    SubsystemValues out{};
    for (size_t s = 0; s < out.size(); ++s) out[s] = static_cast<float>(means[s]);
    return out;
}

Result<SubsystemValues> subsystem_shares(const HeadMap& map, std::span<const float> per_head) {
    if (Status size = check_size(map, per_head); !size) return size.error();
    for (size_t i = 0; i < per_head.size(); ++i) {
        if (!std::isfinite(per_head[i]) || per_head[i] < 0.0f) {
            const auto n_head = static_cast<size_t>(map.n_head());
            return make_error(ErrorCode::InvalidArgument,
                              "per-head value at layer " + std::to_string(i / n_head) + ", head " +
                                  std::to_string(i % n_head) + " is " + std::to_string(per_head[i]) +
                                  " (must be finite and >= 0)");
        }
    }
    const Means means = means_per_head(map, per_head);
    double total = 0.0;
    for (double m : means) total += m;
    SubsystemValues shares{};
    if (total > 0.0) {
        for (size_t s = 0; s < shares.size(); ++s) shares[s] = static_cast<float>(means[s] / total);
        return shares;
    }
    const auto n_nonempty = static_cast<double>(kSubsystemCount - static_cast<int>(map.empty_subsystems().size()));
    for (int s = 0; s < kSubsystemCount; ++s) {
        shares[static_cast<size_t>(s)] = map.is_empty(s) ? 0.0f : static_cast<float>(1.0 / n_nonempty);
    }
    return shares;
}

} // namespace octo
