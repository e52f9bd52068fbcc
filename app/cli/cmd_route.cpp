// octoscope-cli route: which subsystem the two-stage router sends a prompt to, with evidence
// (engine/router/router.h). The lexical embedding loads no model.
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/route_json.h"
#include "app/cli/router_embedding.h"
#include "app/common/resource_dir.h"
#include "engine/router/router.h"

namespace octo::cli {

namespace {

struct RouteOptions {
    std::string prompt;
    RouterEmbeddingOptions embedding;
    bool json = false;
};

int run_route(const RouteOptions& o) {
    auto dir = resource_dir();
    if (!dir) return report_error(o.json, dir.error());
    auto embedding = make_router_embedding(o.embedding);
    if (!embedding) return report_error(o.json, embedding.error());
    auto router = Router::from_resources(dir.value().string(), embedding->embedding);
    if (!router) return report_error(o.json, router.error());
    const RouteDecision d = router->route(o.prompt);
    nlohmann::json out = route_json(d, o.prompt, router->embedding_name());
    out["centroids"] = centroids_source(router->centroids_cached());
    if (embedding->precision) out["precision"] = std::string(precision_name(*embedding->precision));
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
    add_router_embedding_options(*cmd, o->embedding);
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([&run, o] { run = [o] { return run_route(*o); }; });
}

} // namespace octo::cli
