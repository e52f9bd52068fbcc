// The CUDA benchmark's targets (docs/cuda.md): decode bandwidth against a device-to-device copy
// and prefill throughput against a cuBLAS GEMM of the model's shapes, both measured in the same
// run as the engine's own figures.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "engine/backend/cuda/cuda_backend.h"
#include "engine/core/result.h"
#include "engine/model/model.h"

namespace octo::cli {

// {"copy_gb_per_s", "decode_gb_per_s", "decode_fraction_of_copy", "gemm_tflop_per_s",
//  "prefill_tflop_per_s", "prefill_fraction_of_gemm", "weight_bytes_per_token",
//  "matmul_flop_per_token"} from the engine's decode and prefill tokens/s on `model`.
Result<nlohmann::json> cuda_reference(CudaBackend& cuda, const Model& model, double decode_tokens_per_s,
                                      double prefill_tokens_per_s, int64_t prompt_tokens);

} // namespace octo::cli
