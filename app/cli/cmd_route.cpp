// octoscope-cli route: which subsystem the two-stage router sends a prompt to, with evidence
// (engine/router/router.h). The lexical embedding loads no model.
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/route_json.h"
#include "app/cli/model_loading.h"
#include "app/common/resource_dir.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/router/model_embedding.h"


namespace octo::cli {

namespace {

struct RouteOptions {
    std::string prompt;
    std::string embedding = "lexical";
    std::string model;
    int64_t layer = -1;
    bool json = false;
};

int run_route(const RouteOptions& o) {
    auto dir = resource_dir();
    if (!dir) return report_error(o.json, dir.error());
    // With --embedding model: the model, its tokenizer and a backend, alive while routing.
    LoadedModel loaded;
    std::unique_ptr<CpuBackend> backend;
    std::shared_ptr<TextEmbedding> embedding;
    if (o.embedding == "model") {
        auto l = load_model_and_tokenizer(o.model);
        if (!l) return report_error(o.json, l.error());
        loaded = std::move(l.value());
        auto b = CpuBackend::create({});
        if (!b) return report_error(o.json, b.error());
        backend = std::move(b.value());
        auto e = ModelEmbedding::create(*loaded.model, *backend, *loaded.tokenizer, o.layer);
        if (!e) return report_error(o.json, e.error());
        embedding = std::move(e.value());
    }
    auto router = Router::from_resources(dir.value().string(), embedding);
    if (!router) return report_error(o.json, router.error());
    const RouteDecision d = router->route(o.prompt);
    const nlohmann::json out = route_json(d, o.prompt, router->embedding_name());
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    std::cout << out["route"].get<std::string>() << '\n';
    for (const auto& c : out["top3"]) {
        std::cout << "  " << c["route"].get<std::string>() << "  stage1 " << c["stage1"].get<double>() << "  stage2 "
                  << c["stage2"].get<double>() << '\n';
    }
    return kExitOk;
}

} // namespace

void add_route_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<RouteOptions>();
    CLI::App* cmd = app.add_subcommand("route", "Route a prompt to a subsystem (two-stage router) with its evidence");
    cmd->add_option("--prompt,-p", o->prompt, "The prompt")->required();
    cmd->add_option("--embedding", o->embedding, "Stage-1 embedding: lexical (no model) or model (hidden states)")
        ->check(CLI::IsMember({"lexical", "model"}))->capture_default_str();
    cmd->add_option("--model,-m", o->model, "Model for --embedding model (default: the built-in octet model)");
    cmd->add_option("--layer", o->layer, "Layer whose output is pooled (default: the middle one)");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([&run, o] { run = [o] { return run_route(*o); }; });
}

} // namespace octo::cli
