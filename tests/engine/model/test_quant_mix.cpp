// llama-quantize's Q4_K_M / Q5_K_M layouts (engine/model/quant_mix.h) and synthetic models that
// use them: which layers get more bits, and the type of every tensor the model file holds.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "engine/gguf/gguf_file.h"
#include "engine/model/quant_mix.h"
#include "engine/model/synthetic_model.h"

namespace octo {
namespace {

// Every tensor's type in a synthetic llama model of n_layer layers with the Q4_K_M mix, against
// the layers (given by hand, from the rule's definition) whose attn_v and ffn_down are Q6_K.
void expect_q4_k_m_types(int64_t n_layer, bool tied_output, const std::set<int64_t>& more_bits_layers) {
    SyntheticModelSpec spec;
    spec.mix = QuantMix::Q4_K_M;
    spec.n_layer = n_layer;
    spec.tied_output = tied_output;
    const auto bytes = make_synthetic_model(spec);
    ASSERT_TRUE(bytes) << bytes.error().message;
    auto file = GgufFile::parse(bytes.value());
    ASSERT_TRUE(file) << file.error().message;
    const auto type_of = [&](const std::string& name) {
        const GgufTensorInfo* t = file->find_tensor(name);
        EXPECT_NE(t, nullptr) << name;
        return t ? t->type.type : TensorType::I8;
    };
    EXPECT_EQ(type_of("token_embd.weight"), tied_output ? TensorType::Q6_K : TensorType::Q4_K);
    if (tied_output) {
        EXPECT_EQ(file->find_tensor("output.weight"), nullptr);
    } else {
        EXPECT_EQ(type_of("output.weight"), TensorType::Q6_K);
    }
    EXPECT_EQ(type_of("output_norm.weight"), TensorType::F32);
    for (int64_t l = 0; l < n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        const TensorType more = more_bits_layers.count(l) ? TensorType::Q6_K : TensorType::Q4_K;
        EXPECT_EQ(type_of(b + "attn_v.weight"), more) << l;
        EXPECT_EQ(type_of(b + "ffn_down.weight"), more) << l;
        for (const char* m : {"attn_q", "attn_k", "attn_output", "ffn_gate", "ffn_up"}) {
            EXPECT_EQ(type_of(b + m + ".weight"), TensorType::Q4_K) << b << m;
        }
        EXPECT_EQ(type_of(b + "attn_norm.weight"), TensorType::F32);
        EXPECT_EQ(type_of(b + "ffn_norm.weight"), TensorType::F32);
    }
    // Nothing else: 9 tensors per layer, embedding, output norm and (untied) output.
    EXPECT_EQ(file->tensors().size(), static_cast<size_t>(9 * n_layer + 2 + (tied_output ? 0 : 1)));
}

TEST(QuantMix, Q4KMOnSixteenLayers) {
    // n/8 = 2: layers 0-1 and 14-15, and every third from 2 + 2 = 4.
    expect_q4_k_m_types(16, true, {0, 1, 4, 7, 10, 13, 14, 15});
}

TEST(QuantMix, Q4KMOnTwelveLayers) {
    // n/8 = 1, 7n/8 = 10: layer 0, layers 10-11, and every third from 1 + 2 = 3.
    expect_q4_k_m_types(12, false, {0, 3, 6, 9, 10, 11});
}

TEST(QuantMix, Q5KMAndNames) {
    EXPECT_EQ(parse_quant_mix("q4_k_m"), QuantMix::Q4_K_M);
    EXPECT_EQ(parse_quant_mix("Q5_K_M"), QuantMix::Q5_K_M);
    EXPECT_EQ(parse_quant_mix("q4_k"), std::nullopt);
    EXPECT_EQ(quant_mix_name(QuantMix::Q5_K_M), "Q5_K_M");
    EXPECT_EQ(quant_mix_type(QuantMix::Q5_K_M, MatrixRole::AttnQ, 0, 16, false), TensorType::Q5_K);
    EXPECT_EQ(quant_mix_type(QuantMix::Q5_K_M, MatrixRole::FfnDown, 0, 16, false), TensorType::Q6_K);
    EXPECT_EQ(quant_mix_type(QuantMix::Q5_K_M, MatrixRole::FfnDown, 2, 16, false), TensorType::Q5_K);
    EXPECT_EQ(quant_mix_type(QuantMix::Q5_K_M, MatrixRole::TokenEmbd, 0, 16, false), TensorType::Q5_K);
    EXPECT_EQ(quant_mix_type(QuantMix::Q5_K_M, MatrixRole::TokenEmbd, 0, 16, true), TensorType::Q6_K);
}

TEST(QuantMix, RowsTheKQuantsCannotStoreAreAnError) {
    SyntheticModelSpec spec;
    spec.mix = QuantMix::Q4_K_M;
    spec.n_embd = 64;
    spec.n_head = 2;
    spec.n_head_kv = 2;
    EXPECT_FALSE(make_synthetic_model(spec));
}

} // namespace
} // namespace octo
