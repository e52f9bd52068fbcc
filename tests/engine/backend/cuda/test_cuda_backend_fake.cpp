// CudaBackend's plumbing against the fake module (tests/cuda_fake: the module's C API on the
// host, through the CPU backend): whole forward passes must give the CPU backend's logits bit
// for bit, and every failure path (no module, wrong API version, no device, allocation failure,
// cuBLAS failure, sticky error) must become a clear engine error or a CPU fallback. No GPU needed.
// Covers: cuda_api.cpp, cuda_backend.cpp, cuda_module.cpp, engine/backend/backend.cpp,
//   engine/backend/backend_selection.cpp
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "engine/backend/backend_selection.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cuda/cuda_backend.h"
#include "engine/host/model_setup.h"
#include "engine/inference/llama_forward.h"
#include "engine/inference/session.h"
#include "engine/model/synthetic_model.h"
#include "tests/support/loaded_model.h"
#include "tests/support/test_temp.h"

namespace octo {
namespace {

const std::vector<int32_t> kPrompt = {1, 17, 42, 5, 88, 63, 2, 30, 30, 71, 9, 12, 40, 41, 42, 43, 44};

std::unique_ptr<CudaBackend> fake_backend() {
    auto b = CudaBackend::create({0, FAKE_CUDA_MODULE});
    EXPECT_TRUE(b) << b.error().message;
    return b ? std::move(b.value()) : nullptr;
}

const CudaApi& fake_api() {
    static auto api = load_cuda_api(FAKE_CUDA_MODULE);
    return *api.value();
}

// Prompt in one batch, then three decode steps; every logit row concatenated. Exact precision:
// the CUDA kernels keep activations in float (docs/cuda.md).
Result<std::vector<float>> run(const Model& model, Backend& b) {
    SessionOptions options;
    options.n_batch = 8;
    options.precision = Precision::Exact;
    auto session = Session::create(model, b, options);
    if (!session) return session.error();
    std::vector<float> all;
    auto out = (*session)->eval(kPrompt);
    if (!out) return out.error();
    all.assign(out->begin(), out->end());
    for (int32_t t : {5, 6, 7}) {
        const int32_t token[1] = {t};
        out = (*session)->eval(token);
        if (!out) return out.error();
        all.insert(all.end(), out->begin(), out->end());
    }
    return all;
}

TEST(CudaBackendFake, ForwardPassMatchesTheCpuBackendBitForBit) {
    for (const std::string arch : {"llama", "qwen2", "qwen3", "phi3", "octet"}) {
        for (TensorType type : {TensorType::F32, TensorType::Q8_0, TensorType::Q4_K}) {
            SyntheticModelSpec spec;
            spec.architecture = arch;
            spec.weight_type = type;
            spec.rope_freqs = arch == "llama";
            if (arch == "qwen3") spec.head_dim = 128; // n_head * head_dim = 512 != n_embd
            if (arch == "phi3") {                     // LongRoPE's long factors and attention factor
                spec.long_rope_original_context = 32;
                spec.sliding_window = 64; // the whole context: nothing to mask, CUDA runs it
            }
            if (arch == "octet") spec.n_head = spec.router_groups; // one head per group
            auto m = test::load_synthetic(spec);
            ASSERT_TRUE(m.model);
            auto cpu = CpuBackend::create({1, {}});
            auto cuda = fake_backend();
            ASSERT_TRUE(cuda);
            auto expected = run(*m.model, *cpu.value());
            auto got = run(*m.model, *cuda);
            ASSERT_TRUE(expected && got) << arch;
            EXPECT_EQ(got.value(), expected.value()) << arch << " " << static_cast<int>(type);
            EXPECT_TRUE(cuda->status());
        }
    }
}

// The module has no GELU, soft-capping or sliding-window kernels yet: a gemma2 model is refused
// on CUDA with one sentence naming what is missing (open_model's auto then takes the CPU), and
// an op reached anyway is the backend's sticky Unsupported error, never a wrong result.
TEST(CudaBackendFake, RefusesWhatItHasNoKernelFor) {
    SyntheticModelSpec spec;
    spec.architecture = "gemma2";
    spec.sliding_window = 8;
    auto m = test::load_synthetic(spec);
    ASSERT_TRUE(m.model);
    auto cuda = fake_backend();
    ASSERT_TRUE(cuda);
    EXPECT_EQ(cuda->missing_features(forward_features(*m.model, 64)), "GELU, soft-capping, sliding-window attention, scaling");
    auto session = Session::create(*m.model, *cuda, {});
    ASSERT_FALSE(session);
    EXPECT_EQ(session.error().code, ErrorCode::Unsupported);
    EXPECT_NE(session.error().message.find("cannot run this gemma2 model yet: it lacks GELU"), std::string::npos)
        << session.error().message;
    auto buffer = cuda->allocate(4);
    cuda->softcap(buffer->data(), 4, 2.0f);
    ASSERT_FALSE(cuda->status());
    EXPECT_EQ(cuda->status().error().code, ErrorCode::Unsupported);
}

// gpt-oss (the tiny shape of ../shared's file, MXFP4 experts) is refused on CUDA naming each
// step it has no kernel for; an op reached anyway is the sticky Unsupported error.
TEST(CudaBackendFake, RefusesGptOssNamingWhatItLacks) {
    SyntheticModelSpec spec{.architecture = "gpt-oss", .n_embd = 256, .n_ff = 32, .n_head = 8, .n_head_kv = 2, .n_layer = 2,
                            .head_dim = 32, .sliding_window = 8, .n_expert = 4, .n_expert_used = 2, .n_ff_exp = 32};
    spec.weight_type = TensorType::MXFP4;
    auto m = test::load_synthetic(spec);
    ASSERT_TRUE(m.model);
    auto cuda = fake_backend();
    ASSERT_TRUE(cuda);
    EXPECT_EQ(cuda->missing_features(forward_features(*m.model, 64)),
              "sliding-window attention, mixture of experts, attention sinks, clamped SwiGLU, MXFP4 weights");
    auto session = Session::create(*m.model, *cuda, {});
    ASSERT_FALSE(session);
    EXPECT_NE(session.error().message.find("cannot run this gpt-oss model yet"), std::string::npos) << session.error().message;
    auto buffer = cuda->allocate(4);
    cuda->clamped_swiglu(buffer->data(), buffer->data(), buffer->data(), 4, 1.702f, 7.0f);
    ASSERT_FALSE(cuda->status());
    EXPECT_EQ(cuda->status().error().code, ErrorCode::Unsupported);
}

// deepseek2 is refused on CUDA naming multi-head latent attention (and the experts); its ops
// reached anyway are the sticky Unsupported error, and the latent cache is refused.
TEST(CudaBackendFake, RefusesDeepSeek2NamingLatentAttention) {
    SyntheticModelSpec spec{.architecture = "deepseek2", .n_embd = 128, .n_ff = 64, .n_head = 4, .n_head_kv = 4, .n_layer = 2,
                            .head_dim = 40, .n_expert = 4, .n_expert_used = 2, .n_ff_exp = 32, .n_rot = 8, .head_dim_v = 24,
                            .n_lora_q = 32, .n_lora_kv = 32};
    auto m = test::load_synthetic(spec);
    ASSERT_TRUE(m.model);
    auto cuda = fake_backend();
    ASSERT_TRUE(cuda);
    EXPECT_EQ(cuda->missing_features(forward_features(*m.model, 64)), "mixture of experts, multi-head latent attention");
    auto session = Session::create(*m.model, *cuda, {});
    ASSERT_FALSE(session);
    EXPECT_NE(session.error().message.find("cannot run this deepseek2 model yet"), std::string::npos) << session.error().message;
    auto cache = cuda->create_kv_cache(KvCacheShape{1, 16, 1, 40, TensorType::F32, TensorType::F32, true});
    ASSERT_FALSE(cache);
    EXPECT_EQ(cache.error().code, ErrorCode::Unsupported);
    auto buffer = cuda->allocate(4);
    cuda->copy_columns(buffer->data(), 2, buffer->data(), 2, 1, 1);
    ASSERT_FALSE(cuda->status());
    EXPECT_EQ(cuda->status().error().code, ErrorCode::Unsupported);
}

// The low-bit weight types have no CUDA kernel: a model holding one is refused on CUDA with a
// sentence naming the type, and open_model's auto takes the CPU saying why.
TEST(CudaBackendFake, LowBitWeightsAreRefusedByNameAndAutoTakesTheCpu) {
    SyntheticModelSpec spec;
    spec.weight_type = TensorType::IQ4_NL;
    const std::string path = test::test_temp_path("iq4_nl.gguf");
    {
        const auto bytes = make_synthetic_model(spec);
        ASSERT_TRUE(bytes) << bytes.error().message;
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
    }
    auto model = Model::load(path);
    ASSERT_TRUE(model) << model.error().message;
    auto cuda = fake_backend();
    ASSERT_TRUE(cuda);
    EXPECT_FALSE(cuda->supports(TensorType::IQ4_NL));
    EXPECT_EQ(cuda->missing_features(forward_features(**model, 64)), "IQ4_NL weights");
    auto session = Session::create(**model, *cuda, {});
    ASSERT_FALSE(session);
    EXPECT_NE(session.error().message.find("IQ4_NL"), std::string::npos) << session.error().message;

    ::setenv("OCTOSCOPE_CUDA_MODULE", FAKE_CUDA_MODULE, 1);
    auto opened = open_model(path, {.backend = "auto", .threads = 1});
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ(opened->info.backend.rfind("cpu", 0), 0u) << opened->info.backend;
    EXPECT_NE(opened->info.backend_note.find("lacks IQ4_NL weights"), std::string::npos) << opened->info.backend_note;
    auto forced = open_model(path, {.backend = "cuda", .threads = 1});
    ASSERT_FALSE(forced);
    EXPECT_EQ(forced.error().code, ErrorCode::Unsupported);
    EXPECT_NE(forced.error().message.find("lacks IQ4_NL weights for llama; use --backend cpu"), std::string::npos)
        << forced.error().message;
    std::remove(path.c_str());
}

TEST(CudaBackendFake, NamesTheDevice) {
    auto cuda = fake_backend();
    ASSERT_TRUE(cuda);
    EXPECT_EQ(cuda->name(), "cuda (Fake CUDA device (host))");
    EXPECT_TRUE(cuda->supports(TensorType::Q6_K));
}

TEST(CudaBackendFake, MissingModuleIsAReason) {
    auto b = CudaBackend::create({0, "/nonexistent/liboctoscope-cuda.so"});
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error().code, ErrorCode::Unsupported);
    EXPECT_NE(b.error().message.find("looked for '/nonexistent/liboctoscope-cuda.so'"), std::string::npos);
}

TEST(CudaBackendFake, WrongApiVersionIsRefused) {
    auto b = CudaBackend::create({0, FAKE_CUDA_MODULE_WRONG_VERSION});
    ASSERT_FALSE(b);
    EXPECT_NE(b.error().message.find("API version 999, expected " + std::to_string(OCTO_CUDA_API_VERSION)),
              std::string::npos)
        << b.error().message;
}

TEST(CudaBackendFake, NoDeviceFallsBackToTheCpu) {
    ::setenv("OCTOSCOPE_CUDA_MODULE", FAKE_CUDA_MODULE, 1);
    ::setenv("OCTOSCOPE_FAKE_CUDA_NO_DEVICE", "1", 1);
    auto selected = select_backend(BackendChoice::Auto, 1);
    ::unsetenv("OCTOSCOPE_FAKE_CUDA_NO_DEVICE");
    ASSERT_TRUE(selected);
    EXPECT_EQ(selected->backend->name().rfind("cpu", 0), 0u);
    EXPECT_NE(selected->fallback_reason.find("cudaErrorInsufficientDriver"), std::string::npos);
    ::setenv("OCTOSCOPE_FAKE_CUDA_NO_DEVICE", "1", 1);
    auto forced = select_backend(BackendChoice::Cuda, 1);
    ::unsetenv("OCTOSCOPE_FAKE_CUDA_NO_DEVICE");
    EXPECT_FALSE(forced);
    auto cuda = select_backend(BackendChoice::Cuda, 1);
    ASSERT_TRUE(cuda) << cuda.error().message;
    EXPECT_EQ(cuda->backend->name(), "cuda (Fake CUDA device (host))");
}

TEST(CudaBackendFake, AllocationFailureIsAnOutOfMemoryError) {
    auto m = test::load_synthetic({});
    auto cuda = fake_backend();
    ASSERT_TRUE(m.model && cuda);
    fake_api().inject_fault(OCTO_CUDA_FAULT_ALLOC, 0);
    auto session = Session::create(*m.model, *cuda, {});
    ASSERT_FALSE(session);
    EXPECT_EQ(session.error().code, ErrorCode::OutOfMemory);
    EXPECT_NE(session.error().message.find("cudaMalloc, fake_cuda_module.cpp:"), std::string::npos)
        << session.error().message;
}

TEST(CudaBackendFake, CublasFailureFailsTheEvalWithCallFileAndLine) {
    auto m = test::load_synthetic({});
    auto cuda = fake_backend();
    ASSERT_TRUE(m.model && cuda);
    auto session = Session::create(*m.model, *cuda, {0, 32, false, nullptr, {}, {}});
    ASSERT_TRUE(session);
    fake_api().inject_fault(OCTO_CUDA_FAULT_CUBLAS, 0);
    auto out = (*session)->eval(kPrompt); // 17 tokens in one batch: the "cuBLAS" path
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error().code, ErrorCode::Device);
    EXPECT_NE(out.error().message.find("cublasGemmEx, fake_cuda_module.cpp:"), std::string::npos) << out.error().message;
    EXPECT_TRUE(cuda_disabled_reason().empty()); // not sticky: CUDA stays usable
}

// Last in this file: it disables CUDA for the rest of the process.
TEST(CudaBackendFake, StickyErrorDisablesCudaAndAutoUsesTheCpu) {
    auto m = test::load_synthetic({});
    auto cuda = fake_backend();
    ASSERT_TRUE(m.model && cuda);
    auto session = Session::create(*m.model, *cuda, {});
    ASSERT_TRUE(session);
    fake_api().inject_fault(OCTO_CUDA_FAULT_STICKY, 3);
    auto out = (*session)->eval(kPrompt);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error().code, ErrorCode::Device);
    EXPECT_NE(out.error().message.find("cudaErrorIllegalAddress"), std::string::npos) << out.error().message;
    EXPECT_FALSE(cuda_disabled_reason().empty());
    ::setenv("OCTOSCOPE_CUDA_MODULE", FAKE_CUDA_MODULE, 1);
    auto selected = select_backend(BackendChoice::Auto, 1);
    ASSERT_TRUE(selected);
    EXPECT_EQ(selected->backend->name().rfind("cpu", 0), 0u);
    EXPECT_NE(selected->fallback_reason.find("CUDA is disabled in this process"), std::string::npos);
    auto cpu_logits = run(*m.model, *selected->backend);
    EXPECT_TRUE(cpu_logits);
}

} // namespace
} // namespace octo
