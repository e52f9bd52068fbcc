#include "app/cli/bench_reference.h"

#include <algorithm>

#include "app/cli/bench_weights.h"

namespace octo::cli {

Result<nlohmann::json> cuda_reference(CudaBackend& cuda, const Model& model, double decode_tokens_per_s,
                                      double prefill_tokens_per_s, int64_t prompt_tokens) {
    const MatmulWeights w = matmul_weights(model);
    // A copy as large as the weights (at least 256 MiB, at most 4 GiB), as a large copy's rate.
    const uint64_t copy_bytes = std::clamp<uint64_t>(w.bytes, uint64_t{256} << 20, uint64_t{4} << 30);
    auto copy = cuda.copy_rate(copy_bytes, 10);
    if (!copy) return copy.error();
    // The prefill's largest product: the FFN's [n_ff, n_embd] by the prompt's tokens.
    const ModelParams& p = model.params();
    auto gemm = cuda.gemm_rate(p.n_ff, prompt_tokens, p.n_embd, 10);
    if (!gemm) return gemm.error();
    const double decode_gbps = static_cast<double>(w.bytes) * decode_tokens_per_s / 1e9;
    const double prefill_tflops = 2.0 * static_cast<double>(w.elements) * prefill_tokens_per_s / 1e12;
    return nlohmann::json{
        {"weight_bytes_per_token", w.bytes},
        {"matmul_flop_per_token", 2 * w.elements},
        {"copy_gb_per_s", copy.value()},
        {"decode_gb_per_s", decode_gbps},
        {"decode_fraction_of_copy", decode_gbps / copy.value()},
        {"gemm_tflop_per_s", gemm.value()},
        {"prefill_tflop_per_s", prefill_tflops},
        {"prefill_fraction_of_gemm", prefill_tflops / gemm.value()},
    };
}

} // namespace octo::cli
