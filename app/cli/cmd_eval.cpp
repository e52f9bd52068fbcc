// octoscope-cli eval: exact-match accuracy of greedy answers over a JSONL task file, per
// subsystem, optionally with subsystems switched off, and the router's per-token accuracy for
// models with one (engine/evaluation/task_eval.h).
#include <iostream>
#include <memory>
#include <optional>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/precision_option.h"
#include "app/cli/subsystem_list.h"
#include "app/common/builtin_model.h"
#include "engine/evaluation/task_eval.h"
#include "engine/instrumentation/head_map_source.h"
#include "app/cli/interrupt_guard.h"
#ifdef OCTOSCOPE_HAVE_NET
#include <algorithm>

#include "app/cli/remote_target.h"
#include "engine/remote/remote_answers.h"
#endif

namespace octo::cli {

namespace {

struct EvalOptions {
    std::string model;
    std::string data;
    std::vector<std::string> disable;
    std::string head_map;
    int64_t limit = 0;
    int64_t max_tokens = 64;
    int threads = 0;
    std::string backend = "auto";
    std::optional<Precision> precision = std::nullopt; // nullopt: the model's default
    bool json = false;
    std::string engine;      // --engine: a remote OpenAI-compatible server (--model: its model id)
    std::string api_key_env;
    int concurrency = 4;
};

double accuracy(const TaskEvalCounts& c) {
    return c.items > 0 ? static_cast<double>(c.correct) / static_cast<double>(c.items) : 0.0;
}

void show_progress(size_t done, size_t total) {
    if (done % 50 == 0 || done == total) std::cerr << "\r" << done << " / " << total << std::flush;
}

// overall, per_subsystem, n and n_per_subsystem: what every evaluation reports.
nlohmann::json accuracy_json(const TaskEvalResult& r) {
    nlohmann::json per = nlohmann::json::object();
    nlohmann::json counts = nlohmann::json::object();
    for (int s = 0; s < kSubsystemCount; ++s) {
        const TaskEvalCounts& c = r.per_subsystem[static_cast<size_t>(s)];
        if (c.items == 0) continue;
        per[std::string(subsystem_id(s))] = accuracy(c);
        counts[std::string(subsystem_id(s))] = c.items;
    }
    return {{"overall", accuracy(r.overall)}, {"per_subsystem", per}, {"n", r.overall.items}, {"n_per_subsystem", counts}};
}

int print_eval(const nlohmann::json& out, bool json) {
    if (json) {
        print_json(out);
        return kExitOk;
    }
    std::cout << "overall " << out["overall"].get<double>() << " over " << out["n"] << " items\n";
    for (const auto& [id, acc] : out["per_subsystem"].items()) std::cout << id << " " << acc.get<double>() << '\n';
    if (out.contains("router")) std::cout << "router (held-out phrasings) " << out["router"]["heldout_accuracy"] << '\n';
    return kExitOk;
}

#ifdef OCTOSCOPE_HAVE_NET
int run_eval_remote(const EvalOptions& o, const std::array<bool, kSubsystemCount>& disabled, const std::vector<TaskItem>& items);
#endif

int run_eval(const EvalOptions& o) {
    auto disabled = parse_subsystem_list(o.disable, "--disable");
    if (!disabled) return report_error(o.json, disabled.error().message, kExitUsage);
    auto items = read_task_file(o.data);
    if (!items) return report_error(o.json, items.error());
    if (o.limit > 0 && static_cast<size_t>(o.limit) < items->size()) items->resize(static_cast<size_t>(o.limit));
#ifdef OCTOSCOPE_HAVE_NET
    if (!o.engine.empty()) return run_eval_remote(o, disabled.value(), items.value());
#endif
    auto opened = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads, .head_map_file = o.head_map});
    if (!opened) return report_error(o.json, opened.error());
    const Model& model = *opened->model;
    const HeadMap& map = opened->map();

    TaskEvalOptions options;
    options.disabled = disabled.value();
    options.max_tokens = o.max_tokens;
    options.precision = o.precision;
    InterruptGuard interrupt;
    options.cancel = interrupt.flag();
    if (!o.json) options.progress = show_progress;
    auto r = evaluate_tasks(model, *opened->backend, *opened->tokenizer, map, items.value(), options);
    if (!o.json) std::cerr << '\n';
    if (!r) return report_error(o.json, r.error().message, r.error().code == ErrorCode::Cancelled ? kExitInterrupted : kExitError);

    nlohmann::json out = accuracy_json(r.value());
    out["model"] = valid_utf8(opened->info.path);
    out["disabled"] = subsystem_list_json(disabled.value());
    out["head_map"] = map.describe();
    out["precision"] = std::string(precision_name(r->precision));
    if (r->has_router) {
        out["router"] = {{"answer_tokens", r->router_tokens.items},
                         {"accuracy", accuracy(r->router_tokens)},
                         {"heldout_answer_tokens", r->router_tokens_heldout.items},
                         {"heldout_accuracy", accuracy(r->router_tokens_heldout)}};
    }
    return print_eval(out, o.json);
}

#ifdef OCTOSCOPE_HAVE_NET
// --engine: the items answered by a server, `concurrency` requests in flight; Ctrl+C cancels.
int run_eval_remote(const EvalOptions& o, const std::array<bool, kSubsystemCount>& disabled, const std::vector<TaskItem>& items) {
    if (!o.head_map.empty() || o.precision || o.backend != "auto" || o.threads != 0) {
        return report_error(o.json, "--engine runs on a server: --head-map, --precision, --backend and --threads need a local model",
                            kExitUsage);
    }
    auto connected = connect_engine({o.engine, o.api_key_env, o.model});
    if (!connected) return report_error(o.json, connected.error().message, engine_error_exit_code(connected.error()));
    const bool any_disabled = std::any_of(disabled.begin(), disabled.end(), [](bool b) { return b; });
    if (any_disabled && !connected->model.octoscope) {
        return report_error(o.json, "--disable needs a local model or an Octoscope server; " + connected->describe() +
                                        " is another OpenAI-compatible server", kExitUsage);
    }
    InterruptGuard interrupt;
    remote::RemoteAnswerer answerer{&connected->client, connected->model.id, connected->model.octoscope,
                                    {.concurrency = o.concurrency, .cancel = interrupt.flag(), .progress = {}}};
    if (!o.json) answerer.batch.progress = show_progress;
    auto r = remote::evaluate_tasks_remote(answerer, items, disabled, o.max_tokens);
    if (!o.json) std::cerr << '\n';
    if (!r) return report_error(o.json, r.error().message, r.error().code == ErrorCode::Cancelled ? kExitInterrupted : kExitError);
    nlohmann::json out = accuracy_json(r.value());
    out["engine"] = connected->describe();
    out["model"] = connected->model.id;
    out["octoscope_server"] = connected->model.octoscope;
    out["disabled"] = subsystem_list_json(disabled);
    out["concurrency"] = o.concurrency;
    return print_eval(out, o.json);
}
#endif

} // namespace

void add_eval_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<EvalOptions>();
    CLI::App* cmd = app.add_subcommand("eval", "Exact-match accuracy of greedy answers over a JSONL task file");
    cmd->add_option("--model,-m", o->model, "GGUF model (default: the built-in octet model); with --engine the server's model id");
    cmd->add_option("--data,-d", o->data, "JSONL task file (prompt, answer, subsystem, lang, heldout_phrasing)")
        ->required();
    cmd->add_option("--disable", o->disable, "Zero-ablate these subsystems, e.g. rte-c,rte-f");
    cmd->add_option("--head-map", o->head_map, "Head → subsystem map file (default: the model's own or the default)");
    cmd->add_option("--limit", o->limit, "Evaluate only the first N items (0: all)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--max-tokens", o->max_tokens, "Answer tokens at most")->check(CLI::Range(1, 4096))
        ->capture_default_str();
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)");
    cmd->add_option("--backend", o->backend, "auto (CUDA when usable, else the CPU), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    add_precision_option(*cmd, o->precision);
    cmd->add_flag("--json", o->json, "Print one JSON object");
#ifdef OCTOSCOPE_HAVE_NET
    add_engine_options(*cmd, o->engine, o->api_key_env, &o->concurrency);
#endif
    cmd->callback([&run, o] { run = [o] { return run_eval(*o); }; });
}

} // namespace octo::cli
