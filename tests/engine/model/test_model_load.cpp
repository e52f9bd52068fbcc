// Model loading and sessions: tied output fallback, rope_freqs, the memory check, progress and
// cancellation, and the errors a session reports.
// Covers: model.cpp, memory_estimate.cpp, model_weights.cpp
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/model/synthetic_model.h"

namespace octo {
namespace {

Result<std::unique_ptr<Model>> load(const std::vector<uint8_t>& bytes, const LoadOptions& options = {}) {
    auto file = GgufFile::parse(bytes);
    if (!file) return file.error();
    return Model::from_gguf(std::move(file.value()), options);
}

TEST(ModelLoad, SeparateOutputMatrix) {
    const auto bytes = make_synthetic_model({}).value();
    auto m = load(bytes);
    ASSERT_TRUE(m) << m.error().message;
    const ModelWeights& w = (*m)->weights();
    EXPECT_FALSE(w.output_tied);
    EXPECT_NE(w.output, w.token_embd);
    EXPECT_EQ(w.output->name, "output.weight");
    EXPECT_EQ(w.rope_freqs, nullptr);
    ASSERT_EQ(w.layers.size(), 2u);
    EXPECT_EQ(w.layers[1].ffn_down->name, "blk.1.ffn_down.weight");
    EXPECT_EQ(w.layers[0].attn_q_bias, nullptr);
}

TEST(ModelLoad, TiedOutputFallsBackToEmbeddingAndRopeFreqsAreBound) {
    const auto bytes = make_synthetic_model({.architecture = "qwen2", .tied_output = true, .rope_freqs = true}).value();
    auto m = load(bytes);
    ASSERT_TRUE(m) << m.error().message;
    const ModelWeights& w = (*m)->weights();
    EXPECT_TRUE(w.output_tied);
    EXPECT_EQ(w.output, w.token_embd);
    ASSERT_NE(w.rope_freqs, nullptr);
    EXPECT_EQ(w.rope_freqs->ne[0], 32); // head_dim 64 / 2
    EXPECT_NE(w.layers[0].attn_k_bias, nullptr);
}

TEST(ModelLoad, RefusesWhenTheEstimateExceedsAvailableMemory) {
    const auto bytes = make_synthetic_model({}).value();
    LoadOptions options;
    options.n_ctx = 64;
    options.available_bytes = 1 << 20; // 1 MiB: the weights alone take more
    auto m = load(bytes, options);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, ErrorCode::OutOfMemory);
    EXPECT_NE(m.error().message.find("KV cache"), std::string::npos) << m.error().message;

    options.available_bytes = 1ull << 40;
    auto ok = load(bytes, options);
    ASSERT_TRUE(ok) << ok.error().message;
    const MemoryEstimate& e = (*ok)->memory_estimate();
    EXPECT_EQ(e.kv_bytes, 2u * 2 * 64 * 128 * 4); // 2 layers, 64 cells, n_embd_kv 128, F32
    EXPECT_GT(e.weights_bytes, 2u * 1000 * 1000);
}

// Without an asked context a model opens with its whole trained one when it fits, else the
// longest halving that does (never below 512); one asked for is taken or refused, never shortened.
TEST(ModelLoad, DefaultContextIsTheWholeOneAsFarAsMemoryAllows) {
    const auto bytes = make_synthetic_model({.context_length = 16384}).value();
    LoadOptions options;
    options.available_bytes = 1ull << 40;
    auto whole = load(bytes, options);
    ASSERT_TRUE(whole) << whole.error().message;
    EXPECT_EQ((*whole)->n_ctx(), 16384) << "the trained context, not capped at 4096";
    EXPECT_FALSE((*whole)->context_shortened());
    const MemoryEstimate& e = (*whole)->memory_estimate();
    const uint64_t per_position = e.kv_bytes / 16384; // 2 layers x n_embd_kv 128 x 8 bytes (F32 K and V)
    EXPECT_EQ(per_position, 2u * 128 * 8);

    // room for the weights, activations and 3,000 positions: 2,048 (16,384 halved three times)
    options.available_bytes = e.weights_bytes + e.scratch_bytes + 3000 * per_position;
    auto shortened = load(bytes, options);
    ASSERT_TRUE(shortened) << shortened.error().message;
    EXPECT_EQ((*shortened)->n_ctx(), 2048);
    EXPECT_TRUE((*shortened)->context_shortened());
    options.kv_types = {TensorType::F16, TensorType::F16}; // half the bytes a position: twice the context
    EXPECT_EQ(load(bytes, options).value()->n_ctx(), 4096);

    options.kv_types = {};
    options.n_ctx = 8192; // asked: refused rather than shortened
    auto asked = load(bytes, options);
    ASSERT_FALSE(asked);
    EXPECT_EQ(asked.error().code, ErrorCode::OutOfMemory);
    options.n_ctx = 0;
    options.available_bytes = e.weights_bytes + e.scratch_bytes + 100 * per_position; // not even 512 positions
    auto none = load(bytes, options);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, ErrorCode::OutOfMemory);
}

TEST(ModelLoad, ReportsProgressUpToOne) {
    const auto bytes = make_synthetic_model({}).value();
    std::vector<double> seen;
    LoadOptions options;
    options.progress = [&](double f) {
        seen.push_back(f);
        return true;
    };
    ASSERT_TRUE(load(bytes, options));
    ASSERT_GE(seen.size(), 2u);
    EXPECT_EQ(seen.front(), 0.0);
    EXPECT_EQ(seen.back(), 1.0);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
}

TEST(ModelLoad, ProgressCallbackCancels) {
    const auto bytes = make_synthetic_model({}).value();
    int calls = 0;
    LoadOptions options;
    options.progress = [&](double) { return ++calls < 3; };
    auto m = load(bytes, options);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, ErrorCode::Cancelled);
    EXPECT_EQ(calls, 3);
}

class SessionErrors : public ::testing::Test {
protected:
    void SetUp() override {
        bytes_ = make_synthetic_model({.context_length = 8}).value();
        auto m = load(bytes_);
        ASSERT_TRUE(m) << m.error().message;
        model_ = std::move(m.value());
        backend_ = std::move(CpuBackend::create({2, std::nullopt}).value());
    }
    std::vector<uint8_t> bytes_;
    std::unique_ptr<Model> model_;
    std::unique_ptr<CpuBackend> backend_;
};

TEST_F(SessionErrors, RejectsBadTokensAndAFullContext) {
    auto s = Session::create(*model_, *backend_);
    ASSERT_TRUE(s);
    Session& session = **s;
    EXPECT_EQ(session.n_ctx(), 8);
    EXPECT_EQ(session.eval({}).error().code, ErrorCode::InvalidArgument);
    const std::vector<int32_t> bad = {1, static_cast<int32_t>(model_->params().n_vocab)};
    EXPECT_EQ(session.eval(bad).error().code, ErrorCode::InvalidArgument);
    const std::vector<int32_t> six = {1, 2, 3, 4, 5, 6};
    ASSERT_TRUE(session.eval(six));
    EXPECT_EQ(session.position(), 6);
    EXPECT_EQ(session.eval(six).error().code, ErrorCode::InvalidArgument); // 12 > 8
    EXPECT_EQ(session.position(), 6);
    session.reset();
    EXPECT_EQ(session.position(), 0);
    EXPECT_TRUE(session.eval(six));
}

TEST_F(SessionErrors, CancelFlagStopsEvaluation) {
    std::atomic<bool> cancel{true};
    auto s = Session::create(*model_, *backend_, {0, 0, false, &cancel, {}, {}});
    ASSERT_TRUE(s);
    const std::vector<int32_t> tokens = {1, 2, 3};
    auto r = (*s)->eval(tokens);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::Cancelled);
    EXPECT_EQ((*s)->position(), 0);
    cancel = false;
    EXPECT_TRUE((*s)->eval(tokens));
    EXPECT_EQ((*s)->position(), 3);
}

} // namespace
} // namespace octo
