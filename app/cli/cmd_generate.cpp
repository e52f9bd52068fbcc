// octoscope-cli generate: run a model on a prompt and report every generated token.
#include <iostream>
#include <memory>
#include <optional>

#include "app/cli/capture_run.h"
#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/kv_type_option.h"
#include "app/cli/precision_option.h"
#include "app/cli/subsystem_list.h"
#include "app/cli/logit_lens_report.h"
#include "app/cli/run_json.h"
#ifdef OCTOSCOPE_HAVE_NET
#include "app/cli/remote_generate.h" // --engine
#endif
#include "app/common/builtin_model.h"
#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/json_schema.h"
#include "engine/capture/capture_io.h"

namespace octo::cli {

namespace {

struct GenerateOptions {
    std::string model;
    std::string prompt;
    std::string prompt_file;
    std::string grammar_file; // GBNF the tokens must keep to
    std::string schema_file;  // or a JSON Schema, compiled to GBNF
    int64_t max_tokens = 64;
    SamplerConfig sampling;
    int threads = 0;
    std::string backend = "auto";
    int64_t ctx_size = 0;
    bool chat = false;
    std::string system;
    std::string reasoning_effort = "medium"; // harmony's reasoning level (--chat with a gpt-oss model)
    std::vector<std::string> stops;
    bool ignore_eos = false;
    bool parse_special = false;
    bool json = false;
    std::vector<std::string> disable; // subsystem ids
    std::string ablation = "zero";
    std::string head_map;
    std::string attribution;
    bool record_attention = false;
    std::vector<std::string> disable_experts; // LAYER:EXPERT
    bool record_router_probs = false;
    std::string metric; // which metric fills "subsystems" (empty: the model's default)
    std::string disable_target = "heads"; // what --disable switches off: heads or experts
    std::string save_capture;
    int64_t logit_lens = 0; // top tokens per layer of the logit lens (0: none)
    std::optional<Precision> precision = std::nullopt; // nullopt: the model's default
    KvTypeOptions kv;
    std::string engine;      // a remote OpenAI-compatible server (remote_generate.h)
    std::string api_key_env;
};

// The run's spec, as a capture records it.
RunSpec generate_spec(const GenerateOptions& o, const std::array<bool, kSubsystemCount>& disabled,
                          std::vector<ExpertSwitch> experts, std::string prompt) {
    RunSpec s;
    s.prompt = std::move(prompt);
    s.chat = o.chat;
    s.system = o.system;
    s.reasoning_effort = parse_reasoning_effort(o.reasoning_effort).value_or(ReasoningEffort::Medium);
    s.parse_special = o.parse_special;
    s.stop_strings = o.stops;
    s.max_tokens = o.max_tokens;
    s.stop_at_eog = !o.ignore_eos;
    s.sampling = o.sampling;
    s.disabled = disabled;
    s.ablation_mode = o.ablation == "mean" ? AblationMode::Mean : AblationMode::Zero;
    s.switch_target = o.disable_target == "experts" ? SwitchTarget::Experts : SwitchTarget::Heads;
    s.dla = o.attribution == "dla";
    s.record_attention = o.record_attention;
    s.disabled_experts = std::move(experts);
    s.record_router_probs = o.record_router_probs;
    s.n_ctx = o.ctx_size;
    s.threads = o.threads;
    s.kv_type_k = o.kv.keys();
    s.kv_type_v = o.kv.values();
    return s;
}

#ifdef OCTOSCOPE_HAVE_NET
// --engine: the run on a server; what needs the model in this process is refused.
int run_generate_remote(const GenerateOptions& o, const RunSpec& spec) {
    const bool local_only = !spec.disabled_experts.empty() || spec.record_attention || spec.record_router_probs ||
                            spec.switch_target != SwitchTarget::Heads || !spec.stop_at_eog || spec.parse_special ||
                            !o.head_map.empty() || o.precision.has_value() || spec.kv_type_k || spec.kv_type_v ||
                            o.logit_lens > 0;
    if (local_only) {
        return report_error(o.json, "--engine runs on a server: --disable-expert, --disable-target, --record-attention, "
                                    "--record-router-probs, --head-map, --precision, --kv-type, --logit-lens, --ignore-eos and "
                                    "--parse-special need a local model", kExitUsage);
    }
    return run_remote_generate({o.engine, o.api_key_env, o.model}, spec, o.metric, o.json, o.save_capture);
}
#endif

int run_generate(const GenerateOptions& o) {
    auto disabled = parse_subsystem_list(o.disable, "--disable");
    if (!disabled) return report_error(o.json, disabled.error().message, kExitUsage);
    std::vector<ExpertSwitch> experts;
    for (const std::string& text : o.disable_experts) {
        auto s = parse_expert_switch(text);
        if (!s) return report_error(o.json, "--disable-expert: " + s.error().message, kExitUsage);
        experts.push_back(s.value());
    }
    std::string prompt_text = o.prompt;
    if (!o.prompt_file.empty()) {
        auto bytes = read_file_bytes(o.prompt_file, "prompt file");
        if (!bytes) return report_error(o.json, bytes.error());
        prompt_text = std::move(bytes.value());
    }
    RunSpec spec = generate_spec(o, disabled.value(), experts, std::move(prompt_text));
    if (!o.grammar_file.empty()) {
        auto grammar = read_file_bytes(o.grammar_file, "grammar file");
        if (!grammar) return report_error(o.json, grammar.error());
        if (auto parsed = Grammar::parse(grammar.value()); !parsed) {
            return report_error(o.json, o.grammar_file + ": " + parsed.error().message, kExitUsage);
        }
        spec.grammar = std::move(grammar.value());
    }
    if (!o.schema_file.empty()) {
        auto schema = read_file_bytes(o.schema_file, "JSON schema file");
        if (!schema) return report_error(o.json, schema.error());
        auto gbnf = json_schema_to_gbnf(schema.value());
        if (!gbnf) return report_error(o.json, o.schema_file + ": " + gbnf.error().message, kExitUsage);
        spec.grammar = std::move(gbnf.value());
        spec.json_schema = std::move(schema.value());
    }
#ifdef OCTOSCOPE_HAVE_NET
    if (!o.engine.empty()) return run_generate_remote(o, spec);
#endif
    auto setup = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads, .n_ctx = o.ctx_size,
                                                 .kv_types = kv_types_of(spec), .precision = o.precision,
                                                 .head_map_file = o.head_map});
    if (!setup) return report_error(o.json, setup.error());
    // The capture records the precision taken, not "the default" (replay repeats it).
    spec.precision = resolve_precision(o.precision, setup->model->params().architecture);
    size_t streamed = 0;
    auto run = run_on_model(setup.value(), spec, [&](const TokenEvent& e) {
        streamed += e.visible_text.size();
        if (!o.json) std::cout << e.visible_text << std::flush;
    });
    if (!run) return report_error(o.json, run.error());
    if (!o.metric.empty()) { // every position must have it: the metric was computed for the run
        const Metric m = parse_metric(o.metric).value_or(Metric::NormShare);
        const bool computed = !run->run.token_metrics.empty() ? run->run.token_metrics.front().get(m).has_value()
                                                              : (!run->run.prompt_metrics.empty() && run->run.prompt_metrics.front().get(m).has_value());
        if (!computed) {
            const char* why = m == Metric::Experts ? " (needs a mixture of experts calibrated with calibrate --experts)"
                              : m == Metric::Dla   ? " (needs --attribution dla)"
                              : m == Metric::Gates ? " (needs a model with its own router)"
                                                   : "";
            return report_error(o.json, "--metric " + o.metric + " was not computed for this run" + why, kExitUsage);
        }
        run->run.default_metric = m;
    }
    if (!o.save_capture.empty()) {
        auto capture = capture_of_run(setup.value(), spec, run.value());
        if (!capture) return report_error(o.json, capture.error());
        if (auto saved = save_capture(capture.value(), o.save_capture); !saved) return report_error(o.json, saved.error());
    }
    std::vector<LogitLens> lenses;
    if (o.logit_lens > 0) {
        auto computed = generated_token_lenses(setup.value(), spec, run.value(), o.logit_lens);
        if (!computed) return report_error(o.json, computed.error());
        lenses = std::move(computed.value());
    }
    if (!o.json) {
        std::cout << run->run.generation.text.substr(streamed) << '\n'; // text held back until the end
        if (o.logit_lens > 0) print_lenses(std::cout, lenses, *setup->tokenizer);
        return kExitOk;
    }
    const ModelParams& params = setup->model->params();
    nlohmann::json out = run_json(run->prompt, run->run,
                                  {*setup->tokenizer, setup->map(), *setup->backend, disabled.value(), o.ablation, o.record_attention,
                                   experts, params.n_layer, params.n_expert, o.disable_target});
    if (o.logit_lens > 0) out["logit_lens"] = lenses_json(lenses, *setup->tokenizer);
    print_json(out);
    return kExitOk;
}

} // namespace

void add_generate_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<GenerateOptions>();
    CLI::App* cmd = app.add_subcommand("generate", "Run a model on a prompt (greedy by default)");
    cmd->add_option("--model,-m", o->model, "GGUF model file (default: the built-in octet model); with --engine the server's model id");
    auto* prompt = cmd->add_option("--prompt,-p", o->prompt, "Prompt text (the user turn with --chat)");
    auto* file = cmd->add_option("--prompt-file", o->prompt_file, "Read the prompt from this file, byte for byte");
    prompt->excludes(file);
    cmd->add_option("--max-tokens,-n", o->max_tokens, "Tokens to generate at most")->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    cmd->add_option("--temperature", o->sampling.temperature, "0: greedy")->capture_default_str();
    cmd->add_option("--seed", o->sampling.seed, "Random seed for sampling")->capture_default_str();
    cmd->add_option("--top-k", o->sampling.top_k, "0: off")->capture_default_str();
    cmd->add_option("--top-p", o->sampling.top_p, "1: off")->capture_default_str();
    cmd->add_option("--repeat-penalty", o->sampling.repeat_penalty, "1: off")->capture_default_str();
    cmd->add_option("--frequency-penalty", o->sampling.frequency_penalty, "Lower a token's logit by this per occurrence in the last --repeat-last-n tokens (0: off)")
        ->check(CLI::Range(-2.0f, 2.0f))->capture_default_str();
    cmd->add_option("--presence-penalty", o->sampling.presence_penalty, "Lower a token's logit by this once if it occurs there (0: off)")
        ->check(CLI::Range(-2.0f, 2.0f))->capture_default_str();
    cmd->add_option("--repeat-last-n", o->sampling.repeat_last_n, "Tokens the penalties look back over")
        ->capture_default_str();
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)")->capture_default_str();
    cmd->add_option("--backend", o->backend, "auto (CUDA when usable, else the CPU), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd->add_option("--ctx-size,-c", o->ctx_size, "Context size in tokens (0: the model's, at most 4096)")
        ->capture_default_str();
    cmd->add_flag("--chat", o->chat, "Wrap the prompt in the model's chat template");
    cmd->add_option("--system", o->system, "System message for --chat");
    cmd->add_option("--reasoning-effort", o->reasoning_effort,
                    "With --chat on a gpt-oss (harmony) model: the system message's reasoning level")
        ->check(CLI::IsMember({"low", "medium", "high"}))
        ->capture_default_str();
    cmd->add_option("--stop", o->stops, "Stop when the text contains this (repeatable)");
    cmd->add_option("--grammar", o->grammar_file, "A GBNF grammar file every generated token must keep to "
                                                  "(llama.cpp's notation; its rule 'root' starts it)");
    cmd->add_option("--json-schema", o->schema_file,
                    "A JSON Schema file: the output is a JSON document it accepts (docs/structured-output.md lists the "
                    "supported keywords)")
        ->excludes("--grammar");
    cmd->add_flag("--ignore-eos", o->ignore_eos, "Do not stop at end-of-generation tokens");
    cmd->add_flag("--parse-special", o->parse_special, "Match control-token texts in a plain prompt");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->add_option("--disable", o->disable, "Ablate these subsystems, e.g. rte-c,rte-f");
    cmd->add_option("--ablation", o->ablation, "How disabled heads are replaced: zero or mean")
        ->check(CLI::IsMember({"zero", "mean"}))->capture_default_str();
    cmd->add_option("--disable-target", o->disable_target,
                    "What --disable switches off: heads (their attention output), or experts (those a calibrated expert "
                    "map gives each subsystem; mixtures of experts after calibrate --experts)")
        ->check(CLI::IsMember({"heads", "experts"}))->capture_default_str();
    cmd->add_option("--head-map", o->head_map, "Head → subsystem map file (JSON, docs/instrumentation.md)");
    cmd->add_option("--attribution", o->attribution, "Also compute direct logit attribution: dla")
        ->check(CLI::IsMember({"dla"}));
    cmd->add_flag("--record-attention", o->record_attention,
                  "Record attention weights per layer and head (per token in --json; no prefix reuse)");
    cmd->add_option("--disable-expert", o->disable_experts,
                    "Leave an expert out of the router's choice, LAYER:EXPERT or *:EXPERT for every layer (repeatable; "
                    "mixture-of-experts models)");
    cmd->add_flag("--record-router-probs", o->record_router_probs,
                  "Record every expert's router probability per layer (\"probs\" in --json's experts)");
    cmd->add_option("--metric", o->metric,
                    "The metric that fills \"subsystems\": norm_share, relative, dla, gates or experts (default: the model's)")
        ->check(CLI::IsMember({"norm_share", "relative", "dla", "gates", "experts"}));
    cmd->add_option("--save-capture", o->save_capture, "Also write the run to this .octo capture (docs/capture-format.md)");
    cmd->add_option("--logit-lens", o->logit_lens,
                    "After the run, each layer's top K next tokens at every position that chose a generated token, and the "
                    "chosen token's rank (\"logit_lens\" in --json; docs/instrumentation.md)")
        ->check(CLI::Range(int64_t{1}, int64_t{100}));
    add_precision_option(*cmd, o->precision);
    add_kv_type_options(*cmd, o->kv);
#ifdef OCTOSCOPE_HAVE_NET
    add_engine_options(*cmd, o->engine, o->api_key_env);
#endif
    cmd->callback([&run, o, prompt, file] {
        run = [o, prompt, file] {
            if (prompt->count() == 0 && file->count() == 0) {
                return report_error(o->json, "give --prompt or --prompt-file", kExitUsage);
            }
            if (!o->system.empty() && !o->chat) {
                return report_error(o->json, "--system needs --chat", kExitUsage);
            }
            return run_generate(*o);
        };
    });
}

} // namespace octo::cli
