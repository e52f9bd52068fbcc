#include "engine/router/balanced_assignment.h"

#include <limits>

#include "engine/instrumentation/subsystem.h"

namespace octo {

std::vector<int> hungarian(std::span<const double> cost, int64_t n) {
    // Potentials u (rows) and v (columns), 1-based with a virtual column 0 (e-maxx formulation).
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> u(static_cast<size_t>(n + 1), 0.0), v(static_cast<size_t>(n + 1), 0.0);
    std::vector<int64_t> match(static_cast<size_t>(n + 1), 0), way(static_cast<size_t>(n + 1), 0); // match[col] = row
    for (int64_t row = 1; row <= n; ++row) {
        match[0] = row;
        int64_t col0 = 0;
        std::vector<double> min_v(static_cast<size_t>(n + 1), inf);
        std::vector<bool> used(static_cast<size_t>(n + 1), false);
        do {
            used[static_cast<size_t>(col0)] = true;
            const int64_t r = match[static_cast<size_t>(col0)];
            double delta = inf;
            int64_t col1 = 0;
            for (int64_t c = 1; c <= n; ++c) {
                if (used[static_cast<size_t>(c)]) continue;
                const double reduced = cost[static_cast<size_t>((r - 1) * n + (c - 1))] - u[static_cast<size_t>(r)] - v[static_cast<size_t>(c)];
                if (reduced < min_v[static_cast<size_t>(c)]) {
                    min_v[static_cast<size_t>(c)] = reduced;
                    way[static_cast<size_t>(c)] = col0;
                }
                if (min_v[static_cast<size_t>(c)] < delta) {
                    delta = min_v[static_cast<size_t>(c)];
                    col1 = c;
                }
            }
            for (int64_t c = 0; c <= n; ++c) {
                if (used[static_cast<size_t>(c)]) {
                    u[static_cast<size_t>(match[static_cast<size_t>(c)])] += delta;
                    v[static_cast<size_t>(c)] -= delta;
                } else {
                    min_v[static_cast<size_t>(c)] -= delta;
                }
            }
            col0 = col1;
        } while (match[static_cast<size_t>(col0)] != 0);
        do {
            const int64_t col1 = way[static_cast<size_t>(col0)];
            match[static_cast<size_t>(col0)] = match[static_cast<size_t>(col1)];
            col0 = col1;
        } while (col0 != 0);
    }
    std::vector<int> column_of(static_cast<size_t>(n));
    for (int64_t c = 1; c <= n; ++c) column_of[static_cast<size_t>(match[static_cast<size_t>(c)] - 1)] = static_cast<int>(c - 1);
    return column_of;
}

std::vector<int> assign_heads_balanced(std::span<const double> affinity, int64_t n_head) {
    // One column per head slot: subsystem s owns floor(H/8) slots, +1 for s < H mod 8.
    std::vector<int> slot_subsystem;
    for (int s = 0; s < kSubsystemCount; ++s) {
        const int64_t slots = n_head / kSubsystemCount + (s < n_head % kSubsystemCount ? 1 : 0);
        for (int64_t i = 0; i < slots; ++i) slot_subsystem.push_back(s);
    }
    std::vector<double> cost(static_cast<size_t>(n_head * n_head));
    for (int64_t h = 0; h < n_head; ++h) {
        for (int64_t c = 0; c < n_head; ++c) {
            cost[static_cast<size_t>(h * n_head + c)] = -affinity[static_cast<size_t>(h * kSubsystemCount + slot_subsystem[static_cast<size_t>(c)])];
        }
    }
    const std::vector<int> column = hungarian(cost, n_head);
    std::vector<int> out(static_cast<size_t>(n_head));
    for (int64_t h = 0; h < n_head; ++h) out[static_cast<size_t>(h)] = slot_subsystem[static_cast<size_t>(column[static_cast<size_t>(h)])];
    return out;
}

} // namespace octo
