// A float64 forward pass of every supported architecture, written here from the architectures'
// published definitions (not from the engine's code), and the engine's run of the same prompt
// to compare it with: the tests that verify an architecture by construction (docs/models.md).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/gguf/dequantize.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/model/model.h"

namespace octo::test {

using Vec = std::vector<double>;

// A matrix tensor's rows as floats (the values the engine multiplies at exact precision).
struct Matrix {
    std::vector<float> w; // [n_out][n_in]
    int64_t n_in = 0;

    // every row, of every matrix of a 3-D tensor of experts too
    explicit Matrix(const GgufTensorInfo& t)
        : w(dequantize_rows(t, 0, t.n_dims == 3 ? t.ne[1] * t.ne[2] : t.ne[1]).value()), n_in(t.ne[0]) {}

    // rows [first, first + n) times x
    Vec times(const Vec& x, int64_t first, int64_t n) const {
        Vec y(static_cast<size_t>(n), 0.0);
        for (int64_t r = 0; r < n; ++r) {
            const float* row = w.data() + (first + r) * n_in;
            for (int64_t i = 0; i < n_in; ++i) y[static_cast<size_t>(r)] += static_cast<double>(row[i]) * x[static_cast<size_t>(i)];
        }
        return y;
    }
    Vec times(const Vec& x) const { return times(x, 0, static_cast<int64_t>(w.size()) / n_in); }
};

Vec f32_vector(const GgufTensorInfo* t);

// x[first, first + n) / sqrt(mean(x²) + eps) * w
void rms_norm(Vec& x, int64_t first, int64_t n, const Vec& w, double eps);

struct RopeSpec {
    bool neox = false;
    int64_t n_rot = 0;
    double base = 10000.0;
    std::vector<double> factors; // [n_rot / 2] or empty
    double attn_factor = 1.0;
    double freq_scale = 1.0;  // linear or YaRN scaling (1 / factor)
    bool yarn = false;        // YaRN with the published ramp between rotations 32 and 1
    int64_t yarn_orig_ctx = 0;
};

// One head of head_dim values at x[first...], position pos.
void rope(Vec& x, int64_t first, int64_t pos, const RopeSpec& r);

struct Forward64 {
    std::vector<Vec> logits;                   // [n_tokens][n_vocab]
    std::vector<std::vector<Vec>> head_outputs; // [n_tokens][n_layer][n_q]
};

// Steps the float64 pass can leave out, to show that the comparison notices each of them.
struct Steps {
    bool qk_norm = true;
    bool window = true;        // sliding windows (ModelParams::layer_window)
    bool attn_softcap = true;
    bool final_softcap = true;
    bool post_norms = true;
    bool local_rope = true;    // sliding layers' own RoPE base (gemma3)
    bool renormalise_experts = true; // as the architecture says (false: never)
    bool sinks = true;         // attention sink logits (gpt-oss)
    bool clamp = true;         // gpt-oss's SwiGLU limits (false: the plain sigmoid(1.702 g) form, unclamped)
    std::vector<uint8_t> disabled_experts = {}; // [n_layer][n_expert] taken out of the router's choice
};

// The prompt from position 0, causal attention over the earlier positions (the last `window` of
// them on a sliding layer).
Forward64 forward64(const Model& model, const std::vector<int32_t>& tokens, const RopeSpec& rope_spec, const Steps& steps = {});

// The model's RoPE as the float64 pass takes it (factors: a factor tensor to divide by, or null).
RopeSpec rope_of(const Model& model, const GgufTensorInfo* factors = nullptr);

// The engine at exact precision: the prompt as one batch, every position's logits, head outputs
// and probe.
struct EngineRun {
    std::vector<std::vector<float>> logits;       // [n_tokens][n_vocab]
    std::vector<std::vector<float>> head_outputs; // [n_tokens][n_layer * n_q]
    std::vector<TokenProbe> probes;               // [n_tokens]
};

EngineRun run_engine(const Model& model, const std::vector<int32_t>& tokens, int64_t n_ctx = 0,
                     const ExpertAblation& experts = {});

// The worst relative L2 error over positions of the logits and of every layer's attention output.
struct Errors {
    double logits = 0.0;
    double head_outputs = 0.0;
};

Errors compare(const EngineRun& got, const Forward64& want, int64_t n_layer, int64_t n_q);

} // namespace octo::test
