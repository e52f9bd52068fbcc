#include "engine/router/centroids.h"

#include <cmath>

#include "engine/router/lexical_embedding.h"

namespace octo {

Centroids compute_centroids(std::span<const std::vector<float>> embeddings, std::span<const int> labels) {
    Centroids c;
    const size_t dims = embeddings.empty() ? 0 : embeddings.front().size();
    std::array<std::vector<double>, kSubsystemCount> sum;
    for (auto& s : sum) s.assign(dims, 0.0);
    for (size_t i = 0; i < embeddings.size() && i < labels.size(); ++i) {
        auto& s = sum[static_cast<size_t>(labels[i])];
        for (size_t d = 0; d < dims; ++d) s[d] += embeddings[i][d];
    }
    for (size_t k = 0; k < c.size(); ++k) {
        double norm = 0.0;
        for (double v : sum[k]) norm += v * v;
        c[k].assign(dims, 0.0f);
        if (norm == 0.0) continue;
        const double inv = 1.0 / std::sqrt(norm);
        for (size_t d = 0; d < dims; ++d) c[k][d] = static_cast<float>(sum[k][d] * inv);
    }
    return c;
}

std::array<float, kSubsystemCount> centroid_similarities(const Centroids& centroids, std::span<const float> embedding) {
    std::array<float, kSubsystemCount> out{};
    for (size_t k = 0; k < out.size(); ++k) out[k] = cosine(centroids[k], embedding);
    return out;
}

} // namespace octo
