// Model contents are validated before use: each inconsistency gets its own message.
// Covers: synthetic_model.cpp
#include <gtest/gtest.h>

#include "engine/gguf/gguf_file.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/model/model_params.h"
#include "engine/model/model_validation.h"
#include "engine/model/synthetic_model.h"

namespace {

octo::ModelParams good_params() {
    octo::ModelParams p;
    p.architecture = "llama";
    p.n_layer = 2;
    p.n_head = 8;
    p.n_head_kv = 4;
    p.n_embd = 64;
    p.n_ff = 128;
    p.n_vocab = 100;
    p.context_length = 128;
    p.n_rot = 8;
    return p;
}

void expect_invalid(const octo::ModelParams& p, const std::string& expected) {
    auto s = octo::validate_hparams(p);
    ASSERT_FALSE(s.ok()) << "accepted; expected: " << expected;
    EXPECT_EQ(s.error().code, octo::ErrorCode::InvalidModel);
    EXPECT_NE(s.error().message.find(expected), std::string::npos) << s.error().message;
}

TEST(ModelValidation, HyperparametersThatMakeSense) {
    EXPECT_TRUE(octo::validate_hparams(good_params()).ok());
    auto p = good_params();
    p.n_head = 0;
    expect_invalid(p, "attention.head_count is 0");
    p = good_params();
    p.n_embd = 60;
    expect_invalid(p, "embedding_length 60 is not divisible by head_count 8");
    p = good_params();
    p.n_head_kv = 3;
    expect_invalid(p, "head_count 8 is not divisible by head_count_kv 3");
    p = good_params();
    p.n_layer = 0;
    expect_invalid(p, "block_count is 0");
    p = good_params();
    p.n_rot = 7;
    expect_invalid(p, "rope.dimension_count 7 must be even");
    p = good_params();
    p.context_length = -5;
    expect_invalid(p, "context_length is -5");
}

class ModelContents : public ::testing::Test {
protected:
    void SetUp() override {
        bytes_ = octo::make_synthetic_model(spec_).value();
        auto f = octo::GgufFile::parse(bytes_);
        ASSERT_TRUE(f.ok()) << f.error().message;
        file_.emplace(std::move(f.value()));
        auto p = octo::read_model_params(*file_);
        ASSERT_TRUE(p.ok()) << p.error().message;
        params_ = p.value();
    }
    octo::SyntheticModelSpec spec_;
    std::vector<uint8_t> bytes_;
    std::optional<octo::GgufFile> file_;
    octo::ModelParams params_;
};

TEST_F(ModelContents, AValidModelPasses) {
    auto s = octo::validate_model(*file_, params_, spec_.n_vocab);
    EXPECT_TRUE(s.ok()) << s.error().message;
}

TEST_F(ModelContents, ShapeThatDisagreesWithHyperparameters) {
    params_.n_ff = 999;
    auto s = octo::validate_model(*file_, params_, spec_.n_vocab);
    ASSERT_FALSE(s.ok());
    const std::string expected = "tensor 'blk.0.ffn_gate.weight' has shape [" + std::to_string(spec_.n_embd) + ", " +
                                 std::to_string(spec_.n_ff) + "], expected [" + std::to_string(spec_.n_embd) +
                                 ", 999]";
    EXPECT_NE(s.error().message.find(expected), std::string::npos)
        << s.error().message;
}

TEST_F(ModelContents, EmbeddingRowsMustEqualVocabularySize) {
    auto s = octo::validate_model(*file_, params_, spec_.n_vocab + 1);
    ASSERT_FALSE(s.ok());
    const std::string expected = "token_embd.weight has " + std::to_string(spec_.n_vocab) +
                                 " rows but the tokenizer has " + std::to_string(spec_.n_vocab + 1) + " tokens";
    EXPECT_NE(s.error().message.find(expected), std::string::npos)
        << s.error().message;
}

TEST_F(ModelContents, UnsupportedArchitecture) {
    params_.architecture = "mamba";
    auto s = octo::validate_model(*file_, params_, spec_.n_vocab);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, octo::ErrorCode::Unsupported);
    EXPECT_NE(s.error().message.find("architecture 'mamba' is not supported"), std::string::npos);
}

TEST(ModelValidation, MissingTensorIsNamed) {
    octo::GgufWriter w;
    w.add_string("general.architecture", "llama");
    const auto p = good_params();
    std::vector<float> emb(static_cast<size_t>(p.n_embd * p.n_vocab), 0.0f);
    ASSERT_TRUE(w.add_tensor_f32("token_embd.weight", {p.n_embd, p.n_vocab}, octo::TensorType::F32, emb.data()).ok());
    auto bytes = w.to_bytes();
    auto f = octo::GgufFile::parse(bytes);
    ASSERT_TRUE(f.ok());
    auto s = octo::validate_model(f.value(), p, p.n_vocab);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("tensor 'output_norm.weight' is missing"), std::string::npos)
        << s.error().message;
}

TEST(ModelValidation, UnsupportedTensorTypeIsNamed) {
    octo::GgufWriter w;
    w.add_string("general.architecture", "llama");
    w.add_tensor_raw("blk.3.ffn_down.weight", {256, 1}, 15 /* Q8_K, ggml's internal activation type */, std::vector<uint8_t>(292));
    auto bytes = w.to_bytes();
    auto f = octo::GgufFile::parse(bytes);
    ASSERT_TRUE(f.ok());
    auto s = octo::validate_model(f.value(), good_params(), 100);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, octo::ErrorCode::Unsupported);
    EXPECT_EQ(s.error().message, "tensor 'blk.3.ffn_down.weight' has type Q8_K, which the engine cannot run");
}

} // namespace
