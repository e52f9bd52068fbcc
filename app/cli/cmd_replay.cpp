// octoscope-cli replay: repeat a capture's run on its model (the recorded absolute path, or
// --model) after checking the file is that model, and report whether every token is the same.
#include <iostream>
#include <memory>

#include "app/cli/capture_run.h"
#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/common/builtin_model.h"
#include "engine/capture/capture_identity.h"
#include "engine/capture/capture_io.h"
#include "engine/capture/capture_replay.h"
#ifdef OCTOSCOPE_HAVE_NET
#include "app/cli/remote_generate.h"
#include "engine/remote/remote_trace.h"
#endif

namespace octo::cli {

namespace {

struct ReplayOptions {
    std::string capture;
    std::string model;
    int threads = -1; // -1: the capture's
    bool json = false;
    std::string engine; // --engine: repeat it on a server (a remote capture: its recorded URL by default)
    std::string api_key_env;
};

nlohmann::json token_json(const TraceToken* e) {
    if (!e) return nullptr;
    return {{"id", e->id}, {"piece", valid_utf8(e->bytes)}};
}

// What every replay reports of the generated tokens: where they part (with the two tokens there)
// and how many each run has.
nlohmann::json tokens_json(const ReplayComparison& cmp, const RunTrace& recorded, const RunTrace& replay) {
    const auto before = recorded.generated();
    const auto after = replay.generated();
    const TraceToken* was = nullptr;
    const TraceToken* now = nullptr;
    if (cmp.first_divergence) {
        const size_t i = *cmp.first_divergence;
        was = i < before.size() ? &before[i] : nullptr;
        now = i < after.size() ? &after[i] : nullptr;
    }
    return {{"first_divergence", cmp.first_divergence ? nlohmann::json(*cmp.first_divergence) : nlohmann::json(nullptr)},
            {"tokens_compared", cmp.tokens_compared},
            {"recorded_tokens", cmp.recorded_tokens},
            {"replayed_tokens", cmp.replayed_tokens},
            {"recorded_token", token_json(was)},
            {"replayed_token", token_json(now)}};
}

void print_divergence(const nlohmann::json& out) {
    std::cout << "different: first divergence at generated token " << out["first_divergence"] << " (recorded "
              << out["recorded_token"].dump() << ", replayed " << out["replayed_token"].dump() << ")\n";
}

#ifdef OCTOSCOPE_HAVE_NET
// The run repeated on a server. A server's tokens may differ for reasons of its own (another
// build, batch, hardware, or seeds it ignores): the report says which server and fingerprint
// answered then and now, and does not call a sampled run on a server that is not Octoscope
// reproducible.
int run_replay_remote(const ReplayOptions& o, const Capture& c) {
    const std::string url = o.engine.empty() ? c.engine->url : o.engine;
    const std::string model = !o.model.empty() ? o.model : c.engine ? c.engine->model : std::string();
    auto connected = connect_engine({url, o.api_key_env, model});
    if (!connected) return report_error(o.json, connected.error().message, engine_error_exit_code(connected.error()));
    const RunSpec spec = c.trace.repeat_spec();
    if (auto ok = check_remote_spec(connected.value(), spec, ""); !ok) return report_error(o.json, ok.error().message, kExitUsage);
    auto result = connected->client.complete(remote_request(connected.value(), spec, ""));
    if (!result) return report_error(o.json, result.error());
    const RunTrace replay = remote::trace_of_remote_run(spec, result.value());
    const ReplayComparison cmp = compare_replay(c.trace, replay);
    const bool prompts_known = c.trace.n_prompt > 0 && replay.n_prompt > 0;
    const bool sampled = spec.sampling.temperature > 0.0f;
    nlohmann::json out = tokens_json(cmp, c.trace, replay);
    out.update({
        {"identical", !cmp.first_divergence && (!prompts_known || cmp.prompt_identical)},
        {"prompt_identical", prompts_known ? nlohmann::json(cmp.prompt_identical) : nlohmann::json(nullptr)},
        {"engine", connected->describe()},
        {"model", result->model.empty() ? connected->model.id : result->model},
        {"recorded_engine", c.engine ? nlohmann::json(c.engine->url) : nlohmann::json(nullptr)},
        {"recorded_fingerprint", c.engine ? nlohmann::json(c.engine->fingerprint) : nlohmann::json(nullptr)},
        {"fingerprint", result->fingerprint},
        {"replayed_text", valid_utf8(result->text)},
    });
    std::string note;
    if (sampled && !connected->model.octoscope) {
        note = "a sampled run on a server that is not Octoscope need not repeat: many servers ignore the seed or batch requests "
               "differently";
    } else if (c.engine && !c.engine->fingerprint.empty() && c.engine->fingerprint != result->fingerprint) {
        note = "the server's fingerprint changed since the capture (" + c.engine->fingerprint + " → " + result->fingerprint +
               "): another build or configuration may compute other tokens";
    }
    out["note"] = note.empty() ? nlohmann::json(nullptr) : nlohmann::json(note);
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    if (out["identical"].get<bool>()) {
        std::cout << "identical: all " << cmp.recorded_tokens << " tokens repeated on " << connected->describe() << "\n";
    } else if (cmp.first_divergence) {
        print_divergence(out);
    } else {
        std::cout << "different: the prompt tokenized differently; the generated tokens are the same\n";
    }
    if (!note.empty()) std::cout << "note: " << note << '\n';
    return kExitOk;
}
#endif

int run_replay(const ReplayOptions& o) {
    auto capture = open_capture(o.capture);
    if (!capture) return report_error(o.json, capture.error());
    const Capture& c = capture.value();
#ifdef OCTOSCOPE_HAVE_NET
    if (!o.engine.empty() || c.engine) {
        if (o.threads >= 0) return report_error(o.json, "--threads needs a local model; this replay runs on a server", kExitUsage);
        return run_replay_remote(o, c);
    }
#else
    if (c.engine) return report_error(o.json, "this capture is of a run on " + c.engine->url + "; this build has no remote engines", kExitUsage);
#endif
    const std::string model_path = o.model.empty() ? c.model.path : o.model;
    if (auto same = check_capture_model(c.model, model_path); !same) return report_error(o.json, same.error());
    const RunSpec spec = c.trace.repeat_spec();
    const int threads = o.threads >= 0 ? o.threads : spec.threads;
    auto setup = open_model_or_builtin(model_path, {.threads = threads, .n_ctx = spec.n_ctx, .kv_types = kv_types_of(spec), .precision = spec.precision});
    if (!setup) return report_error(o.json, setup.error());
    if (c.head_map) setup->set_map(*c.head_map);
    auto run = run_on_model(setup.value(), spec);
    if (!run) return report_error(o.json, run.error());
    const RunTrace replay = trace_of_run(spec, run->prompt, *setup->tokenizer, run->run, setup->kv->pool().history());
    const ReplayComparison cmp = compare_replay(c.trace, replay);
    nlohmann::json out = tokens_json(cmp, c.trace, replay);
    out.update({
        {"identical", cmp.identical},
        {"prompt_identical", cmp.prompt_identical},
        {"model", valid_utf8(model_path)},
        {"precision", std::string(precision_name(run->run.precision))}, // the capture's
        {"replayed_text", valid_utf8(run->run.generation.text)},
        {"routing_identical", cmp.routing_identical},
        {"first_routing_divergence",
         cmp.first_routing_divergence ? nlohmann::json(*cmp.first_routing_divergence) : nlohmann::json(nullptr)},
    });
    if (o.json) {
        print_json(out);
        return kExitOk;
    }
    if (cmp.identical) {
        std::cout << "identical: all " << cmp.recorded_tokens << " tokens repeated"
                  << (c.model.n_expert > 0 ? ", every position chose the same experts" : "") << "\n";
    } else if (!cmp.first_divergence && !cmp.prompt_identical) {
        std::cout << "different: the prompt tokenized differently; the generated tokens are the same\n";
    } else if (!cmp.first_divergence) {
        std::cout << "different: the tokens are the same, but position " << *cmp.first_routing_divergence
                  << " (prompt first) chose other experts\n";
    } else {
        print_divergence(out);
    }
    return kExitOk;
}

} // namespace

void add_replay_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<ReplayOptions>();
    CLI::App* cmd = app.add_subcommand("replay", "Repeat a capture's run and report whether every token is the same");
    cmd->add_option("capture", o->capture, ".octo capture file")->required();
    cmd->add_option("--model,-m", o->model, "The model file (default: the path the capture recorded); with --engine the server's model id");
    cmd->add_option("--threads,-t", o->threads, "CPU threads (default: the capture's; 0: all cores)");
    cmd->add_flag("--json", o->json, "Print one JSON object");
#ifdef OCTOSCOPE_HAVE_NET
    add_engine_options(*cmd, o->engine, o->api_key_env);
#endif
    cmd->callback([&run, o] { run = [o] { return run_replay(*o); }; });
}

} // namespace octo::cli
