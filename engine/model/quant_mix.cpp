#include "engine/model/quant_mix.h"

#include <cctype>
#include <string>

namespace octo {

std::string_view quant_mix_name(QuantMix mix) {
    switch (mix) {
    case QuantMix::Q4_K_M: return "Q4_K_M";
    case QuantMix::Q5_K_M: return "Q5_K_M";
    }
    return "?";
}

std::optional<QuantMix> parse_quant_mix(std::string_view name) {
    std::string upper(name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (QuantMix mix : {QuantMix::Q4_K_M, QuantMix::Q5_K_M}) {
        if (quant_mix_name(mix) == upper) return mix;
    }
    return std::nullopt;
}

bool use_more_bits(int64_t layer, int64_t n_layer) {
    const int64_t eighth = n_layer / 8;
    return layer < eighth || layer >= 7 * n_layer / 8 || (layer - eighth) % 3 == 2;
}

TensorType quant_mix_type(QuantMix mix, MatrixRole role, int64_t layer, int64_t n_layer, bool tied_output) {
    const TensorType base = mix == QuantMix::Q4_K_M ? TensorType::Q4_K : TensorType::Q5_K;
    switch (role) {
    case MatrixRole::Output: return TensorType::Q6_K;
    case MatrixRole::TokenEmbd: return tied_output ? TensorType::Q6_K : base;
    case MatrixRole::AttnV:
    case MatrixRole::FfnDown: return use_more_bits(layer, n_layer) ? TensorType::Q6_K : base;
    case MatrixRole::AttnQ:
    case MatrixRole::AttnK:
    case MatrixRole::AttnOutput:
    case MatrixRole::FfnGate:
    case MatrixRole::FfnUp: break;
    }
    return base;
}

} // namespace octo
