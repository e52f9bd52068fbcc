// --backend auto|cpu|cuda in generate, eval and bench. CUDA runs here through the fake host
// module (tests/cuda_fake: the module's C API on the CPU backend), so its results must equal
// the CPU's; without a usable module, cuda is an error naming the reason and auto uses the CPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;
using octo::test::temp_path;

const char* const kFake = "cuda (Fake CUDA device (host))";

std::string write_model() {
    const std::string path = temp_path("backend.gguf");
    auto bytes = octo::make_synthetic_model({}).value();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    return path;
}

class CliBackend : public ::testing::Test {
protected:
    void SetUp() override { ::setenv("OCTOSCOPE_CUDA_MODULE", FAKE_CUDA_MODULE, 1); }
    void TearDown() override { ::unsetenv("OCTOSCOPE_CUDA_MODULE"); }
};

TEST_F(CliBackend, GenerateOnCudaEqualsTheCpu) {
    const std::string model = write_model();
    auto gen = [&](const char* backend) {
        // exact: what the CUDA backend computes at either precision (docs/cuda.md)
        return run_cli({"generate", "--model", model, "--prompt", "Hello there", "--max-tokens", "8", "--backend", backend,
                        "--precision", "exact", "--json"});
    };
    auto cpu = gen("cpu");
    auto cuda = gen("cuda");
    ASSERT_EQ(cpu.exit_status, 0) << cpu.err;
    ASSERT_EQ(cuda.exit_status, 0) << cuda.err;
    EXPECT_EQ(cuda.json()["backend"], kFake);
    EXPECT_TRUE(cuda.json()["threads"].is_null());
    EXPECT_EQ(cuda.json()["generated_ids"], cpu.json()["generated_ids"]);
    auto without_times = [](nlohmann::json tokens) {
        for (auto& t : tokens) t.erase("ms");
        return tokens;
    };
    EXPECT_EQ(without_times(cuda.json()["tokens"]), without_times(cpu.json()["tokens"])); // log-probs, metrics
}

TEST_F(CliBackend, EvalAndBenchOnCuda) {
    const std::string model = write_model();
    const std::string data = temp_path("backend-tasks.jsonl");
    std::ofstream(data) << R"({"prompt": "1+1=", "answer": "2", "subsystem": "rte-c", "lang": "en", "heldout_phrasing": false})"
                        << "\n";
    auto eval = [&](const char* backend) {
        return run_cli({"eval", "--model", model, "--data", data, "--max-tokens", "4", "--backend", backend, "--json"});
    };
    auto cpu = eval("cpu");
    auto cuda = eval("cuda");
    ASSERT_EQ(cpu.exit_status, 0) << cpu.err;
    ASSERT_EQ(cuda.exit_status, 0) << cuda.err;
    EXPECT_EQ(cuda.json()["per_subsystem"], cpu.json()["per_subsystem"]);
    auto bench = run_cli({"bench", "--backend", "cuda", "--synthetic", "256x2x4:f32", "--prompt-tokens", "8",
                          "--gen-tokens", "4", "--edit-tokens", "32", "--edit-tail", "4", "--json"});
    ASSERT_EQ(bench.exit_status, 0) << bench.err;
    EXPECT_EQ(bench.json()["backend"], kFake);
    EXPECT_TRUE(bench.json()["kernels"].is_null());
    const auto b = bench.json();
    const double decode = b["instrumentation_off"]["decode_tokens_per_s"].get<double>();
    EXPECT_GT(decode, 0.0);
    // The reference figures (rates from the fake module's host loops: only the arithmetic is checked).
    const auto& r = b["cuda_reference"];
    ASSERT_TRUE(r.is_object()) << b.dump();
    EXPECT_GT(r["copy_gb_per_s"].get<double>(), 0.0);
    EXPECT_GT(r["gemm_tflop_per_s"].get<double>(), 0.0);
    const double bytes = r["weight_bytes_per_token"].get<double>();
    EXPECT_NEAR(r["decode_gb_per_s"].get<double>(), bytes * decode / 1e9, 1e-9 * bytes * decode);
    EXPECT_NEAR(r["decode_fraction_of_copy"].get<double>(), r["decode_gb_per_s"].get<double>() / r["copy_gb_per_s"].get<double>(), 1e-9);
    const double prefill = b["instrumentation_off"]["prefill_tokens_per_s"].get<double>();
    EXPECT_NEAR(r["prefill_tflop_per_s"].get<double>(), r["matmul_flop_per_token"].get<double>() * prefill / 1e12, 1e-9);
    auto cpu_bench = run_cli({"bench", "--synthetic", "256x2x4:f32", "--prompt-tokens", "8", "--gen-tokens", "2",
                              "--edit-tokens", "32", "--edit-tail", "4", "--read-buffer-mib", "8", "--json"});
    ASSERT_EQ(cpu_bench.exit_status, 0) << cpu_bench.err;
    EXPECT_TRUE(cpu_bench.json()["cuda_reference"].is_null());
    // Host memory bandwidth is the CPU's ceiling: not measured against a device.
    EXPECT_TRUE(b["memory_read_gb_per_s"].is_null());
    EXPECT_TRUE(b["decode_fraction_of_read_bandwidth"].is_null());
    EXPECT_GT(cpu_bench.json()["memory_read_gb_per_s"].get<double>(), 0.0);
}

TEST_F(CliBackend, UnusableCudaIsAnErrorAndAutoUsesTheCpu) {
    const std::string model = write_model();
    ::setenv("OCTOSCOPE_CUDA_MODULE", "/nonexistent/liboctoscope-cuda.so", 1);
    auto cuda = run_cli({"generate", "--model", model, "--prompt", "Hi", "--max-tokens", "2", "--backend", "cuda", "--json"});
    EXPECT_EQ(cuda.exit_status, 1);
    EXPECT_NE(cuda.json()["error"].get<std::string>().find("/nonexistent/liboctoscope-cuda.so"), std::string::npos);
    auto autob = run_cli({"generate", "--model", model, "--prompt", "Hi", "--max-tokens", "2", "--json"});
    ASSERT_EQ(autob.exit_status, 0) << autob.err;
    EXPECT_EQ(autob.json()["backend"].get<std::string>().rfind("cpu (", 0), 0u);
    EXPECT_NE(autob.err.find("using the CPU backend"), std::string::npos) << autob.err;
    auto bad = run_cli({"eval", "--model", model, "--data", "x.jsonl", "--backend", "gpu"});
    EXPECT_EQ(bad.exit_status, 2);
}

} // namespace
