// octoscope-cli generate: run a model on a prompt and report every generated token.
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/generation/generator.h"
#include "engine/generation/prompt_builder.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"

namespace octo::cli {

namespace {

struct GenerateOptions {
    std::string model;
    std::string prompt;
    std::string prompt_file;
    int64_t max_tokens = 64;
    SamplerConfig sampling;
    int threads = 0;
    int64_t ctx_size = 0;
    bool chat = false;
    std::string system;
    std::vector<std::string> stops;
    bool ignore_eos = false;
    bool parse_special = false;
    bool json = false;
};

nlohmann::json token_json(const Tokenizer& tok, const TokenEvent& e) {
    nlohmann::json top = nlohmann::json::array();
    for (const auto& alt : e.logprobs.top) {
        top.push_back({{"id", alt.id}, {"piece", valid_utf8(tok.token_bytes(alt.id))}, {"logprob", alt.logprob}});
    }
    return {{"id", e.id},       {"piece", valid_utf8(e.bytes)}, {"piece_bytes", hex_bytes(e.bytes)},
            {"logprob", e.logprobs.logprob}, {"top", top}, {"ms", e.ms}};
}

int run_generate(const GenerateOptions& o) {
    PromptSpec spec{o.prompt, o.chat, o.system, o.parse_special};
    if (!o.prompt_file.empty()) {
        auto bytes = read_file_bytes(o.prompt_file, "prompt file");
        if (!bytes) return report_error(o.json, bytes.error());
        spec.text = std::move(bytes.value());
    }
    LoadOptions load;
    load.n_ctx = o.ctx_size;
    auto model = Model::load(o.model, load);
    if (!model) return report_error(o.json, model.error());
    auto vocab = vocab_from_gguf(model.value()->file());
    if (!vocab) return report_error(o.json, o.model + ": " + vocab.error().message);
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    if (!tokenizer) return report_error(o.json, o.model + ": " + tokenizer.error().message);
    const Tokenizer& tok = tokenizer.value();

    auto prompt = build_prompt(model.value()->file(), tok, spec);
    if (!prompt) return report_error(o.json, prompt.error());

    CpuBackendOptions backend_options;
    backend_options.n_threads = o.threads;
    auto backend = CpuBackend::create(backend_options);
    if (!backend) return report_error(o.json, backend.error());
    auto session = Session::create(*model.value(), *backend.value());
    if (!session) return report_error(o.json, session.error());

    GenerateRequest request;
    request.prompt_ids = prompt->ids;
    request.max_tokens = o.max_tokens;
    request.sampling = o.sampling;
    request.stop_strings = o.stops;
    request.stop_at_eog = !o.ignore_eos;
    size_t streamed = 0;
    auto result = generate(*session.value(), tok, request, [&](const TokenEvent& e) {
        streamed += e.visible_text.size();
        if (!o.json) std::cout << e.visible_text << std::flush;
    });
    if (!result) return report_error(o.json, result.error());

    if (!o.json) {
        std::cout << result->text.substr(streamed) << '\n'; // text held back until the end
        return kExitOk;
    }
    nlohmann::json prompt_pieces = nlohmann::json::array();
    std::vector<int32_t> generated_ids;
    nlohmann::json tokens = nlohmann::json::array();
    for (const auto& e : result->tokens) {
        generated_ids.push_back(e.id);
        tokens.push_back(token_json(tok, e));
    }
    const double decode_s = result->decode_ms / 1000.0;
    print_json({
        {"prompt_ids", prompt->ids},
        {"prompt_text", valid_utf8(prompt->text)},
        {"generated_ids", generated_ids},
        {"text", valid_utf8(result->text)},
        {"tokens", tokens},
        {"stop_reason", stop_reason_name(result->stop_reason)},
        {"backend", backend.value()->name()},
        {"threads", backend.value()->n_threads()},
        {"timing",
         {{"prefill_ms", result->prefill_ms},
          {"decode_ms", result->decode_ms},
          {"tokens_per_s", decode_s > 0 ? static_cast<double>(result->n_decoded) / decode_s : 0.0}}},
    });
    return kExitOk;
}

} // namespace

void add_generate_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<GenerateOptions>();
    CLI::App* cmd = app.add_subcommand("generate", "Run a model on a prompt (greedy by default)");
    cmd->add_option("--model,-m", o->model, "GGUF model file")->required();
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
    cmd->add_option("--ctx-size,-c", o->ctx_size, "Context size in tokens (0: the model's, at most 4096)")
        ->capture_default_str();
    cmd->add_flag("--chat", o->chat, "Wrap the prompt in the model's chat template");
    cmd->add_option("--system", o->system, "System message for --chat");
    cmd->add_option("--stop", o->stops, "Stop when the text contains this (repeatable)");
    cmd->add_flag("--ignore-eos", o->ignore_eos, "Do not stop at end-of-generation tokens");
    cmd->add_flag("--parse-special", o->parse_special, "Match control-token texts in a plain prompt");
    cmd->add_flag("--json", o->json, "Print one JSON object");
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
