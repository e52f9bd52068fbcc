// octoscope-bench: prefill and decode speed of the CPU engine. By default it writes a ~100 M
// parameter Q8_0 llama model (random weights) to a temporary file, loads it, evaluates a
// prompt as one batch (prefill) and then greedy-decodes one token at a time.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <random>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/bench/synthetic_model.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"

namespace {

struct BenchOptions {
    std::string model;      // empty: write the synthetic model
    int threads = 0;        // 0: every hardware thread
    std::string path;       // kernel path; empty: the best this CPU has
    int64_t prompt_tokens = 128;
    int64_t decode_tokens = 64;
    bool json = false;
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

int fail(const std::string& message) {
    std::cerr << "octoscope-bench: error: " << message << '\n';
    return 1;
}

int32_t argmax(std::span<const float> logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

int run_bench(const BenchOptions& o) {
    std::optional<octo::CpuPath> path;
    if (!o.path.empty()) {
        path = octo::parse_cpu_path(o.path);
        if (!path) return fail("unknown kernel path '" + o.path + "' (scalar, avx2, avx512)");
    }
    auto backend = octo::CpuBackend::create({o.threads, path});
    if (!backend) return fail(backend.error().message);

    std::string model_path = o.model;
    std::filesystem::path temp;
    double write_s = 0.0;
    if (model_path.empty()) {
        temp = std::filesystem::temp_directory_path() / ("octoscope-bench-" + std::to_string(getpid()) + ".gguf");
        const auto start = Clock::now();
        if (auto s = octo::bench::write_synthetic_model({}, temp.string()); !s) return fail(s.error().message);
        write_s = seconds_since(start);
        model_path = temp.string();
    }
    const int64_t n_ctx = o.prompt_tokens + o.decode_tokens;
    octo::LoadOptions load_options;
    load_options.n_ctx = n_ctx;
    load_options.n_batch = std::max<int64_t>(1, o.prompt_tokens);
    auto model = octo::Model::load(model_path, load_options);
    if (!temp.empty()) std::filesystem::remove(temp); // the mapping keeps the data
    if (!model) return fail(model.error().message);
    auto session = octo::Session::create(**model, **backend);
    if (!session) return fail(session.error().message);

    const octo::ModelParams& p = (*model)->params();
    std::mt19937 rng(7);
    std::uniform_int_distribution<int32_t> token(0, static_cast<int32_t>(p.n_vocab - 1));
    std::vector<int32_t> prompt(static_cast<size_t>(o.prompt_tokens));
    for (int32_t& id : prompt) id = token(rng);

    auto start = Clock::now();
    auto logits = (*session)->eval(prompt);
    if (!logits) return fail(logits.error().message);
    const double prefill_s = seconds_since(start);

    start = Clock::now();
    for (int64_t i = 0; i < o.decode_tokens; ++i) {
        const int32_t next = argmax(*logits);
        logits = (*session)->eval(std::span<const int32_t>(&next, 1));
        if (!logits) return fail(logits.error().message);
    }
    const double decode_s = seconds_since(start);

    int64_t n_params = 0;
    for (const auto& t : (*model)->file().tensors()) n_params += t.n_elements();
    const nlohmann::json out = {
        {"cpu", octo::cpu_model_name()},
        {"threads", (*backend)->n_threads()},
        {"kernels", octo::cpu_path_name((*backend)->path())},
        {"model", o.model.empty() ? nlohmann::json("synthetic llama Q8_0") : nlohmann::json(o.model)},
        {"n_params", n_params},
        {"weights_bytes", (*model)->memory_estimate().weights_bytes},
        {"prompt_tokens", o.prompt_tokens},
        {"decode_tokens", o.decode_tokens},
        {"prefill_tokens_per_s", static_cast<double>(o.prompt_tokens) / prefill_s},
        {"decode_tokens_per_s", static_cast<double>(o.decode_tokens) / decode_s},
        {"model_write_s", write_s},
    };
    if (o.json) {
        std::cout << out.dump() << '\n';
        return 0;
    }
    std::printf("cpu:     %s\nthreads: %d (%s kernels)\nmodel:   %s, %.1f M parameters, %.1f MiB\n",
                octo::cpu_model_name().c_str(), (*backend)->n_threads(), std::string(octo::cpu_path_name((*backend)->path())).c_str(),
                out["model"].get<std::string>().c_str(), static_cast<double>(n_params) / 1e6,
                static_cast<double>((*model)->memory_estimate().weights_bytes) / (1024.0 * 1024.0));
    std::printf("prefill: %lld tokens in %.3f s = %.1f tokens/s\n", static_cast<long long>(o.prompt_tokens), prefill_s,
                static_cast<double>(o.prompt_tokens) / prefill_s);
    std::printf("decode:  %lld tokens in %.3f s = %.1f tokens/s\n", static_cast<long long>(o.decode_tokens), decode_s,
                static_cast<double>(o.decode_tokens) / decode_s);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    BenchOptions o;
    CLI::App app{"Octoscope CPU engine benchmark: prefill and decode tokens/s"};
    app.add_option("--model,-m", o.model, "GGUF model to run (default: write a ~100M-parameter Q8_0 model)");
    app.add_option("--threads,-t", o.threads, "Threads (default: all hardware threads)");
    app.add_option("--kernels", o.path, "Force the kernel path: scalar, avx2 or avx512 (default: best available)");
    app.add_option("--prompt-tokens", o.prompt_tokens, "Prompt length evaluated as one batch")->check(CLI::Range(1, 100000));
    app.add_option("--decode-tokens", o.decode_tokens, "Tokens decoded one at a time")->check(CLI::Range(1, 100000));
    app.add_flag("--json", o.json, "Print one JSON object");
    CLI11_PARSE(app, argc, argv);
    return run_bench(o);
}
