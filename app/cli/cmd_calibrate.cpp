// octoscope-cli calibrate: measures which subsystem each head of a model serves on the labelled
// probe set and stores the map for that model file (engine/router/head_calibration.h,
// engine/instrumentation/calibrated_maps.h).
#include <iostream>
#include <memory>
#include <optional>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/precision_option.h"
#include "app/common/builtin_model.h"
#include "app/common/resource_dir.h"
#include "engine/instrumentation/calibrated_maps.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/router/head_calibration.h"

namespace octo::cli {

namespace {

struct CalibrateOptions {
    std::string model;
    std::string train; // default: the resources' probe splits
    std::string dev;
    int threads = 0;
    std::string backend = "auto";
    std::optional<Precision> precision = std::nullopt; // nullopt: the model's default
    bool json = false;
    bool experts = false; // the experts of a mixture of experts instead of the heads
};

int run_calibrate(const CalibrateOptions& o) {
    std::string train_path = o.train, dev_path = o.dev;
    if (train_path.empty() || dev_path.empty()) {
        auto dir = resource_dir();
        if (!dir) return report_error(o.json, dir.error());
        if (train_path.empty()) train_path = (dir.value() / "probes" / "probes_train.jsonl").string();
        if (dev_path.empty()) dev_path = (dir.value() / "probes" / "probes_dev.jsonl").string();
    }
    auto train = read_probe_file(train_path);
    if (!train) return report_error(o.json, train.error());
    auto dev = read_probe_file(dev_path);
    if (!dev) return report_error(o.json, dev.error());
    auto opened = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads});
    if (!opened) return report_error(o.json, opened.error());
    const Model& model = *opened->model;
    CalibrationOptions options;
    options.precision = o.precision;
    options.unit = o.experts ? CalibrationUnit::Experts : CalibrationUnit::Heads;
    if (!o.json) {
        options.progress = [](size_t done, size_t total) {
            if (done % 25 == 0 || done == total) std::cerr << "\rprofiling probes " << done << " / " << total << std::flush;
        };
    }
    auto r = calibrate_head_map(model, *opened->backend, *opened->tokenizer, train.value(), dev.value(), options);
    if (!r) return report_error(o.json, r.error());
    if (!o.json) std::cerr << '\n';
    const nlohmann::json report = {{"n_train", r->n_train},
                                   {"n_dev", r->n_dev},
                                   {"separation", r->separation},
                                   {"null_separation", r->null_separation},
                                   {"token_null_separation", r->token_null_separation},
                                   {"chance", 1.0 / kSubsystemCount},
                                   {"precision", std::string(precision_name(
                                                     resolve_precision(o.precision, model.params().architecture)))}};
    auto saved = save_calibrated_map(model, opened->info.path, r->map, report, o.experts ? MapKind::Experts : MapKind::Heads);
    if (!saved) return report_error(o.json, saved.error());
    nlohmann::json out = report;
    out["map_path"] = saved.value();
    out["model"] = valid_utf8(opened->info.path);
    out[o.experts ? "expert_map" : "head_map"] = r->map.to_json();
    const bool earned = map_earned(r->separation, r->null_separation, r->token_null_separation);
    out["map_earned"] = earned;
    if (o.experts) out["experts_specialise"] = earned;
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    std::cout << "separation on dev " << r->separation << " (nulls: shuffled labels " << r->null_separation
              << ", token identity alone " << r->token_null_separation << "; chance 0.125; margin " << kMapMargin << ")\n";
    const char* unit = o.experts ? "experts" : "heads";
    if (earned) {
        std::cout << "the " << unit << " specialise by subsystem on these probes: the map tells the subsystems apart better than "
                  << "shuffled labels and better than units that respond to token identity alone (what random weights reach "
                  << "from the probes' surface tokens)\n";
    } else {
        std::cout << "the " << unit << " do not specialise by subsystem on these probes: the map does not beat both nulls by "
                  << kMapMargin << ", so subsystem shares read through it mean little (the claims lab will not use it)\n";
    }
    std::cout << "map written to " << saved.value() << '\n';
    return kExitOk;
}

} // namespace

void add_calibrate_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<CalibrateOptions>();
    CLI::App* cmd = app.add_subcommand("calibrate", "Measure a head → subsystem map for a model on the probe set");
    cmd->add_option("--model,-m", o->model, "GGUF model (default: the built-in octet model)");
    cmd->add_option("--train", o->train, "Labelled probes to calibrate on (default: resources/probes/probes_train.jsonl)");
    cmd->add_option("--dev", o->dev, "Labelled probes to score on (default: resources/probes/probes_dev.jsonl)");
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)");
    cmd->add_option("--backend", o->backend, "auto (CUDA when usable, else the CPU), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    add_precision_option(*cmd, o->precision, "--precision", " of the profiling runs");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->add_flag("--experts", o->experts,
                  "Map a mixture of experts' experts (per layer) to subsystems instead of its heads (docs/moe.md)");
    cmd->callback([&run, o] { run = [o] { return run_calibrate(*o); }; });
}

} // namespace octo::cli
