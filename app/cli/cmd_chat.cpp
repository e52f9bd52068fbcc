// octoscope-cli chat --conversation FILE.json: a conversation in OpenAI's messages format, run
// turn by turn (engine/conversation/conversation_run.h): the assistant turns the file holds are
// evaluated as given, a missing last assistant turn is generated; every message gets its lens,
// every step its KV reuse, and the conversation its coherence findings (docs/coherence.md).
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "app/cli/capture_run.h"
#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/kv_type_option.h"
#include "app/cli/precision_option.h"
#include "app/common/builtin_model.h"
#include "app/common/resource_dir.h"
#include "engine/capture/capture_io.h"
#include "engine/chat/chat_messages_json.h"
#include "engine/conversation/coherence.h"
#include "engine/conversation/conversation_run.h"
#include "engine/core/utf8_text.h"
#include "engine/generation/prompt_builder.h"
#include "engine/host/model_run.h"
#ifdef OCTOSCOPE_HAVE_NET
#include "app/cli/remote_generate.h" // --engine
#include "app/cli/remote_target.h"
#endif

namespace octo::cli {

namespace {

struct ChatOptions {
    std::string conversation;
    std::string model;
    int64_t max_tokens = 128;
    SamplerConfig sampling;
    int threads = 0;
    std::string backend = "auto";
    int64_t ctx_size = 0;
    std::string head_map;
    std::string save_capture; // the last step (the whole conversation) as a .octo capture
    std::string engine;      // a remote OpenAI-compatible server: only the missing last turn runs there
    std::string api_key_env;
    std::string metric; // which metric the lens shows (empty: the model's default)
    std::optional<Precision> precision = std::nullopt;
    KvTypeOptions kv;
    bool json = false;
};

// Each subsystem's mean value over [first, end) of the trace's tokens, and the top one.
nlohmann::json lens_json(const RunTrace& trace, size_t first, size_t end, Metric metric) {
    nlohmann::json tokens = nlohmann::json::array();
    for (size_t i = first; i < end; ++i) {
        const TraceToken& t = trace.tokens[i];
        nlohmann::json token = {{"text", utf8_with_escaped_bytes(t.bytes)}, {"generated", t.generated}};
        if (const auto& values = t.metrics.get(metric)) token["subsystems"] = *values;
        tokens.push_back(std::move(token));
    }
    const TurnLens lens = turn_lens(first, end, metric, [&](size_t i) -> const TokenMetrics& { return trace.tokens[i].metrics; });
    nlohmann::json mean = nlohmann::json::object();
    for (int s = 0; s < kSubsystemCount && lens.measured > 0; ++s) mean[std::string(subsystem_id(s))] = lens.mean[static_cast<size_t>(s)];
    const int top = lens.top();
    return {{"metric", metric_name(metric)}, {"tokens", tokens}, {"measured_tokens", lens.measured}, {"mean", mean},
            {"top", top >= 0 ? nlohmann::json(std::string(subsystem_id(top))) : nlohmann::json()}};
}

nlohmann::json step_json(const ConversationStep& s) {
    nlohmann::json j = {{"message", s.message}, {"generated", s.generated}, {"prompt_tokens", s.trace.n_prompt}};
    if (const auto& o = s.trace.outcome) {
        j["reused_tokens"] = o->reused_tokens;
        j["evaluated_tokens"] = o->evaluated_tokens;
        j["prefill_ms"] = o->prefill_ms;
        j["decode_ms"] = o->decode_ms;
        j["kv"] = {{"block_size", o->kv.block_size}, {"blocks_used", o->kv.blocks_used}, {"blocks_cached", o->kv.blocks_cached},
                   {"blocks_total", o->kv.blocks_total}};
    }
    return j;
}

// What ran the conversation: a local model or a server.
struct ChatRun {
    ConversationRun run;
    std::string model;     // the architecture, or the server's model id
    std::string rendering; // how the conversation reached the model
    bool whole = true;     // every turn reached it (not only the last user message)
    nlohmann::json engine; // the server (null: local)
};

Result<ChatRun> run_locally(const ChatOptions& o, const std::vector<ChatMessage>& messages, RunSpec base) {
    auto setup = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads, .n_ctx = o.ctx_size,
                                                 .kv_types = kv_types_of(base), .precision = o.precision,
                                                 .head_map_file = o.head_map});
    if (!setup) return setup.error();
    base.precision = resolve_precision(o.precision, setup->model->params().architecture);
    std::optional<std::pair<RunSpec, ModelRun>> last_run; // the last step, whose spec holds the whole conversation
    auto run = run_conversation(messages, base, [&](const RunSpec& spec) -> Result<RunTrace> {
        auto r = run_on_model(setup.value(), spec);
        if (!r) return r.error();
        RunTrace trace = trace_of_run(spec, r->prompt, *setup->tokenizer, r->run, setup->kv->pool().history());
        last_run.emplace(spec, std::move(r.value()));
        return trace;
    });
    if (!run) return run.error();
    if (!o.save_capture.empty()) { // the whole conversation as one capture: replay repeats its last step
        auto capture = capture_of_run(setup.value(), last_run->first, last_run->second);
        if (!capture) return capture.error();
        if (auto saved = save_capture(capture.value(), o.save_capture); !saved) return saved.error();
    }
    const ConversationRendering rendering = conversation_rendering(setup->model->file());
    return ChatRun{std::move(run.value()), setup->model->params().architecture, rendering.label(), rendering.whole(), nullptr};
}

#ifdef OCTOSCOPE_HAVE_NET
// --engine: only the missing last turn runs, on the server; the text measures need no run.
Result<ChatRun> run_remotely(const ChatOptions& o, const std::vector<ChatMessage>& messages, const RunSpec& base) {
    auto connected = connect_engine({o.engine, o.api_key_env, o.model});
    if (!connected) return connected.error();
    auto run = run_conversation(messages, base, [&](const RunSpec& spec) -> Result<RunTrace> {
        auto result = connected->client.complete(remote_request(connected.value(), spec, o.metric), {});
        if (!result) return result.error();
        return capture_of_remote_run(connected.value(), spec, result.value()).trace;
    }, {.evaluate_given = false});
    if (!run) return run.error();
    return ChatRun{std::move(run.value()), connected->model.id, "by the server", true, connected->describe()};
}
#endif

int run_chat(const ChatOptions& o) {
    auto messages = read_conversation_file(o.conversation);
    if (!messages) return report_error(o.json, messages.error());
    auto dir = resource_dir();
    if (!dir) return report_error(o.json, dir.error());
    auto lexicon = read_default_sentiment_lexicon(dir->string());
    if (!lexicon) return report_error(o.json, lexicon.error());
    RunSpec base;
    base.max_tokens = o.max_tokens;
    base.sampling = o.sampling;
    base.n_ctx = o.ctx_size;
    base.threads = o.threads;
    base.kv_type_k = o.kv.keys();
    base.kv_type_v = o.kv.values();
    base.record_attention = false; // attention recording turns prefix reuse off
    Result<ChatRun> chat = make_error(ErrorCode::InvalidArgument, "no run");
#ifdef OCTOSCOPE_HAVE_NET
    if (!o.engine.empty()) {
        if (!o.head_map.empty() || o.precision || base.kv_type_k || base.kv_type_v || !o.metric.empty() || !o.save_capture.empty()) {
            return report_error(o.json, "--engine runs on a server: --head-map, --precision, --kv-type, --metric and --save-capture need a local model",
                                kExitUsage);
        }
        chat = run_remotely(o, messages.value(), base);
        if (!chat) return report_error(o.json, chat.error().message, engine_error_exit_code(chat.error()));
    } else {
        chat = run_locally(o, messages.value(), base);
    }
#else
    chat = run_locally(o, messages.value(), base);
#endif
    if (!chat) return report_error(o.json, chat.error());
    const ConversationRun& run = chat->run;
    const RunTrace* last = run.last();
    const Metric metric = !o.metric.empty() ? parse_metric(o.metric).value_or(Metric::NormShare)
                          : last                ? last->default_metric
                                                : Metric::NormShare;
    auto lens = [&](const ConversationTurn& t) -> nlohmann::json {
        if (!last || t.end_token <= t.first_token) return nullptr;
        return lens_json(*last, t.first_token, t.end_token, metric);
    };
    const bool generated = !run.steps.empty() && run.steps.back().generated;
    const CoherenceReport coherence = measure_coherence(run.messages, lexicon.value());
    if (o.json) {
        nlohmann::json turns = nlohmann::json::array();
        for (const ConversationTurn& t : run.turns) {
            const ChatMessage& m = run.messages[t.message];
            turns.push_back({{"message", t.message}, {"role", chat_role_name(m.role)}, {"content", valid_utf8(m.content)},
                             {"generated", generated && t.message + 1 == run.messages.size()},
                             {"located", t.content_begin.has_value() || t.end_token > t.first_token},
                             {"lens", lens(t)}});
        }
        nlohmann::json steps = nlohmann::json::array();
        for (const ConversationStep& s : run.steps) steps.push_back(step_json(s));
        print_json({{"model", chat->model},
                    {"engine", chat->engine},
                    {"rendering", chat->rendering},
                    {"whole_conversation", chat->whole},
                    {"prompt_text", last ? nlohmann::json(valid_utf8(last->prompt_text)) : nlohmann::json()},
                    {"messages", chat_messages_json(run.messages)},
                    {"turns", turns},
                    {"steps", steps},
                    {"coherence", coherence_json(coherence, run.messages)}});
        return kExitOk;
    }
    if (!chat->whole) {
        std::cerr << "note: this model has no chat template; only the last user message reached it (" << chat->rendering
                  << "), so the other turns have no lens\n";
    }
    for (const ConversationTurn& t : run.turns) {
        const ChatMessage& m = run.messages[t.message];
        std::cout << "[" << t.message + 1 << " " << chat_role_name(m.role) << "] " << m.content << "\n";
        const nlohmann::json l = lens(t);
        if (!l.is_null() && !l["top"].is_null()) {
            std::cout << "    lens (" << metric_name(metric) << ", " << l["measured_tokens"].get<size_t>() << " tokens): top "
                      << l["top"].get<std::string>() << "\n";
        }
    }
    for (const ConversationStep& s : run.steps) {
        if (!s.trace.outcome) continue;
        std::printf("step for message %zu%s: %zu prompt tokens, %lld reused, %lld evaluated, prefill %.1f ms\n", s.message + 1,
                    s.generated ? " (generated)" : "", s.trace.n_prompt, static_cast<long long>(s.trace.outcome->reused_tokens),
                    static_cast<long long>(s.trace.outcome->evaluated_tokens), s.trace.outcome->prefill_ms);
    }
    std::cout << "coherence: " << coherence.findings.size() << " finding(s)\n";
    for (const CoherenceFinding& f : coherence.findings) {
        std::cout << "  " << coherence_kind_name(f.kind) << ": " << f.explanation << "\n    try: " << f.suggestion_en << "\n";
    }
    return kExitOk;
}

} // namespace

void add_chat_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<ChatOptions>();
    CLI::App* cmd = app.add_subcommand("chat", "Run a conversation turn by turn, with the lens on every turn and its coherence");
    cmd->add_option("--conversation", o->conversation,
                    "Conversation file: OpenAI messages, {\"messages\": [...]} or the bare array; assistant turns in it are "
                    "evaluated as given, a missing last one is generated")
        ->required();
    cmd->add_option("--model,-m", o->model, "GGUF model file (default: the built-in octet model); with --engine the server's model id");
    cmd->add_option("--max-tokens,-n", o->max_tokens, "Tokens of the generated turn at most")->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    cmd->add_option("--temperature", o->sampling.temperature, "0: greedy")->capture_default_str();
    cmd->add_option("--seed", o->sampling.seed, "Random seed for sampling")->capture_default_str();
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)")->capture_default_str();
    cmd->add_option("--backend", o->backend, "auto (CUDA when usable, else the CPU), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd->add_option("--ctx-size,-c", o->ctx_size, "Context size in tokens (0: the model's)")->capture_default_str();
    cmd->add_option("--head-map", o->head_map, "Head → subsystem map file (JSON, docs/instrumentation.md)");
    cmd->add_option("--metric", o->metric, "The metric of the lens: norm_share, relative, gates or experts (default: the model's)")
        ->check(CLI::IsMember({"norm_share", "relative", "gates", "experts"}));
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->add_option("--save-capture", o->save_capture,
                    "Also write the last step — the whole conversation and the reply — to this .octo capture (replay repeats it)");
    add_precision_option(*cmd, o->precision);
    add_kv_type_options(*cmd, o->kv);
#ifdef OCTOSCOPE_HAVE_NET
    add_engine_options(*cmd, o->engine, o->api_key_env);
#endif
    cmd->callback([&run, o] { run = [o] { return run_chat(*o); }; });
}

} // namespace octo::cli
