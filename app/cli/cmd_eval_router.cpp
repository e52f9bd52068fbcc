// octoscope-cli eval-router: the router's accuracy on a labelled probe file — stage 1 alone and
// both stages, per-class precision and recall, and the confusion matrix.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/router_embedding.h"
#include "app/common/resource_dir.h"
#include "engine/router/router.h"

namespace octo::cli {

namespace {

struct EvalRouterOptions {
    std::string data;
    std::string train; // empty: the resources' train split
    RouterEmbeddingOptions embedding;
    double stage2_weight = Router::kStage2Weight;
    double concept_weight = LexicalEmbedding::kConceptWeight;
    bool json = false;
};

using Confusion = std::array<std::array<int64_t, kSubsystemCount>, kSubsystemCount>; // [true][predicted]

nlohmann::json per_class(const Confusion& m) {
    nlohmann::json out = nlohmann::json::object();
    for (int k = 0; k < kSubsystemCount; ++k) {
        int64_t tp = m[static_cast<size_t>(k)][static_cast<size_t>(k)], predicted = 0, actual = 0;
        for (int j = 0; j < kSubsystemCount; ++j) {
            predicted += m[static_cast<size_t>(j)][static_cast<size_t>(k)];
            actual += m[static_cast<size_t>(k)][static_cast<size_t>(j)];
        }
        out[std::string(subsystem_id(k))] = {{"precision", predicted ? double(tp) / double(predicted) : 0.0},
                                             {"recall", actual ? double(tp) / double(actual) : 0.0},
                                             {"n", actual}};
    }
    return out;
}

int run_eval_router(const EvalRouterOptions& o) {
    auto probes = read_probe_file(o.data);
    if (!probes) return report_error(o.json, probes.error());
    auto dir = resource_dir();
    if (!dir) return report_error(o.json, dir.error());
    auto embedding = make_router_embedding(o.embedding);
    if (!embedding) return report_error(o.json, embedding.error());
    auto router = [&]() -> Result<Router> {
        const std::filesystem::path& res = dir.value();
        auto train = read_probe_file(o.train.empty() ? (res / "probes" / "probes_train.jsonl").string() : o.train);
        if (!train) return train.error();
        auto rules = FeatureRules::load((res / "rules" / "router_features.json").string());
        if (!rules) return rules.error();
        std::shared_ptr<TextEmbedding> stage1 = embedding->embedding;
        if (!stage1) stage1 = std::make_shared<LexicalEmbedding>(std::make_shared<const FeatureRules>(rules.value()), o.concept_weight);
        return Router::fit(train.value(), std::move(rules.value()), std::move(stage1));
    }();
    if (!router) return report_error(o.json, router.error());
    router->set_stage2_weight(o.stage2_weight);
    Confusion stage1{}, both{};
    int64_t hit1 = 0, hit2 = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const Probe& p : probes.value()) {
        const RouteDecision d = router->route(p.text);
        stage1[static_cast<size_t>(p.label)][static_cast<size_t>(d.stage1_route)] += 1;
        both[static_cast<size_t>(p.label)][static_cast<size_t>(d.route)] += 1;
        hit1 += d.stage1_route == p.label;
        hit2 += d.route == p.label;
    }
    const auto n = static_cast<double>(probes->size());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    nlohmann::json out = {{"n", probes->size()},
                                {"stage1_accuracy", double(hit1) / n},
                                {"accuracy", double(hit2) / n},
                                {"per_class", per_class(both)},
                                {"confusion", both},
                                {"stage1_confusion", stage1},
                                {"labels", [] {
                                     nlohmann::json ids = nlohmann::json::array();
                                     for (int s = 0; s < kSubsystemCount; ++s) ids.push_back(subsystem_id(s));
                                     return ids;
                                 }()},
                                {"embedding", router->embedding_name()},
                                {"centroids", centroids_source(router->centroids_cached())},
                                {"ms_per_route", ms / n}}; // a figure, not a test: varies with the machine
    if (embedding->precision) out["precision"] = std::string(precision_name(*embedding->precision));
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    std::cout << "stage 1 alone " << out["stage1_accuracy"].get<double>() << ", both stages "
              << out["accuracy"].get<double>() << " over " << probes->size() << " probes\n";
    return kExitOk;
}

} // namespace

void add_eval_router_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<EvalRouterOptions>();
    CLI::App* cmd = app.add_subcommand("eval-router", "Router accuracy on a labelled probe file (JSONL: text, lang, label)");
    cmd->add_option("--data,-d", o->data, "Probe file")->required();
    cmd->add_option("--train", o->train, "Fit the centroids on this probe file (default: the resources' train split)");
    add_router_embedding_options(*cmd, o->embedding);
    cmd->add_option("--stage2-weight", o->stage2_weight, "Weight of the feature score (tuning)")->capture_default_str();
    cmd->add_option("--concept-weight", o->concept_weight,
                    "Weight of the lexical embedding's concept dimensions (tuning)")->capture_default_str();
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([&run, o] { run = [o] { return run_eval_router(*o); }; });
}

} // namespace octo::cli
