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
};

double accuracy(const TaskEvalCounts& c) {
    return c.items > 0 ? static_cast<double>(c.correct) / static_cast<double>(c.items) : 0.0;
}

int run_eval(const EvalOptions& o) {
    auto disabled = parse_subsystem_list(o.disable, "--disable");
    if (!disabled) return report_error(o.json, disabled.error().message, kExitUsage);
    auto items = read_task_file(o.data);
    if (!items) return report_error(o.json, items.error());
    if (o.limit > 0 && static_cast<size_t>(o.limit) < items->size()) items->resize(static_cast<size_t>(o.limit));
    auto opened = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads, .head_map_file = o.head_map});
    if (!opened) return report_error(o.json, opened.error());
    const Model& model = *opened->model;
    const HeadMap& map = opened->map;

    TaskEvalOptions options;
    options.disabled = disabled.value();
    options.max_tokens = o.max_tokens;
    options.precision = o.precision;
    if (!o.json) {
        options.progress = [](size_t done, size_t total) {
            if (done % 50 == 0 || done == total) std::cerr << "\r" << done << " / " << total << std::flush;
        };
    }
    auto r = evaluate_tasks(model, *opened->backend, *opened->tokenizer, map, items.value(), options);
    if (!r) return report_error(o.json, r.error());
    if (!o.json) std::cerr << '\n';

    nlohmann::json per = nlohmann::json::object();
    nlohmann::json counts = nlohmann::json::object();
    for (int s = 0; s < kSubsystemCount; ++s) {
        const TaskEvalCounts& c = r->per_subsystem[static_cast<size_t>(s)];
        if (c.items == 0) continue;
        per[std::string(subsystem_id(s))] = accuracy(c);
        counts[std::string(subsystem_id(s))] = c.items;
    }
    nlohmann::json out = {
        {"overall", accuracy(r->overall)},
        {"per_subsystem", per},
        {"n", r->overall.items},
        {"n_per_subsystem", counts},
        {"model", valid_utf8(opened->info.path)},
        {"disabled", subsystem_list_json(disabled.value())},
        {"head_map", map.describe()},
        {"precision", std::string(precision_name(r->precision))},
    };
    if (r->has_router) {
        out["router"] = {{"answer_tokens", r->router_tokens.items},
                         {"accuracy", accuracy(r->router_tokens)},
                         {"heldout_answer_tokens", r->router_tokens_heldout.items},
                         {"heldout_accuracy", accuracy(r->router_tokens_heldout)}};
    }
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    std::cout << "overall " << out["overall"].get<double>() << " over " << r->overall.items << " items\n";
    for (const auto& [id, acc] : per.items()) std::cout << id << " " << acc.get<double>() << '\n';
    if (r->has_router) std::cout << "router (held-out phrasings) " << out["router"]["heldout_accuracy"] << '\n';
    return kExitOk;
}

} // namespace

void add_eval_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<EvalOptions>();
    CLI::App* cmd = app.add_subcommand("eval", "Exact-match accuracy of greedy answers over a JSONL task file");
    cmd->add_option("--model,-m", o->model, "GGUF model (default: the built-in octet model)");
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
    cmd->callback([&run, o] { run = [o] { return run_eval(*o); }; });
}

} // namespace octo::cli
