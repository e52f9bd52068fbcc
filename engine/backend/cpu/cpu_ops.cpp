// The element-wise and per-row operations of the CPU backend.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cpu/cpu_features.h"
#include "engine/backend/cpu/lane_dot.h"
#include "engine/backend/cpu/reference_float.h"
#include "engine/core/half.h"

namespace octo {

namespace {

constexpr int64_t kElementChunk = 16384; // elements per task of the element-wise ops

// lane_dot.h's order, compiled for FMA machines too (head_matmul's inner product)
OCTO_FMA_CLONES
float dot_f32(const float* a, const float* b, int64_t n) { return lane8_dot(a, b, n); }

} // namespace

// fn(begin, end) over [0, n) in chunks spread across the pool (element-wise ops: any split gives
// the same values).
template <class Fn>
void CpuBackend::for_each_chunk(int64_t n, Fn&& fn) {
    const int64_t n_chunks = (n + kElementChunk - 1) / kElementChunk;
    if (n_chunks <= 1) {
        fn(int64_t{0}, n);
        return;
    }
    pool_.parallel_for(n_chunks, [&](int64_t c, int) { fn(c * kElementChunk, std::min(n, (c + 1) * kElementChunk)); });
}

void CpuBackend::rms_norm(const float* x, const float* weight, float* y, int64_t n_tokens, int64_t n,
                          float eps) {
    pool_.parallel_for(n_tokens, [&](int64_t t, int) {
        const float* xt = x + t * n; // [n]
        float* yt = y + t * n;       // [n]
        double sum = 0.0;            // float squares summed in double, left to right
        for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(xt[i] * xt[i]);
        const float mean = static_cast<float>(sum / static_cast<double>(n));
        const float scale = 1.0f / std::sqrt(mean + eps);
        for (int64_t i = 0; i < n; ++i) yt[i] = (xt[i] * scale) * weight[i];
    });
}

void CpuBackend::add_bias(float* y, const float* bias, int64_t n_tokens, int64_t n) {
    // whole rows per task (no index division per element), about kElementChunk values a task
    const int64_t rows = std::max<int64_t>(1, kElementChunk / std::max<int64_t>(n, 1));
    const auto add_rows = [&](int64_t first, int64_t last) {
        for (int64_t t = first; t < last; ++t) {
            float* yt = y + t * n;
            for (int64_t i = 0; i < n; ++i) yt[i] += bias[i];
        }
    };
    if (n_tokens <= rows) return add_rows(0, n_tokens);
    pool_.parallel_for((n_tokens + rows - 1) / rows,
                       [&](int64_t c, int) { add_rows(c * rows, std::min(n_tokens, (c + 1) * rows)); });
}

void CpuBackend::add(float* y, const float* x, int64_t n) {
    for_each_chunk(n, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) y[i] += x[i];
    });
}

void CpuBackend::swiglu(const float* gate, const float* up, float* out, int64_t n_rows, int64_t row,
                        Precision precision) {
    for_each_chunk(n_rows * row, [&](int64_t begin, int64_t end) {
        if (precision == Precision::Reference) {
            reference_silu_mul(gate + begin, up + begin, out + begin, end - begin, begin % row, row);
            return;
        }
        for (int64_t i = begin; i < end; ++i) {
            const float g = gate[i];
            out[i] = g / (1.0f + std::exp(-g)) * up[i];
        }
    });
}

void CpuBackend::clamped_swiglu(const float* gate, const float* up, float* out, int64_t n, float alpha, float limit) {
    for_each_chunk(n, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const float g = std::min(gate[i], limit);
            const float u = std::clamp(up[i], -limit, limit);
            out[i] = g / (1.0f + std::exp(alpha * -g)) * (u + 1.0f);
        }
    });
}

void CpuBackend::copy_columns(const float* x, int64_t x_stride, float* y, int64_t y_stride, int64_t n_rows, int64_t width) {
    const auto bytes = static_cast<size_t>(width) * sizeof(float);
    for (int64_t r = 0; r < n_rows; ++r) std::memcpy(y + r * y_stride, x + r * x_stride, bytes);
}

void CpuBackend::head_matmul(const HeadProduct& m, const float* x, float* y, int64_t n_tokens, int64_t n_head) {
    // a task: one head's outputs for a run of tokens (that head's weights stay in cache)
    constexpr int64_t kTokens = 16;
    const int64_t runs = (n_tokens + kTokens - 1) / kTokens;
    pool_.parallel_for(n_head * runs, [&](int64_t task, int) {
        const int64_t h = task / runs;
        const float* wh = m.w + h * m.n_out * m.n_in; // [n_out, n_in]
        for (int64_t t = task % runs * kTokens; t < std::min(n_tokens, (task % runs + 1) * kTokens); ++t) {
            const float* xt = x + t * m.x_stride + h * m.x_head;
            float* yt = y + t * m.y_stride + h * m.y_head;
            for (int64_t o = 0; o < m.n_out; ++o) yt[o] = dot_f32(wh + o * m.n_in, xt, m.n_in);
        }
    });
}

namespace {

float gelu_tanh(float x) {
    constexpr float kSqrt2OverPi = 0.79788456080286535587989211986876f;
    constexpr float kCoefA = 0.044715f;
    return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * x * (1.0f + kCoefA * x * x)));
}

// The reference's GELU in float as its build computes it with FMA: GCC fuses the one a·b + c of
// the formula, 1 + (a·x)·x.
float gelu_tanh_reference(float x) {
    constexpr float kSqrt2OverPi = 0.79788456080286535587989211986876f;
    constexpr float kCoefA = 0.044715f;
    return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * x * std::fma(kCoefA * x, x, 1.0f)));
}

// GELU as the reference's CPU backend computes it: a table over every fp16 value.
float gelu_f16_table(float x) {
    if (x <= -10.0f) return 0.0f;
    if (x >= 10.0f) return x;
    static const std::vector<uint16_t> table = [] {
        std::vector<uint16_t> t(65536);
        for (uint32_t i = 0; i < 65536; ++i) t[i] = fp32_to_fp16(gelu_tanh_reference(fp16_to_fp32(static_cast<uint16_t>(i))));
        return t;
    }();
    return fp16_to_fp32(table[fp32_to_fp16(x)]);
}

} // namespace

void CpuBackend::gelu_gate(const float* gate, const float* up, float* out, int64_t n, GeluMode mode) {
    for_each_chunk(n, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const float g = mode == GeluMode::F16Rounding ? gelu_f16_table(gate[i]) : gelu_tanh(gate[i]);
            out[i] = g * up[i];
        }
    });
}

void CpuBackend::scale(float* x, int64_t n, float s) {
    for_each_chunk(n, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) x[i] *= s;
    });
}

void CpuBackend::softcap(float* x, int64_t n, float cap) {
    const float inv = 1.0f / cap;
    for_each_chunk(n, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) x[i] = std::tanh(x[i] * inv) * cap;
    });
}

void CpuBackend::gather_rows(const float* x, std::span<const int32_t> rows, float* out, int64_t n) {
    for (size_t i = 0; i < rows.size(); ++i) std::copy_n(x + rows[i] * n, n, out + static_cast<int64_t>(i) * n);
}

void CpuBackend::scatter_rows(const float* x, std::span<const int32_t> rows, float* out, int64_t n) {
    for (size_t i = 0; i < rows.size(); ++i) std::copy_n(x + static_cast<int64_t>(i) * n, n, out + rows[i] * n);
}

void CpuBackend::weighted_sum(const float* x, const float* w, float* out, int64_t n_tokens, int64_t n_slots, int64_t n) {
    for (int64_t t = 0; t < n_tokens; ++t) {
        float* o = out + t * n;
        const float* xt = x + t * n_slots * n;
        const float* wt = w + t * n_slots;
        for (int64_t i = 0; i < n; ++i) o[i] = xt[i] * wt[0];
        for (int64_t s = 1; s < n_slots; ++s) {
            for (int64_t i = 0; i < n; ++i) o[i] += xt[s * n + i] * wt[s];
        }
    }
}

void CpuBackend::softmax_rows(float* x, int64_t n_rows, int64_t n) {
    for (int64_t r = 0; r < n_rows; ++r) {
        float* row = x + r * n;
        const float max_value = *std::max_element(row, row + n);
        float sum = 0.0f;
        for (int64_t i = 0; i < n; ++i) {
            row[i] = std::exp(row[i] - max_value);
            sum += row[i];
        }
        for (int64_t i = 0; i < n; ++i) row[i] /= sum;
    }
}

void yarn_corr_dims(int64_t n_rot, int64_t n_ctx_orig, double freq_base, float& low, float& high) {
    const auto dim = [&](double rotations) {
        return static_cast<double>(n_rot) * std::log(static_cast<double>(n_ctx_orig) / (rotations * 2.0 * M_PI)) /
               (2.0 * std::log(freq_base));
    };
    low = static_cast<float>(std::max(0.0, std::floor(dim(32.0))));
    high = static_cast<float>(std::min(static_cast<double>(n_rot - 1), std::ceil(dim(1.0))));
}

namespace {

// Each head's pairs (Normal: (2i, 2i+1); NeoX: (i, i + n_rot/2)) turned by the angles' cos and sin;
// `fused`: the reference's steps, the first product of each sum fused (RopeParams::reference_steps).
OCTO_FMA_CLONES
void rotate_pairs(float* x, int64_t n_heads, int64_t head_dim, int64_t n_pairs, RopeLayout layout, const float* cos_theta,
                  const float* sin_theta, bool fused) {
    for (int64_t h = 0; h < n_heads; ++h) {
        float* head = x + h * head_dim; // [head_dim]
        for (int64_t i = 0; i < n_pairs; ++i) {
            const int64_t a = layout == RopeLayout::Normal ? 2 * i : i;
            const int64_t b = layout == RopeLayout::Normal ? 2 * i + 1 : i + n_pairs;
            const float x0 = head[a];
            const float x1 = head[b];
            if (fused) {
                head[a] = std::fma(x0, cos_theta[i], -(x1 * sin_theta[i]));
                head[b] = std::fma(x0, sin_theta[i], x1 * cos_theta[i]);
            } else {
                head[a] = x0 * cos_theta[i] - x1 * sin_theta[i];
                head[b] = x0 * sin_theta[i] + x1 * cos_theta[i];
            }
        }
    }
}

} // namespace

void CpuBackend::rope(float* x, int64_t n_tokens, int64_t n_heads, int64_t head_dim,
                      std::span<const int32_t> positions, const RopeParams& params) {
    const bool fused = params.reference_steps;
    const int64_t n_pairs = params.n_rot / 2;
    pool_.parallel_for(n_tokens, [&](int64_t t, int) {
        std::vector<float> cos_theta(static_cast<size_t>(n_pairs)); // [n_rot / 2]
        std::vector<float> sin_theta(static_cast<size_t>(n_pairs)); // [n_rot / 2]
        if (params.ext_factor > 0.0f) { // YaRN, in float as the reference computes it
            const float scale = static_cast<float>(params.freq_scale);
            const float ln = std::log(1.0f / scale);
            const float mscale = params.attn_factor * (fused ? std::fma(0.1f, ln, 1.0f) : 1.0f + 0.1f * ln);
            const float step = std::pow(static_cast<float>(params.freq_base), -2.0f / static_cast<float>(params.n_rot));
            float theta = static_cast<float>(positions[t]);
            for (int64_t i = 0; i < n_pairs; ++i, theta *= step) {
                const float ff = params.freq_factors ? params.freq_factors[i] : 1.0f;
                const float extrap = theta / ff;
                const float interp = scale * extrap;
                const float y = (static_cast<float>(i) - params.corr_low) / std::max(0.001f, params.corr_high - params.corr_low);
                const float mix = (1.0f - std::min(1.0f, std::max(0.0f, y))) * params.ext_factor;
                const float angle = fused ? std::fma(interp, 1.0f - mix, extrap * mix) : interp * (1.0f - mix) + extrap * mix;
                cos_theta[i] = std::cos(angle) * mscale;
                sin_theta[i] = std::sin(angle) * mscale;
            }
        } else if (params.reference_steps) {
            // theta_0 = pos, theta_i = theta_(i-1) * base^(-2 / n_rot), all in float.
            const float step = std::pow(static_cast<float>(params.freq_base), -2.0f / static_cast<float>(params.n_rot));
            float theta = static_cast<float>(positions[t]);
            for (int64_t i = 0; i < n_pairs; ++i, theta *= step) {
                const float ff = params.freq_factors ? params.freq_factors[i] : 1.0f;
                const float angle = static_cast<float>(params.freq_scale) * (theta / ff);
                cos_theta[i] = std::cos(angle) * params.attn_factor;
                sin_theta[i] = std::sin(angle) * params.attn_factor;
            }
        } else {
            for (int64_t i = 0; i < n_pairs; ++i) {
                double theta = positions[t] * params.freq_scale *
                               std::pow(params.freq_base, -2.0 * static_cast<double>(i) / static_cast<double>(params.n_rot));
                if (params.freq_factors) theta /= params.freq_factors[i];
                cos_theta[i] = static_cast<float>(std::cos(theta)) * params.attn_factor;
                sin_theta[i] = static_cast<float>(std::sin(theta)) * params.attn_factor;
            }
        }
        rotate_pairs(x + t * n_heads * head_dim, n_heads, head_dim, n_pairs, params.layout, cos_theta.data(),
                     sin_theta.data(), fused);
    });
}

} // namespace octo
