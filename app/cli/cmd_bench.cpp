// octoscope-cli bench: speed of the engine on the CPU (default) or the CUDA backend
// (--backend cuda), figures only (no test times this).
//
// Without --model it builds a random-weight llama model in memory (--synthetic, default
// 768x12x12:q8_0, about 100 M parameters). It measures prefill (the prompt as batches) and
// greedy decode, each with instrumentation off, with head norms, and with norms + DLA; then
// edit-and-rerun: a ~1,000-token prompt evaluated cold, its last sentence changed, evaluated
// again in the same KV pool (prefix reuse) — time to first token both ways (--speed-only leaves
// out all but the first run, for timing beside llama-bench). After the runs: the
// process's resident memory, the CPU's memory read bandwidth that decode is measured against and
// its int8 multiply-add peak that prefill's integer products are measured against.
// --save-model writes the synthetic model's GGUF file (for llama.cpp's llama-bench, or --model).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <filesystem>
#include <random>
#include <variant>

#include "app/cli/bench_grammar.h" // bench --mask-vocab
#include "app/cli/bench_memory.h"
#include "app/cli/bench_reference.h"
#ifdef OCTOSCOPE_HAVE_NET
#include "app/cli/bench_serve.h" // bench --serve
#endif
#include "app/cli/bench_shape.h"
#include "app/cli/bench_weights.h"
#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/kv_type_option.h"
#include "app/common/process_memory.h"
#include "engine/backend/cpu/cpu_features.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cpu/int8_peak.h"
#include "engine/backend/cuda/cuda_backend.h"
#include "engine/backend/precision.h"
#include "engine/core/atomic_file.h"
#include "engine/host/model_setup.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/model/synthetic_model.h"

namespace octo::cli {

namespace {

struct BenchOptions {
    std::string backend = "cpu"; // cpu or cuda
    std::string model;      // empty: the synthetic model
    std::string synthetic = "768x12x12:q8_0";
    int64_t n_ff = 0;       // the synthetic model's feed-forward width; 0: 3 x n_embd
    int64_t n_vocab = 0;    // ... and its vocabulary; 0: 32,000
    std::string arch = "llama"; // ... and its architecture
    std::string expert_type;    // ... and its experts' weight type; empty: the shape's
    int threads = 0;        // 0: every hardware thread
    std::string kernels;    // empty: the best path this CPU has
    std::string precision;  // empty: the model's default
    KvTypeOptions kv;       // the measured sessions' KV types (default f32)
    int64_t prompt_tokens = 128;
    int64_t gen_tokens = 64;
    int repetitions = 3;    // timed repetitions after a warm-up (llama-bench's -r)
    int64_t edit_tokens = 1000; // prompt of the edit-and-rerun figure
    int64_t edit_tail = 24;     // tokens of the "last sentence" changed
    int64_t depth = 0;          // > 0: also prefill this many tokens, then decode at that depth (llama-bench -gp)
    int64_t read_buffer_mib = 0; // memory read measurement; 0: from the last-level cache
    std::string save_model; // write the synthetic model's GGUF file here first
    bool no_run = false;    // with save_model: only write it
    bool speed_only = false; // only the instrumentation-off run: no norms, DLA or edit-and-rerun figures
    bool json = false;
    bool serve = false;     // the server under load instead (bench_serve.h)
    GrammarBenchOptions mask; // with mask.vocab_file: constrained decoding's cost (bench_grammar.h)
};

constexpr double kMiB = 1024.0 * 1024.0;

// "scalar, avx2, avx512, avxvnni, avx512vnni"
std::string cpu_path_list() {
    std::string list;
    for (CpuPath p : kCpuPaths) list += (list.empty() ? "" : ", ") + std::string(cpu_path_name(p));
    return list;
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

int32_t argmax(std::span<const float> logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

struct Speed {
    double prefill_tokens_per_s = 0.0;
    double decode_tokens_per_s = 0.0;
};

// How the measured sessions run: the activations' precision (nullopt: the model's) and the KV types.
struct RunChoice {
    std::optional<Precision> precision;
    KvTypes kv;
};

// Prefill of `prompt`, then n_gen greedy decode steps, in a fresh session with its own pool.
// `repetitions` times in one session: the prompt as one batch, then n_gen greedy decode steps;
// before them one untimed repetition touches the session's memory. Each repetition changes the
// prompt's first token so that nothing is reused from the pool. Tokens/s are the mean of the
// repetitions' rates, as llama-bench reports them.
Result<Speed> measure(const Model& model, Backend& backend, const RunChoice& choice,
                      const InstrumentOptions& instrument, std::vector<int32_t> prompt, int64_t n_gen, int repetitions) {
    SessionOptions o;
    o.precision = choice.precision;
    o.kv_types = kv_types_exactly(choice.kv);
    o.instrument = instrument;
    auto session = Session::create(model, backend, o);
    if (!session) return session.error();
    Session& s = *session.value();
    Speed speed;
    for (int rep = -1; rep < repetitions; ++rep) {
        prompt.front() = static_cast<int32_t>((prompt.front() + 1) % model.params().n_vocab);
        (void)s.start(prompt); // nothing to reuse: no earlier prompt began with this token
        auto start = Clock::now();
        auto logits = s.eval(prompt);
        if (!logits) return logits.error();
        const double prefill = static_cast<double>(prompt.size()) / seconds_since(start);
        start = Clock::now();
        for (int64_t i = 0; i < n_gen; ++i) {
            const int32_t next = argmax(logits.value());
            if (auto a = s.attribute(next); !a) return a.error();
            logits = s.eval(std::span<const int32_t>(&next, 1));
            if (!logits) return logits.error();
        }
        const double decode = static_cast<double>(n_gen) / seconds_since(start);
        if (rep < 0) continue; // the warm-up
        speed.prefill_tokens_per_s += prefill / repetitions;
        speed.decode_tokens_per_s += decode / repetitions;
    }
    return speed;
}

struct EditRerun {
    double cold_ms = 0.0;
    double warm_ms = 0.0;
    int64_t reused_tokens = 0;
};

// Time to first token (prefill + choosing it) of `prompt` in a pool that has seen nothing, then
// of the prompt with its last tokens changed, in the same pool. Head norms on, as in the GUI.
Result<EditRerun> edit_and_rerun(const Model& model, Backend& backend, const RunChoice& choice,
                                 std::vector<int32_t> prompt, int64_t tail, std::mt19937& rng) {
    SessionOptions o;
    o.precision = choice.precision;
    o.kv_types = kv_types_exactly(choice.kv);
    o.instrument.head_norms = true;
    auto session = Session::create(model, backend, o);
    if (!session) return session.error();
    Session& s = *session.value();
    const auto first_token_ms = [&](const std::vector<int32_t>& p, int64_t* reused) -> Result<double> {
        const auto start = Clock::now();
        *reused = s.start(p);
        auto logits = s.eval(std::span<const int32_t>(p).subspan(static_cast<size_t>(*reused)));
        if (!logits) return logits.error();
        (void)argmax(logits.value());
        return seconds_since(start) * 1000.0;
    };
    EditRerun r;
    int64_t reused = 0;
    auto cold = first_token_ms(prompt, &reused);
    if (!cold) return cold.error();
    std::uniform_int_distribution<int32_t> token(0, static_cast<int32_t>(model.params().n_vocab - 1));
    for (size_t i = prompt.size() - static_cast<size_t>(tail); i < prompt.size(); ++i) prompt[i] = token(rng);
    auto warm = first_token_ms(prompt, &r.reused_tokens);
    if (!warm) return warm.error();
    r.cold_ms = cold.value();
    r.warm_ms = warm.value();
    return r;
}

nlohmann::json speed_json(const Speed& s) {
    return {{"prefill_tokens_per_s", s.prefill_tokens_per_s}, {"decode_tokens_per_s", s.decode_tokens_per_s}};
}

nlohmann::json speed_json(const std::optional<Speed>& s) { return s ? speed_json(*s) : nlohmann::json(nullptr); }

// null when the run was left out (--speed-only)
nlohmann::json edit_json(const std::optional<EditRerun>& e, const BenchOptions& o) {
    if (!e) return nullptr;
    return {{"prompt_tokens", o.edit_tokens},
            {"changed_tokens", o.edit_tail},
            {"reused_tokens", e->reused_tokens},
            {"cold_first_token_ms", e->cold_ms},
            {"reuse_first_token_ms", e->warm_ms},
            {"speedup", e->warm_ms > 0 ? e->cold_ms / e->warm_ms : 0.0}};
}

struct BenchModel {
    OpenedModel opened;     // by open_model, as every command opens one (a synthetic image kept in it); empty with --no-run
    std::string name;
    uint64_t file_bytes = 0; // the file's size, or the synthetic image's
};

// The synthetic model of `spec`, written to --save-model first when asked (atomically), and
// opened unless --no-run.
Result<BenchModel> synthetic_model(const SyntheticModelSpec& spec, const BenchOptions& o, const OpenOptions& open) {
    auto bytes = make_synthetic_model(spec);
    if (!bytes) return bytes.error();
    auto image = std::make_shared<const std::vector<uint8_t>>(std::move(bytes.value()));
    BenchModel b;
    b.file_bytes = image->size();
    b.name = "synthetic " + spec.architecture + " " + o.synthetic + " (random weights)";
    if (!o.save_model.empty()) {
        const std::string_view view(reinterpret_cast<const char*>(image->data()), image->size());
        if (auto saved = write_file_atomic(o.save_model, view); !saved) return saved.error();
    }
    if (o.no_run) return b;
    auto opened = open_model_image(std::move(image), "synthetic " + o.synthetic, open);
    if (!opened) return opened.error();
    b.opened = std::move(opened.value());
    return b;
}

// What the options choose beyond the model: the kernel path and the precision; the exit code
// (after saying why) when an option is refused.
struct BenchChoices {
    std::optional<CpuPath> path;
    std::optional<Precision> precision;
};

std::optional<int> refuse_options(const BenchOptions& o, BenchChoices& choices) {
    if (!o.kernels.empty()) {
        choices.path = parse_cpu_path(o.kernels);
        if (!choices.path) return report_error(o.json, "unknown kernel path '" + o.kernels + "' (" + cpu_path_list() + ")", kExitUsage);
    }
    if (!o.precision.empty()) {
        choices.precision = parse_precision(o.precision);
        if (!choices.precision) return report_error(o.json, "unknown precision '" + o.precision + "' (reference, exact)", kExitUsage);
    }
    if (!o.save_model.empty() && !o.model.empty()) {
        return report_error(o.json, "--save-model writes the synthetic model; it cannot be used with --model", kExitUsage);
    }
    if (o.no_run && o.save_model.empty()) return report_error(o.json, "--no-run needs --save-model", kExitUsage);
    if (o.edit_tail >= o.edit_tokens) return report_error(o.json, "--edit-tail must be shorter than --edit-tokens", kExitUsage);
    if (o.backend != "cpu" && o.backend != "cuda") return report_error(o.json, "--backend must be cpu or cuda", kExitUsage);
    return std::nullopt;
}

// The model measured: --model's file or the synthetic one; or the exit code when the command ends
// here (an error said, or --no-run's file written and named).
std::variant<int, BenchModel> open_bench_model(const BenchOptions& o, const OpenOptions& open) {
    BenchModel bench_model;
    if (!o.model.empty()) {
        auto opened = open_model(o.model, open);
        if (!opened) return report_error(o.json, opened.error());
        bench_model.opened = std::move(opened.value());
        bench_model.name = o.model;
        std::error_code size_error;
        bench_model.file_bytes = std::filesystem::file_size(o.model, size_error);
        if (size_error) bench_model.file_bytes = 0;
        return bench_model;
    }
    auto spec = parse_bench_shape(o.synthetic);
    if (!spec) return report_error(o.json, spec.error().message, kExitUsage);
    if (o.n_ff > 0) spec->n_ff = o.n_ff;
    if (o.n_vocab > 0) spec->n_vocab = o.n_vocab;
    if (auto arch = apply_bench_architecture(*spec, o.arch, o.expert_type); !arch) return report_error(o.json, arch.error().message, kExitUsage);
    auto synthetic = synthetic_model(spec.value(), o, open);
    if (!synthetic) return report_error(o.json, synthetic.error());
    bench_model = std::move(synthetic.value());
    if (!o.no_run) return bench_model;
    const double file_mib = static_cast<double>(bench_model.file_bytes) / kMiB;
    if (o.json) {
        print_json({{"model", valid_utf8(bench_model.name)}, {"saved_model", valid_utf8(o.save_model)}, {"file_mib", file_mib}});
    } else {
        std::printf("wrote %s: %s, %.1f MiB\n", o.save_model.c_str(), bench_model.name.c_str(), file_mib);
    }
    return kExitOk;
}

nlohmann::json mib_or_null(std::optional<uint64_t> bytes) {
    if (!bytes) return nullptr;
    return static_cast<double>(*bytes) / kMiB;
}

// The timed runs and what is read between them, in the order they ran.
struct BenchRuns {
    Speed plain;                            // instrumentation off
    std::optional<Speed> with_norms, with_dla;
    std::optional<EditRerun> edit;          // the three left out with --speed-only
    std::optional<ResidentMemory> resident_plain; // after the plain runs
    std::optional<ResidentMemory> resident;       // after all but the depth run
    nlohmann::json cuda_reference = nullptr;
    nlohmann::json at_depth = nullptr;      // --depth
};

Result<BenchRuns> run_timed(const BenchOptions& o, const Model& m, Backend& backend, const RunChoice& choice) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int32_t> token(0, static_cast<int32_t>(m.params().n_vocab - 1));
    std::vector<int32_t> prompt(static_cast<size_t>(o.prompt_tokens));
    for (int32_t& id : prompt) id = token(rng);
    std::vector<int32_t> long_prompt(static_cast<size_t>(o.edit_tokens));
    for (int32_t& id : long_prompt) id = token(rng);

    const InstrumentOptions off{}, norms{.head_norms = true}, dla{.head_norms = true, .dla = true};
    // Untimed warm-up: a device backend uploads the weights on first use.
    if (auto warm = measure(m, backend, choice, off, {prompt.front()}, 1, 1); !warm) return warm.error();
    BenchRuns r;
    auto plain = measure(m, backend, choice, off, prompt, o.gen_tokens, o.repetitions);
    if (!plain) return plain.error();
    r.plain = plain.value();
    // Resident memory of inference alone, before the instrumented runs add their per-model constants.
    r.resident_plain = resident_memory();
    if (!o.speed_only) {
        auto n = measure(m, backend, choice, norms, prompt, o.gen_tokens, o.repetitions);
        if (!n) return n.error();
        r.with_norms = n.value();
        auto d = measure(m, backend, choice, dla, prompt, o.gen_tokens, o.repetitions);
        if (!d) return d.error();
        r.with_dla = d.value();
        auto e = edit_and_rerun(m, backend, choice, long_prompt, o.edit_tail, rng);
        if (!e) return e.error();
        r.edit = e.value();
    }
    if (auto* cuda = dynamic_cast<CudaBackend*>(&backend)) {
        auto ref = cuda_reference(*cuda, m, r.plain.decode_tokens_per_s, r.plain.prefill_tokens_per_s, o.prompt_tokens);
        if (!ref) return ref.error();
        r.cuda_reference = std::move(ref.value());
    }
    // Resident memory after all runs, before the read measurement's buffer exists.
    r.resident = resident_memory();
    // Decode at depth: after a --depth-token prompt (in batches of --prompt-tokens), measured after
    // the memory figures so that they are the same with and without it.
    if (o.depth > 0) {
        std::vector<int32_t> deep(static_cast<size_t>(o.depth));
        for (int32_t& id : deep) id = token(rng);
        auto d = measure(m, backend, choice, off, std::move(deep), o.gen_tokens, o.repetitions);
        if (!d) return d.error();
        r.at_depth = speed_json(d.value());
        r.at_depth["depth"] = o.depth;
    }
    return r;
}

// The runs against the machine (CPU backend only): decode's weight traffic against the memory read
// bandwidth, and prefill's integer work against the int8 peak on the same path and threads —
// every matrix once per prompt token, the output matrix once per prompt (its last token);
// attention and the other float steps are not counted.
Result<nlohmann::json> machine_figures(const BenchOptions& o, const Model& m, const Backend& backend, const Speed& plain) {
    const MatmulWeights matmul = matmul_weights(m);
    const double decode_gbps = static_cast<double>(matmul.bytes) * plain.decode_tokens_per_s / 1e9;
    const std::optional<uint64_t> llc = last_level_cache_bytes();
    nlohmann::json out = {{"weight_bytes_per_token", matmul.bytes}, {"weight_bytes_all_matrices", matmul.all_bytes},
                          {"prefill_int8_gops", nullptr}, {"int8_peak_gops", nullptr}, {"prefill_fraction_of_int8_peak", nullptr},
                          {"decode_gb_per_s", decode_gbps}, {"memory_read_gb_per_s", nullptr}, {"memory_read_buffer_mib", nullptr},
                          {"llc_mib", mib_or_null(llc)}, {"decode_fraction_of_read_bandwidth", nullptr}};
    const auto* cpu = dynamic_cast<const CpuBackend*>(&backend);
    if (!cpu) return out;
    const uint64_t buffer = o.read_buffer_mib > 0 ? static_cast<uint64_t>(o.read_buffer_mib) << 20
                                                  : memory_read_buffer_bytes(llc, available_memory_bytes());
    auto read = measure_memory_read(buffer, cpu->n_threads(), 5);
    if (!read) return read.error();
    out["memory_read_gb_per_s"] = read.value();
    out["decode_fraction_of_read_bandwidth"] = read.value() > 0 ? decode_gbps / read.value() : 0.0;
    out["memory_read_buffer_mib"] = static_cast<double>(buffer) / kMiB;
    const double ops_per_prompt =
        2.0 * static_cast<double>((matmul.elements - matmul.output_elements) * o.prompt_tokens + matmul.output_elements);
    const double prefill_gops = ops_per_prompt * plain.prefill_tokens_per_s / static_cast<double>(o.prompt_tokens) / 1e9;
    out["prefill_int8_gops"] = prefill_gops;
    if (auto peak = measure_int8_peak(cpu->path(), cpu->n_threads())) {
        out["int8_peak_gops"] = peak->gops;
        out["prefill_fraction_of_int8_peak"] = prefill_gops / peak->gops;
    }
    return out;
}

// The sessions' caches: the model's context in the runs' types (latent attention: one row of
// [RoPE part | latent] per position, keys and values at once).
double kv_cache_mib(const Model& m, const KvTypes& kv) {
    const int64_t n_embd_kv = m.params().n_kv_heads() * m.params().kv_head_dim();
    const int64_t v_row = m.params().latent_attention() ? 0 : kv_row_bytes(kv.v, n_embd_kv);
    return static_cast<double>(m.params().n_layer * m.n_ctx() * (kv_row_bytes(kv.k, n_embd_kv) + v_row)) / kMiB;
}

// Everything measured, as --json prints it (and the text is written from).
nlohmann::json bench_json(const BenchOptions& o, const BenchModel& bench_model, const Backend& backend, Precision precision,
                          const RunChoice& choice, const BenchRuns& r, const nlohmann::json& grammar_mask, const nlohmann::json& machine,
                          const std::optional<ResidentMemory>& resident_program) {
    const Model& m = *bench_model.opened.model;
    nlohmann::json threads = nullptr, kernels = nullptr; // the CPU backend's
    if (const auto* cpu = dynamic_cast<const CpuBackend*>(&backend)) {
        threads = cpu->n_threads();
        kernels = std::string(cpu_path_name(cpu->path()));
    }
    const auto resident_bytes = [](const std::optional<ResidentMemory>& memory) {
        return memory ? std::optional(memory->resident_bytes) : std::nullopt;
    };
    nlohmann::json out = {
        {"cpu", valid_utf8(cpu_model_name())},
        {"backend", valid_utf8(backend.name())},
        {"threads", threads},
        {"kernels", kernels},
        {"precision", std::string(precision_name(precision))},
        {"kv_types", kv_types_json(choice.kv)},
        {"model", valid_utf8(bench_model.name)},
        {"n_params", m.n_params()},
        {"weights_mib", static_cast<double>(m.memory_estimate().weights_bytes) / kMiB},
        {"prompt_tokens", o.prompt_tokens},
        {"gen_tokens", o.gen_tokens},
        {"repetitions", o.repetitions},
        {"instrumentation_off", speed_json(r.plain)},
        {"with_norms", speed_json(r.with_norms)},
        {"with_norms_and_dla", speed_json(r.with_dla)},
        {"at_depth", r.at_depth},
        {"grammar_mask", grammar_mask},
        {"edit_and_rerun", edit_json(r.edit, o)},
        {"experts", m.params().n_expert > 0 ? nlohmann::json{{"n_expert", m.params().n_expert}, {"n_expert_used", m.params().n_expert_used}}
                                            : nlohmann::json(nullptr)},
        {"file_mib", static_cast<double>(bench_model.file_bytes) / kMiB},
        {"kv_mib", kv_cache_mib(m, choice.kv)},
        {"program_resident_mib", mib_or_null(resident_bytes(resident_program))},
        {"resident_mib", mib_or_null(resident_bytes(r.resident_plain))},
        {"resident_instrumented_mib", mib_or_null(resident_bytes(r.resident))},
        {"peak_resident_mib", mib_or_null(r.resident ? std::optional(r.resident->peak_bytes) : std::nullopt)},
        {"cuda_reference", r.cuda_reference},
    };
    out.update(machine);
    return out;
}

// The text form of bench_json's figures.
void print_bench_speeds(const nlohmann::json& out, const BenchOptions& o) {
    std::printf("cpu:     %s\nbackend: %s", out["cpu"].get<std::string>().c_str(), out["backend"].get<std::string>().c_str());
    if (!out["threads"].is_null()) {
        std::printf(", %d threads (%s kernels)", out["threads"].get<int>(), out["kernels"].get<std::string>().c_str());
    }
    std::printf(", %s precision, KV cache K %s V %s", out["precision"].get<std::string>().c_str(),
                out["kv_types"]["k"].get<std::string>().c_str(), out["kv_types"]["v"].get<std::string>().c_str());
    std::printf("\nmodel:   %s, %.1f M parameters, %.1f MiB\n", out["model"].get<std::string>().c_str(),
                static_cast<double>(out["n_params"].get<int64_t>()) / 1e6, out["weights_mib"].get<double>());
    std::printf("%-22s %12s %12s   (tokens/s; prompt %lld, decode %lld)\n", "", "prefill", "decode",
                static_cast<long long>(o.prompt_tokens), static_cast<long long>(o.gen_tokens));
    for (const auto& [name, key] : {std::pair{"instrumentation off", "instrumentation_off"}, std::pair{"with norms", "with_norms"},
                                    std::pair{"with norms and DLA", "with_norms_and_dla"}}) {
        const nlohmann::json& s = out[key];
        if (!s.is_null()) {
            std::printf("%-22s %12.1f %12.1f\n", name, s["prefill_tokens_per_s"].get<double>(), s["decode_tokens_per_s"].get<double>());
        }
    }
    if (const nlohmann::json& d = out["at_depth"]; !d.is_null()) {
        std::printf("%-22s %12.1f %12.1f   (a %lld-token prompt, then decode at that depth)\n", "at depth, off",
                    d["prefill_tokens_per_s"].get<double>(), d["decode_tokens_per_s"].get<double>(), static_cast<long long>(o.depth));
    }
    if (const nlohmann::json& g = out["grammar_mask"]; !g.is_null()) {
        std::printf("grammar mask (%s, %zu tokens; %s schema, %zu-token document): %.2f ms a token median, %.2f mean, "
                    "%.2f worst = %.1f %% of decode; a first run of the schema %.0f ms in all (%zu positions sorted, "
                    "%.1f %% of decode a token)\n",
                    g["vocab_file"].get<std::string>().c_str(), g["n_vocab"].get<size_t>(), g["schema"].get<std::string>().c_str(),
                    g["tokens"].get<size_t>(), g["step_ms_median"].get<double>(), g["step_ms_mean"].get<double>(),
                    g["step_ms_max"].get<double>(), 100.0 * g.value("share_of_decode", 0.0), g["first_run_ms"].get<double>(),
                    g["positions_sorted"].get<size_t>(), 100.0 * g.value("first_run_share_of_decode", 0.0));
    }
    if (const nlohmann::json& e = out["edit_and_rerun"]; !e.is_null()) {
        std::printf("edit and rerun: %lld-token prompt, last %lld changed: first token %.0f ms cold, %.0f ms with %lld "
                    "tokens reused (%.1fx)\n",
                    static_cast<long long>(o.edit_tokens), static_cast<long long>(o.edit_tail), e["cold_first_token_ms"].get<double>(),
                    e["reuse_first_token_ms"].get<double>(), static_cast<long long>(e["reused_tokens"].get<int64_t>()),
                    e["cold_first_token_ms"].get<double>() / e["reuse_first_token_ms"].get<double>());
    }
}

void print_bench_machine(const nlohmann::json& out, const BenchOptions& o) {
    if (!out["prefill_int8_gops"].is_null()) {
        std::printf("prefill multiplies %.0f G integer ops/s in its matrix products", out["prefill_int8_gops"].get<double>());
        if (!out["int8_peak_gops"].is_null()) {
            std::printf(" = %.0f%% of the CPU's int8 peak on these kernels and threads, %.0f G ops/s",
                        100.0 * out["prefill_fraction_of_int8_peak"].get<double>(), out["int8_peak_gops"].get<double>());
        }
        std::printf("\n");
    }
    std::printf("decode reads %.2f GB/s of weights (%.1f MiB per token", out["decode_gb_per_s"].get<double>(),
                static_cast<double>(out["weight_bytes_per_token"].get<uint64_t>()) / kMiB);
    if (const nlohmann::json& x = out["experts"]; !x.is_null()) {
        std::printf(": the active %lld of %lld experts per layer, of %.1f MiB in all", static_cast<long long>(x["n_expert_used"].get<int64_t>()),
                    static_cast<long long>(x["n_expert"].get<int64_t>()),
                    static_cast<double>(out["weight_bytes_all_matrices"].get<uint64_t>()) / kMiB);
    }
    std::printf(")");
    if (!out["memory_read_gb_per_s"].is_null()) {
        std::printf(" = %.0f%% of the CPU's memory read bandwidth, %.1f GB/s (%.0f MiB buffer)",
                    100.0 * out["decode_fraction_of_read_bandwidth"].get<double>(), out["memory_read_gb_per_s"].get<double>(),
                    out["memory_read_buffer_mib"].get<double>());
    }
    std::printf("\nmemory:  file %.1f MiB, KV %.1f MiB", out["file_mib"].get<double>(), out["kv_mib"].get<double>());
    if (!out["resident_mib"].is_null() && !out["resident_instrumented_mib"].is_null()) {
        std::printf("; resident %.1f MiB (the program alone %.1f", out["resident_mib"].get<double>(),
                    out["program_resident_mib"].is_null() ? 0.0 : out["program_resident_mib"].get<double>());
        if (!o.speed_only) std::printf("; %.1f MiB after the instrumented runs", out["resident_instrumented_mib"].get<double>());
        std::printf("), peak %.1f MiB", out["peak_resident_mib"].get<double>());
    }
    std::printf("\n");
    if (const nlohmann::json& ref = out["cuda_reference"]; !ref.is_null()) {
        std::printf("decode:  %.1f GB/s of weights read = %.0f%% of a device copy's %.1f GB/s (target >= 60%%)\n",
                    ref["decode_gb_per_s"].get<double>(), 100.0 * ref["decode_fraction_of_copy"].get<double>(), ref["copy_gb_per_s"].get<double>());
        std::printf("prefill: %.2f TFLOP/s = %.0f%% of cuBLAS's %.2f TFLOP/s on the FFN shape (target >= 50%%)\n",
                    ref["prefill_tflop_per_s"].get<double>(), 100.0 * ref["prefill_fraction_of_gemm"].get<double>(),
                    ref["gemm_tflop_per_s"].get<double>());
    }
}

int run_bench(const BenchOptions& o) {
    // The program alone (code, libraries, heap), before any model exists.
    const std::optional<ResidentMemory> resident_program = resident_memory();
    BenchChoices choices;
    if (auto refused = refuse_options(o, choices)) return *refused;
    // The runs' sessions hold their own KV caches: no pool.
    const OpenOptions open{.backend = o.backend, .threads = o.threads, .kernels = choices.path,
                           .n_ctx = std::max({o.prompt_tokens + o.gen_tokens, o.speed_only ? int64_t{0} : o.edit_tokens,
                                              o.depth + o.gen_tokens}),
                           .n_batch = o.prompt_tokens,
                           .kv_sequences = 0};
    auto opened = open_bench_model(o, open);
    if (const int* exit_code = std::get_if<int>(&opened)) return *exit_code;
    const BenchModel& bench_model = std::get<BenchModel>(opened);
    Backend& backend = *bench_model.opened.backend;
    const Model& m = *bench_model.opened.model;
    const Precision run_precision = resolve_precision(choices.precision, m.params().architecture);
    const RunChoice choice{choices.precision, resolve_kv_types(o.kv.choice(), run_precision, backend)};

    auto runs = run_timed(o, m, backend, choice);
    if (!runs) return report_error(o.json, runs.error());
    // Constrained decoding's cost per token, against this model's decode.
    nlohmann::json grammar_mask = nullptr;
    if (!o.mask.vocab_file.empty()) {
        const double decode_ms = runs->plain.decode_tokens_per_s > 0.0 ? 1000.0 / runs->plain.decode_tokens_per_s : 0.0;
        auto g = bench_grammar_mask(o.mask, decode_ms);
        if (!g) return report_error(o.json, g.error());
        grammar_mask = std::move(g.value());
    }
    auto machine = machine_figures(o, m, backend, runs->plain);
    if (!machine) return report_error(o.json, machine.error());
    const nlohmann::json out = bench_json(o, bench_model, backend, run_precision, choice, runs.value(), grammar_mask, machine.value(), resident_program);
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    print_bench_speeds(out, o);
    print_bench_machine(out, o);
    return kExitOk;
}

} // namespace

void add_bench_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<BenchOptions>();
    CLI::App* cmd = app.add_subcommand("bench", "Measure the CPU engine: tokens/s with and without instrumentation, "
                                                "and edit-and-rerun with prefix reuse");
    cmd->add_option("--backend", o->backend, "Backend to measure: cpu or cuda")->capture_default_str();
    auto* model = cmd->add_option("--model,-m", o->model, "GGUF model to run (default: a synthetic model in memory)");
    cmd->add_option("--synthetic", o->synthetic,
                    "Shape of the synthetic model: n_embd x n_layer x n_head[x n_head_kv]:type "
                    "(type: f32, f16, q8_0, q4_k ... or the mixes q4_k_m, q5_k_m)")
        ->excludes(model)->capture_default_str();
    cmd->add_option("--n-ff", o->n_ff, "The synthetic model's feed-forward width (default 3 x n_embd; Llama-3.2-1B: 8192)")
        ->excludes(model)->check(CLI::Range(int64_t{1}, int64_t{1} << 17));
    cmd->add_option("--n-vocab", o->n_vocab, "The synthetic model's vocabulary (default 32000; Llama 3: 128256)")
        ->excludes(model)->check(CLI::Range(int64_t{256}, int64_t{1} << 20));
    cmd->add_option("--arch", o->arch,
                    "The synthetic model's architecture (default llama; gpt-oss: biases, sinks, a window of 128 on "
                    "even layers, experts from the shape's N/K)")
        ->excludes(model);
    cmd->add_option("--expert-type", o->expert_type,
                    "The synthetic experts' weight type (default: the shape's type; gpt-oss files: mxfp4)")
        ->excludes(model);
    cmd->add_option("--save-model", o->save_model,
                    "Write the synthetic model's GGUF file here before measuring (for llama-bench or --model)");
    cmd->add_flag("--no-run", o->no_run, "With --save-model: only write the file");
    cmd->add_option("--threads,-t", o->threads, "Threads (0: all hardware threads)")->capture_default_str();
    cmd->add_option("--kernels", o->kernels, "Force the kernel path: " + cpu_path_list() + " (default: the best)");
    cmd->add_option("--precision", o->precision,
                    "Activations in quantised products: reference (as llama.cpp) or exact (default: the model's)");
    add_kv_type_options(*cmd, o->kv);
    cmd->add_option("--prompt-tokens", o->prompt_tokens, "Prompt length evaluated as one batch")
        ->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_option("--gen-tokens,--decode-tokens", o->gen_tokens, "Tokens decoded one at a time")
        ->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_option("--depth", o->depth,
                    "Also decode after a prompt of this many tokens, evaluated in batches of --prompt-tokens "
                    "(decode at depth, as llama-bench -gp N,M; 0: not measured)")
        ->check(CLI::Range(int64_t{0}, int64_t{1} << 20))->capture_default_str();
    cmd->add_option("--repetitions,-r", o->repetitions, "Timed repetitions of prefill + decode after a warm-up (their mean)")
        ->check(CLI::Range(1, 1000))->capture_default_str();
    cmd->add_option("--edit-tokens", o->edit_tokens, "Prompt length of the edit-and-rerun figure")
        ->check(CLI::Range(2, 100000))->capture_default_str();
    cmd->add_option("--edit-tail", o->edit_tail, "Tokens changed at its end")
        ->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_option("--read-buffer-mib", o->read_buffer_mib,
                    "Buffer of the memory read measurement in MiB (0: 4x the last-level cache)")
        ->check(CLI::Range(0, 65536))->capture_default_str();
    cmd->add_flag("--speed-only", o->speed_only,
                  "Only the run with instrumentation off: no norms, DLA or edit-and-rerun figures (side-by-side timing)");
    cmd->add_flag("--json", o->json, "Print one JSON object");
#ifdef OCTOSCOPE_HAVE_NET
    cmd->add_option("--mask-vocab", o->mask.vocab_file,
                    "Also time constrained decoding's mask per token with this GGUF's vocabulary (e.g. "
                    "../shared/refdata/vocab/ggml-vocab-llama3.gguf) against the model's decode");
    cmd->add_option("--mask-schema", o->mask.schema_file, "With --mask-vocab: the JSON schema (default: a built-in record)");
    auto serve = std::make_shared<BenchServeOptions>();
    auto* serve_flag = cmd->add_flag("--serve", o->serve,
                                     "Measure the server under load instead (default model: the built-in octet): "
                                     "requests/s and tokens/s with --clients concurrent clients");
    cmd->add_option("--clients", serve->clients, "With --serve: concurrent clients of each level")
        ->needs(serve_flag)->delimiter(',')->check(CLI::Range(1, 256))->capture_default_str();
    cmd->add_option("--requests", serve->requests_per_client, "With --serve: requests each client sends")
        ->needs(serve_flag)->check(CLI::Range(1, 10000))->capture_default_str();
    cmd->add_option("--max-tokens", serve->max_tokens, "With --serve: max_tokens of each request")
        ->needs(serve_flag)->check(CLI::Range(int64_t{1}, int64_t{100000}))->capture_default_str();
    cmd->add_option("--url", serve->url, "With --serve: load this running server (http://host:port, an Octoscope or "
                                         "another OpenAI-compatible one) with the same client instead")
        ->needs(serve_flag);
    cmd->callback([&run, o, serve] {
        if (o->serve) {
            serve->model = o->model;
            serve->backend = o->backend;
            serve->threads = o->threads;
            serve->json = o->json;
            run = [serve] { return run_bench_serve(*serve); };
            return;
        }
        run = [o] { return run_bench(*o); };
    });
#else
    cmd->callback([&run, o] { run = [o] { return run_bench(*o); }; });
#endif
}

} // namespace octo::cli
