// octoscope-cli info: what a GGUF file holds and whether the engine can run it.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/kv_type_option.h"
#include "app/common/builtin_model.h"
#include "engine/gguf/gguf_file.h"
#include "engine/kv/kv_types.h"
#include "engine/model/architecture.h"
#include "engine/model/memory_estimate.h"
#include "engine/model/model.h"
#include "engine/model/model_params.h"
#include "engine/model/model_validation.h"
#include "engine/tokenizer/vocab.h"

namespace octo::cli {

namespace {

struct InfoOptions {
    std::string model;
    bool json = false;
    int64_t ctx_size = 0;
    KvTypeOptions kv;
};

// What opening the model on the CPU would take (as generate opens it): the context — the whole
// trained one unless asked or memory is short — the KV types, and the memory estimate.
nlohmann::json memory_plan(const GgufFile& f, const ModelParams& p, const InfoOptions& o) {
    const KvTypes kv = kv_types_or_default(o.kv.choice(), default_precision(p.architecture), true);
    const std::optional<uint64_t> available = available_memory_bytes();
    auto plan = plan_context(f, p, o.ctx_size, kDefaultBatch, kv, available);
    nlohmann::json out = {{"kv_types", kv_types_json(kv)},
                          {"available_bytes", available ? nlohmann::json(*available) : nlohmann::json(nullptr)}};
    if (!plan) {
        out["error"] = plan.error().message;
        return out;
    }
    out["context"] = plan->n_ctx;
    out["context_shortened"] = plan->shortened;
    out["weights_bytes"] = plan->estimate.weights_bytes;
    out["kv_bytes"] = plan->estimate.kv_bytes;
    out["scratch_bytes"] = plan->estimate.scratch_bytes;
    out["total_bytes"] = plan->estimate.total();
    return out;
}

nlohmann::json optional_string(const GgufFile& f, const std::string& key) {
    auto v = f.get_string(key);
    return v ? nlohmann::json(valid_utf8(v.value())) : nlohmann::json(nullptr);
}

nlohmann::json positive_or_null(int64_t v) { return v > 0 ? nlohmann::json(v) : nlohmann::json(nullptr); }

// Why the engine could not run this file, or null when it could.
nlohmann::json load_problem(const GgufFile& f, const Result<ModelParams>& params) {
    if (f.tensors().empty()) return "the file holds no tensors (vocabulary only)";
    if (params && !find_architecture(params->architecture)) return unsupported_architecture_message(params->architecture);
    if (auto s = check_tensor_types(f); !s) return s.error().message;
    if (!params) return params.error().message;
    auto vocab = vocab_from_gguf(f);
    if (!vocab) return vocab.error().message;
    auto s = validate_model(f, params.value(), vocab->size());
    return s ? nlohmann::json(nullptr) : nlohmann::json(s.error().message);
}

std::string mib(const nlohmann::json& bytes) {
    char s[32];
    std::snprintf(s, sizeof(s), "%.1f MiB", bytes.get<double>() / (1024.0 * 1024.0));
    return s;
}

// "memory: context 2048, KV f16/f16: weights 1.1 MiB + KV 2.0 MiB + activations 0.6 MiB = 3.7 MiB of … available"
std::string memory_line(const nlohmann::json& m) {
    const std::string kv = m["kv_types"]["k"].get<std::string>() + "/" + m["kv_types"]["v"].get<std::string>();
    if (m.contains("error")) return "memory: KV " + kv + ": " + m["error"].get<std::string>();
    return "memory: context " + std::to_string(m["context"].get<int64_t>()) +
           (m["context_shortened"].get<bool>() ? " (shortened to fit the memory available)" : "") + ", KV " + kv +
           ": weights " + mib(m["weights_bytes"]) + " + KV " + mib(m["kv_bytes"]) + " + activations " +
           mib(m["scratch_bytes"]) + " = " + mib(m["total_bytes"]) +
           (m["available_bytes"].is_null() ? std::string() : " of " + mib(m["available_bytes"]) + " available");
}

int run_info(InfoOptions o) {
    auto path = model_path_or_builtin(o.model); // no --model: the built-in octet, as every command
    if (!path) return report_error(o.json, path.error());
    o.model = path.value();
    auto file = GgufFile::open(o.model);
    if (!file) return report_error(o.json, file.error());
    const GgufFile& f = file.value();
    auto params = read_model_params(f);

    std::map<std::string, int64_t> types;
    std::map<std::string, int64_t> unsupported;
    int64_t n_params = 0;
    for (const auto& t : f.tensors()) {
        types[std::string(t.type.name)] += 1;
        if (!t.type.supported) unsupported[std::string(t.type.name)] += 1;
        n_params += t.n_elements();
    }
    nlohmann::json unsupported_names = nlohmann::json::array();
    for (const auto& [name, count] : unsupported) unsupported_names.push_back(name);

    const ModelParams p = params ? params.value() : ModelParams{};
    nlohmann::json out = {
        {"file", valid_utf8(o.model)},
        {"file_size", f.file_size()},
        {"gguf_version", f.version()},
        {"architecture", p.architecture.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.architecture)},
        {"name", optional_string(f, "general.name")},
        {"n_layer", positive_or_null(p.n_layer)},
        {"n_head", positive_or_null(p.n_head)},
        {"n_head_kv", positive_or_null(p.n_head_kv)},
        {"n_embd", positive_or_null(p.n_embd)},
        {"n_ff", positive_or_null(p.n_ff)},
        {"n_vocab", positive_or_null(p.n_vocab)},
        {"context_length", positive_or_null(p.context_length)},
        {"tokenizer", optional_string(f, "tokenizer.ggml.model")},
        {"pre", optional_string(f, "tokenizer.ggml.pre")},
        {"n_tensors", f.tensors().size()},
        {"n_params", n_params},
        {"tensor_types", types},
        {"unsupported", unsupported_names},
    };
    const nlohmann::json problem = load_problem(f, params);
    const ArchitectureInfo* arch = find_architecture(p.architecture);
    out["features"] = arch && params ? nlohmann::json(architecture_features(*arch, p, f)) : nlohmann::json(nullptr);
    out["supported"] = problem.is_null();
    out["load_error"] = problem;
    out["memory"] = problem.is_null() ? memory_plan(f, p, o) : nlohmann::json(nullptr);
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    for (const auto& [key, value] : out.items()) {
        if (key == "features" && value.is_array()) { // one phrase per line reads better than a JSON array
            std::cout << key << ":\n";
            for (const auto& feature : value) std::cout << "  - " << feature.get<std::string>() << '\n';
            continue;
        }
        if (key == "memory" && value.is_object()) {
            std::cout << memory_line(value) << '\n';
            continue;
        }
        std::cout << key << ": " << (value.is_string() ? value.get<std::string>() : value.dump()) << '\n';
    }
    return kExitOk;
}

} // namespace

void add_info_command(CLI::App& app, CommandRunner& run) {
    auto opts = std::make_shared<InfoOptions>();
    CLI::App* cmd = app.add_subcommand("info", "Describe a GGUF model: architecture, sizes, tokenizer, tensor types");
    cmd->add_option("--model,-m", opts->model, "GGUF file (default: the built-in octet)");
    cmd->add_flag("--json", opts->json, "Print one JSON object");
    cmd->add_option("--ctx-size,-c", opts->ctx_size, "Context the memory estimate is for (0: the model's whole context, "
                                                     "as far as memory allows)")
        ->check(CLI::Range(int64_t{0}, int64_t{1} << 24));
    add_kv_type_options(*cmd, opts->kv);
    cmd->callback([&run, opts] { run = [opts] { return run_info(*opts); }; });
}

} // namespace octo::cli
