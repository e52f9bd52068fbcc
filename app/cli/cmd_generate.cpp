// octoscope-cli generate: run a model on a prompt and report every generated token.
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/subsystem_list.h"
#include "app/cli/run_json.h"
#include "app/cli/run_setup.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"

namespace octo::cli {

namespace {

struct GenerateOptions {
    std::string model;
    std::string prompt;
    std::string prompt_file;
    int64_t max_tokens = 64;
    SamplerConfig sampling;
    int threads = 0;
    std::string backend = "auto";
    int64_t ctx_size = 0;
    bool chat = false;
    std::string system;
    std::vector<std::string> stops;
    bool ignore_eos = false;
    bool parse_special = false;
    bool json = false;
    std::vector<std::string> disable; // subsystem ids
    std::string ablation = "zero";
    std::string head_map;
    std::string attribution;
    bool record_attention = false;
};

int run_generate(const GenerateOptions& o) {
    auto disabled = parse_subsystem_list(o.disable, "--disable");
    if (!disabled) return report_error(o.json, disabled.error().message, kExitUsage);
    PromptSpec spec{o.prompt, o.chat, o.system, o.parse_special};
    if (!o.prompt_file.empty()) {
        auto bytes = read_file_bytes(o.prompt_file, "prompt file");
        if (!bytes) return report_error(o.json, bytes.error());
        spec.text = std::move(bytes.value());
    }
    auto setup = set_up_run(o.model, o.ctx_size, o.threads, o.head_map, o.backend);
    if (!setup) return report_error(o.json, setup.error());
    const Tokenizer& tok = *setup->loaded.tokenizer;
    auto prompt = build_prompt(setup->loaded.model->file(), tok, spec);
    if (!prompt) return report_error(o.json, prompt.error());

    InstrumentedRequest request;
    request.generate.prompt_ids = prompt->ids;
    request.generate.max_tokens = o.max_tokens;
    request.generate.sampling = o.sampling;
    request.generate.stop_strings = o.stops;
    request.generate.stop_at_eog = !o.ignore_eos;
    request.disabled = disabled.value();
    request.ablation_mode = o.ablation == "mean" ? AblationMode::Mean : AblationMode::Zero;
    request.dla = o.attribution == "dla";
    request.record_attention = o.record_attention;
    size_t streamed = 0;
    auto run = run_instrumented(*setup->loaded.model, *setup->backend, tok, setup->map, *setup->kv, request,
                                [&](const TokenEvent& e) {
                                    streamed += e.visible_text.size();
                                    if (!o.json) std::cout << e.visible_text << std::flush;
                                });
    if (!run) return report_error(o.json, run.error());
    const GenerateResult* result = &run->generation;

    if (!o.json) {
        std::cout << result->text.substr(streamed) << '\n'; // text held back until the end
        return kExitOk;
    }
    print_json(run_json(prompt.value(), run.value(),
                        {tok, setup->map, *setup->backend, disabled.value(), o.ablation, o.record_attention}));
    return kExitOk;
}

} // namespace

void add_generate_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<GenerateOptions>();
    CLI::App* cmd = app.add_subcommand("generate", "Run a model on a prompt (greedy by default)");
    cmd->add_option("--model,-m", o->model, "GGUF model file (default: the built-in octet model)");
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
    cmd->add_option("--repeat-last-n", o->sampling.repeat_last_n, "Tokens the penalty looks back over")
        ->capture_default_str();
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)")->capture_default_str();
    cmd->add_option("--backend", o->backend, "auto (CUDA when usable, else the CPU), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd->add_option("--ctx-size,-c", o->ctx_size, "Context size in tokens (0: the model's, at most 4096)")
        ->capture_default_str();
    cmd->add_flag("--chat", o->chat, "Wrap the prompt in the model's chat template");
    cmd->add_option("--system", o->system, "System message for --chat");
    cmd->add_option("--stop", o->stops, "Stop when the text contains this (repeatable)");
    cmd->add_flag("--ignore-eos", o->ignore_eos, "Do not stop at end-of-generation tokens");
    cmd->add_flag("--parse-special", o->parse_special, "Match control-token texts in a plain prompt");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->add_option("--disable", o->disable, "Ablate these subsystems, e.g. rte-c,rte-f");
    cmd->add_option("--ablation", o->ablation, "How disabled heads are replaced: zero or mean")
        ->check(CLI::IsMember({"zero", "mean"}))->capture_default_str();
    cmd->add_option("--head-map", o->head_map, "Head → subsystem map file (JSON, docs/instrumentation.md)");
    cmd->add_option("--attribution", o->attribution, "Also compute direct logit attribution: dla")
        ->check(CLI::IsMember({"dla"}));
    cmd->add_flag("--record-attention", o->record_attention,
                  "Record attention weights per layer and head (per token in --json; no prefix reuse)");
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
