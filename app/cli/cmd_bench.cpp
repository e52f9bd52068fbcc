// octoscope-cli bench: prefill and decode speed of the CPU engine. Without --model it builds a
// ~100 M-parameter Q8_0 llama model with random weights in memory, evaluates a prompt as one
// batch (prefill), then greedy-decodes one token at a time. Figures only: no test times this.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/model/synthetic_model.h"

namespace octo::cli {

namespace {

struct BenchOptions {
    std::string model;      // empty: the synthetic model
    int threads = 0;        // 0: every hardware thread
    std::string kernels;    // empty: the best path this CPU has
    int64_t prompt_tokens = 128;
    int64_t decode_tokens = 64;
    bool json = false;
};

// ~103 M parameters (tied output): a GPT-2-small-sized llama.
SyntheticModelSpec bench_model_spec() {
    return {.weight_type = TensorType::Q8_0, .n_vocab = 32000, .n_embd = 768, .n_ff = 2304, .n_head = 12,
            .n_head_kv = 4, .n_layer = 12, .context_length = 2048, .tied_output = true, .seed = 1234};
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

int32_t argmax(std::span<const float> logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

int run_bench(const BenchOptions& o) {
    std::optional<CpuPath> path;
    if (!o.kernels.empty()) {
        path = parse_cpu_path(o.kernels);
        if (!path) return report_error(o.json, "unknown kernel path '" + o.kernels + "' (scalar, avx2, avx512)");
    }
    auto backend = CpuBackend::create({o.threads, path});
    if (!backend) return report_error(o.json, backend.error());

    LoadOptions load;
    load.n_ctx = o.prompt_tokens + o.decode_tokens;
    load.n_batch = o.prompt_tokens;
    std::vector<uint8_t> synthetic; // the in-memory model's bytes; outlives the model
    Result<std::unique_ptr<Model>> model = make_error(ErrorCode::InvalidArgument, "no model");
    if (o.model.empty()) {
        auto bytes = make_synthetic_model(bench_model_spec());
        if (!bytes) return report_error(o.json, bytes.error());
        synthetic = std::move(bytes.value());
        auto file = GgufFile::parse(synthetic);
        if (!file) return report_error(o.json, file.error());
        model = Model::from_gguf(std::move(file.value()), load);
    } else {
        model = Model::load(o.model, load);
    }
    if (!model) return report_error(o.json, model.error());
    auto session = Session::create(*model.value(), *backend.value());
    if (!session) return report_error(o.json, session.error());

    const ModelParams& p = model.value()->params();
    std::mt19937 rng(7);
    std::uniform_int_distribution<int32_t> token(0, static_cast<int32_t>(p.n_vocab - 1));
    std::vector<int32_t> prompt(static_cast<size_t>(o.prompt_tokens));
    for (int32_t& id : prompt) id = token(rng);

    auto start = Clock::now();
    auto logits = session.value()->eval(prompt);
    if (!logits) return report_error(o.json, logits.error());
    const double prefill_s = seconds_since(start);
    start = Clock::now();
    for (int64_t i = 0; i < o.decode_tokens; ++i) {
        const int32_t next = argmax(logits.value());
        logits = session.value()->eval(std::span<const int32_t>(&next, 1));
        if (!logits) return report_error(o.json, logits.error());
    }
    const double decode_s = seconds_since(start);

    int64_t n_params = 0;
    for (const auto& t : model.value()->file().tensors()) n_params += t.n_elements();
    const double weights_mib = static_cast<double>(model.value()->memory_estimate().weights_bytes) / (1024.0 * 1024.0);
    const nlohmann::json out = {
        {"cpu", valid_utf8(cpu_model_name())},
        {"threads", backend.value()->n_threads()},
        {"kernels", std::string(cpu_path_name(backend.value()->path()))},
        {"model", o.model.empty() ? "synthetic llama 768x12x12 Q8_0 (random weights)" : valid_utf8(o.model)},
        {"n_params", n_params},
        {"weights_mib", weights_mib},
        {"prompt_tokens", o.prompt_tokens},
        {"decode_tokens", o.decode_tokens},
        {"prefill_tokens_per_s", static_cast<double>(o.prompt_tokens) / prefill_s},
        {"decode_tokens_per_s", static_cast<double>(o.decode_tokens) / decode_s},
    };
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    std::printf("cpu:     %s\nthreads: %d (%s kernels)\nmodel:   %s, %.1f M parameters, %.1f MiB\n",
                out["cpu"].get<std::string>().c_str(), backend.value()->n_threads(),
                out["kernels"].get<std::string>().c_str(), out["model"].get<std::string>().c_str(),
                static_cast<double>(n_params) / 1e6, weights_mib);
    std::printf("prefill: %lld tokens in %.3f s = %.1f tokens/s\n", static_cast<long long>(o.prompt_tokens), prefill_s,
                static_cast<double>(o.prompt_tokens) / prefill_s);
    std::printf("decode:  %lld tokens in %.3f s = %.1f tokens/s\n", static_cast<long long>(o.decode_tokens), decode_s,
                static_cast<double>(o.decode_tokens) / decode_s);
    return kExitOk;
}

} // namespace

void add_bench_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<BenchOptions>();
    CLI::App* cmd = app.add_subcommand("bench", "Measure prefill and decode tokens/s of the CPU engine");
    cmd->add_option("--model,-m", o->model, "GGUF model to run (default: a ~100M-parameter Q8_0 model in memory)");
    cmd->add_option("--threads,-t", o->threads, "Threads (0: all hardware threads)")->capture_default_str();
    cmd->add_option("--kernels", o->kernels, "Force the kernel path: scalar, avx2 or avx512 (default: the best)");
    cmd->add_option("--prompt-tokens", o->prompt_tokens, "Prompt length evaluated as one batch")
        ->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_option("--decode-tokens", o->decode_tokens, "Tokens decoded one at a time")
        ->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([&run, o] { run = [o] { return run_bench(*o); }; });
}

} // namespace octo::cli
