// Per-head contribution norms, head ablation and router gate scaling on the CPU. Norms are split by (token, head);
// each is reduced by one thread in a fixed order, so they do not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"

namespace octo {

void CpuBackend::head_norms(const float* z, const float* grams, float* norms, int64_t n_tokens, int64_t n_head,
                            int64_t head_dim) {
    pool_.parallel_for(n_tokens * n_head, [&](int64_t task, int) {
        const int64_t h = task % n_head;
        const float* zh = z + task * head_dim;            // [head_dim]
        const float* g = grams + h * head_dim * head_dim; // [head_dim, head_dim], symmetric
        // y = G_h z_h, column by column (each y[i] summed over j in order; the i loop vectorises),
        // then z_hᵀ y in order. All in double.
        std::vector<double> y(static_cast<size_t>(head_dim), 0.0);
        for (int64_t j = 0; j < head_dim; ++j) {
            const float* gj = g + j * head_dim; // column j = row j
            const double zj = zh[j];
            for (int64_t i = 0; i < head_dim; ++i) y[static_cast<size_t>(i)] += static_cast<double>(gj[i]) * zj;
        }
        double quad = 0.0;
        for (int64_t i = 0; i < head_dim; ++i) quad += y[static_cast<size_t>(i)] * zh[i];
        // G_h is positive semi-definite; rounding may leave a tiny negative value.
        norms[task] = static_cast<float>(std::sqrt(std::max(quad, 0.0)));
    });
}

void CpuBackend::ablate_heads(float* z, std::span<const uint8_t> heads, const float* replacement, int64_t n_tokens,
                              int64_t n_head, int64_t head_dim) {
    const auto bytes = static_cast<size_t>(head_dim) * sizeof(float);
    for (int64_t t = 0; t < n_tokens; ++t) {
        for (int64_t h = 0; h < n_head; ++h) {
            if (!heads[static_cast<size_t>(h)]) continue;
            float* zh = z + (t * n_head + h) * head_dim;
            if (replacement) {
                std::memcpy(zh, replacement + h * head_dim, bytes);
            } else {
                std::memset(zh, 0, bytes);
            }
        }
    }
}

void CpuBackend::scale_head_groups(float* z, const float* scales, int64_t n_tokens, int64_t n_head,
                                   int64_t head_dim, int64_t n_groups) {
    const int64_t heads_per_group = n_head / n_groups;
    for (int64_t t = 0; t < n_tokens; ++t) {
        for (int64_t h = 0; h < n_head; ++h) {
            const float g = scales[t * n_groups + h / heads_per_group];
            float* zh = z + (t * n_head + h) * head_dim;
            for (int64_t d = 0; d < head_dim; ++d) zh[d] *= g;
        }
    }
}

} // namespace octo
