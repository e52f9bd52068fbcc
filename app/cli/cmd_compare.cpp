// octoscope-cli compare: run variant A and variant B of a prompt (another prompt, other disabled
// subsystems or ablation mode, other sampling or precision) with the same seed, and report where their
// generated tokens part and how their measurements differ (docs/advisor.md, "A/B comparison"), and
// whether B's answer is better or worse than A's by the advisor's checks (rewrite_verdict.h).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/kv_type_option.h"
#include "app/cli/precision_option.h"
#include "app/cli/run_json.h"
#include "app/cli/subsystem_list.h"
#include "app/common/builtin_model.h"
#include "app/common/resource_dir.h"
#include "engine/advisor/rewrite_verdict.h"
#include "engine/advisor/run_comparison.h"
#include "engine/evaluation/model_divergence.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"
#include "engine/tokenizer/tokenizer.h"
#ifdef OCTOSCOPE_HAVE_NET
#include <map>

#include "app/cli/remote_generate.h"
#include "engine/remote/remote_batch.h"
#endif

namespace octo::cli {

namespace {

struct CompareOptions {
    std::string model;
    std::string model_b; // B runs on this model file instead (two files of one model: a quantisation report)
    // Variant A as a run: prompt, temperature, seed and precision are set on it directly; its
    // subsystems and ablation mode are parsed from disable_a and ablation_a (spec_a).
    RunSpec a;
    std::vector<std::string> disable_a;
    std::string ablation_a = "zero";
    std::optional<std::string> prompt_b;
    std::optional<std::vector<std::string>> disable_b;
    std::optional<std::string> ablation_b;
    std::optional<float> temperature_b;
    std::optional<uint64_t> seed_b;
    std::optional<Precision> precision_b = std::nullopt;
    int64_t max_tokens = 64;
    int threads = 0;
    std::string backend = "auto";
    int64_t ctx_size = 0;
    std::string head_map;
    KvTypeOptions kv; // the model's KV pool, which both variants share
    bool json = false;
    std::string engine;      // --engine: a remote OpenAI-compatible server (--model: its model id)
    std::string api_key_env;
};

// B's answer against A's by the advisor's checks; null when the rule file cannot be loaded.
nlohmann::json verdict_json(const std::string& prompt_a, const std::string& answer_a, const std::string& prompt_b,
                            const std::string& answer_b) {
    auto dir = resource_dir();
    if (!dir) return nullptr;
    auto rules = AdvisorRules::load_default(dir.value().string());
    if (!rules) return nullptr;
    const RewriteVerdict v = judge_rewrite(rules.value(), prompt_a, answer_a, prompt_b, answer_b);
    nlohmann::json worse = nlohmann::json::array(), better = nlohmann::json::array();
    for (const LocalText& r : v.worse) worse.push_back(r.en);
    for (const LocalText& r : v.better) better.push_back(r.en);
    return {{"kind", verdict_kind_name(v.kind)}, {"summary", v.summary.en}, {"worse", worse}, {"better", better}};
}

std::string verdict_line(const nlohmann::json& verdict) {
    return verdict.is_object() ? "verdict: " + verdict["summary"].get<std::string>() + "\n" : std::string();
}

AblationMode ablation_mode(const std::string& name) { return name == "mean" ? AblationMode::Mean : AblationMode::Zero; }

// A as a run (UsageError naming --disable for an unknown subsystem).
Result<RunSpec> spec_a(const CompareOptions& o) {
    auto disabled = parse_subsystem_list(o.disable_a, "--disable");
    if (!disabled) return disabled.error();
    RunSpec a = o.a;
    a.max_tokens = o.max_tokens;
    a.record_attention = false; // not reported: prefix reuse stays on
    a.disabled = disabled.value();
    a.ablation_mode = ablation_mode(o.ablation_a);
    return a;
}

// B is A with the options given for B.
Result<RunSpec> spec_b(const CompareOptions& o, const RunSpec& a) {
    RunSpec b = a;
    if (o.prompt_b) b.prompt = *o.prompt_b;
    if (o.disable_b) {
        std::vector<std::string> ids;
        for (const std::string& id : *o.disable_b) {
            if (!id.empty()) ids.push_back(id);
        }
        auto disabled = parse_subsystem_list(ids, "--disable-b");
        if (!disabled) return disabled.error();
        b.disabled = disabled.value();
    }
    if (o.ablation_b) b.ablation_mode = ablation_mode(*o.ablation_b);
    if (o.temperature_b) b.sampling.temperature = *o.temperature_b;
    if (o.seed_b) b.sampling.seed = *o.seed_b;
    if (o.precision_b) b.precision = o.precision_b;
    return b;
}

struct VariantRun {
    BuiltPrompt prompt;
    InstrumentedResult result;
};

Result<VariantRun> run_variant(OpenedModel& setup, const RunSpec& spec) {
    auto prompt = build_prompt(setup.model->file(), *setup.tokenizer, spec);
    if (!prompt) return prompt.error();
    const RunInputs inputs{.prompt_ids = prompt->ids, .expert_map = setup.expert_map()};
    auto run = run_instrumented(*setup.model, *setup.backend, *setup.tokenizer, setup.map(), *setup.kv, spec, inputs);
    if (!run) return run.error();
    return VariantRun{std::move(prompt.value()), std::move(run.value())};
}

nlohmann::json optional_json(const std::optional<SubsystemValues>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json comparison_json(const RunComparison& c, int64_t n_head) {
    nlohmann::json largest = nullptr;
    if (c.largest_head_change && n_head > 0) {
        largest = {{"layer", static_cast<int64_t>(*c.largest_head_change) / n_head},
                   {"head", static_cast<int64_t>(*c.largest_head_change) % n_head},
                   {"delta", c.head_delta[*c.largest_head_change]}};
    }
    return {{"logprob_delta", c.logprob_delta},
            {"mean_logprob_a", c.mean_logprob_a},
            {"mean_logprob_b", c.mean_logprob_b},
            {"mean_subsystems_a", optional_json(c.mean_shares_a)},
            {"mean_subsystems_b", optional_json(c.mean_shares_b)},
            {"subsystems_delta", optional_json(c.share_delta)},
            {"head_norm_delta", c.head_delta},
            {"largest_head_change", largest},
            {"expert_overlap", c.mean_expert_overlap ? nlohmann::json(c.expert_overlap) : nlohmann::json(nullptr)},
            {"mean_expert_overlap", c.mean_expert_overlap ? nlohmann::json(*c.mean_expert_overlap) : nlohmann::json(nullptr)}};
}

#ifdef OCTOSCOPE_HAVE_NET
// A run on a server as compared: token ids (a server that sends none: each distinct token text
// gets one number, the same in both runs), log-probabilities where sent, and from an Octoscope
// server the shares of its default metric and the head norms.
ComparedRun compared_remote_run(const remote::RemoteResult& r, TokenTextIds& text_ids) {
    ComparedRun out;
    bool all_logprobs = true;
    for (const remote::RemoteToken& t : r.tokens) {
        out.ids.push_back(t.id ? *t.id : text_ids.of(t.text));
        all_logprobs = all_logprobs && t.logprob.has_value();
        if (all_logprobs) out.logprobs.push_back(*t.logprob);
        const nlohmann::json& ext = t.octoscope;
        if (ext.is_object() && ext.contains("subsystems") && ext["subsystems"].is_array() && ext["subsystems"].size() == kSubsystemCount) {
            out.shares.push_back(ext["subsystems"].get<SubsystemValues>());
        }
        if (ext.is_object() && ext.contains("heads") && ext["heads"].is_array()) out.head_norms.push_back(ext["heads"].get<std::vector<float>>());
    }
    if (!all_logprobs) out.logprobs.clear();
    if (out.shares.size() != out.ids.size()) out.shares.clear();
    if (out.head_norms.size() != out.ids.size()) out.head_norms.clear();
    return out;
}

// --engine: both variants on the server at once; the same report as a local comparison.
int run_compare_remote(const CompareOptions& o, const RunSpec& a, const RunSpec& b) {
    if (o.a.precision || o.precision_b || o.backend != "auto" || o.threads != 0 || o.ctx_size != 0 || !o.head_map.empty() ||
        o.kv.keys() || o.kv.values()) {
        return report_error(o.json, "--engine runs on a server: --precision, --precision-b, --backend, --threads, --ctx-size, "
                                    "--head-map and --kv-type need a local model", kExitUsage);
    }
    auto connected = connect_engine({o.engine, o.api_key_env, o.model});
    if (!connected) return report_error(o.json, connected.error().message, engine_error_exit_code(connected.error()));
    for (const RunSpec* spec : {&a, &b}) {
        if (auto ok = check_remote_spec(connected.value(), *spec, ""); !ok) return report_error(o.json, ok.error().message, kExitUsage);
    }
    const std::vector<remote::RemoteRequest> requests = {remote_request(connected.value(), a, "", true),
                                                         remote_request(connected.value(), b, "", true)};
    auto runs = remote::complete_all(connected->client, requests, {.concurrency = 2, .cancel = nullptr, .progress = {}});
    if (!runs) return report_error(o.json, runs.error());
    for (const auto& r : runs.value()) {
        if (!r) return report_error(o.json, r.error());
    }
    const remote::RemoteResult& ra = runs->at(0).value();
    const remote::RemoteResult& rb = runs->at(1).value();
    TokenTextIds text_ids;
    const RunComparison c = compare_runs(compared_remote_run(ra, text_ids), compared_remote_run(rb, text_ids));
    const nlohmann::json divergence = c.first_divergence ? nlohmann::json(*c.first_divergence) : nlohmann::json(nullptr);
    const nlohmann::json verdict = verdict_json(a.prompt, ra.text, b.prompt, rb.text);
    if (!o.json) {
        std::cout << "A: " << valid_utf8(ra.text) << "\nB: " << valid_utf8(rb.text) << "\nfirst divergence: " << divergence.dump()
                  << '\n' << verdict_line(verdict);
        return kExitOk;
    }
    const nlohmann::json& d = connected->model.describe;
    const int64_t n_head = d.is_object() && d.value("n_head", nlohmann::json()).is_number_integer() ? d["n_head"].get<int64_t>() : 0;
    nlohmann::json comparison = comparison_json(c, n_head);
    if (c.logprob_delta.empty() && !(ra.tokens.empty() || rb.tokens.empty())) comparison["logprob_delta"] = nullptr; // none sent
    print_json({{"a", remote_run_json(connected.value(), requests[0], ra)},
                {"b", remote_run_json(connected.value(), requests[1], rb)},
                {"first_divergence", divergence},
                {"comparison", comparison},
                {"verdict", verdict}});
    return kExitOk;
}
#endif

// The run's token ids replaced by the numbers of their texts (runs of two vocabularies aligned by
// what their tokens say).
void align_by_text(ComparedRun& run, const Tokenizer& tokenizer, TokenTextIds& texts) {
    for (int32_t& id : run.ids) id = texts.of(tokenizer.token_bytes(id));
}

// The subsystems by how far their mean share moved (b - a), largest first.
nlohmann::json groups_moved_json(const std::optional<SubsystemValues>& delta) {
    nlohmann::json out = nlohmann::json::array();
    if (!delta) return out;
    std::vector<int> order(kSubsystemCount);
    for (int s = 0; s < kSubsystemCount; ++s) order[static_cast<size_t>(s)] = s;
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
        return std::abs((*delta)[static_cast<size_t>(x)]) > std::abs((*delta)[static_cast<size_t>(y)]);
    });
    for (const int s : order) out.push_back({{"subsystem", std::string(subsystem_id(s))}, {"delta", (*delta)[static_cast<size_t>(s)]}});
    return out;
}

nlohmann::json divergence_json(const ModelDivergence& d) {
    nlohmann::json kl = nlohmann::json::array(), agree = nlohmann::json::array();
    for (const StepDivergence& s : d.steps) {
        kl.push_back(s.kl);
        agree.push_back(s.top_a == s.top_b);
    }
    return {{"kl", kl},
            {"top_agrees", agree},
            {"mean_kl", d.mean_kl},
            {"max_kl", d.max_kl},
            {"max_kl_step", d.max_kl_step < 0 ? nlohmann::json(nullptr) : nlohmann::json(d.max_kl_step)},
            {"top_agreement", d.top_agreement},
            {"first_top_disagreement", d.first_top_disagreement ? nlohmann::json(*d.first_top_disagreement) : nlohmann::json(nullptr)}};
}

// compare without --json: both answers, where they part, the verdict, and across models the KL
// divergence, the routing overlap and the subsystems that moved most.
struct CompareText {
    const std::string& model_a;
    const std::string& model_b;
    bool two_models;
    const std::string& answer_a;
    const std::string& answer_b;
    const nlohmann::json& first;
    const nlohmann::json& verdict;
    const std::optional<ModelDivergence>& divergence;
    const RunComparison& comparison;
    const nlohmann::json& moved;
};

void print_compare_text(const CompareText& t) {
    const std::string on_a = t.two_models ? " (" + t.model_a + ")" : "", on_b = t.two_models ? " (" + t.model_b + ")" : "";
    std::cout << "A" << on_a << ": " << valid_utf8(t.answer_a) << "\nB" << on_b << ": " << valid_utf8(t.answer_b)
              << "\nfirst divergence: " << t.first.dump() << '\n' << verdict_line(t.verdict);
    if (t.divergence) {
        std::cout << "KL(A || B) per step, B fed A's tokens: mean " << t.divergence->mean_kl << ", max " << t.divergence->max_kl
                  << " at step " << t.divergence->max_kl_step << "; most probable tokens agree at " << 100.0 * t.divergence->top_agreement
                  << " % of " << t.divergence->steps.size() << " steps\n";
    } else if (t.two_models) {
        std::cout << "the vocabularies differ: tokens aligned by text, no KL divergence\n";
    }
    if (t.comparison.mean_expert_overlap) {
        std::cout << "expert routing where the context is the same (the prompt, the answers until they part): "
                  << 100.0 * *t.comparison.mean_expert_overlap << " % of the chosen experts the same\n";
    }
    if (t.two_models && !t.moved.empty()) {
        std::cout << "subsystems moved most (norm share, B - A):";
        for (size_t i = 0; i < t.moved.size() && i < 3; ++i) {
            std::cout << ' ' << t.moved[i]["subsystem"].get<std::string>() << ' ' << t.moved[i]["delta"].get<double>();
        }
        std::cout << '\n';
    }
}

int run_compare(const CompareOptions& o) {
    auto spec_of_a = spec_a(o);
    auto spec_of_b = spec_of_a ? spec_b(o, spec_of_a.value()) : spec_of_a;
#ifdef OCTOSCOPE_HAVE_NET
    if (!o.engine.empty() && !o.model_b.empty()) {
        return report_error(o.json, "--model-b compares two model files here: it cannot be used with --engine", kExitUsage);
    }
    if (!o.engine.empty()) {
        if (!spec_of_b) return report_error(o.json, spec_of_b.error().message, kExitUsage);
        return run_compare_remote(o, spec_of_a.value(), spec_of_b.value());
    }
#endif
    auto setup = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads, .n_ctx = o.ctx_size,
                                                 .kv_types = o.kv.choice(), .precision = o.a.precision,
                                                 .head_map_file = o.head_map});
    if (!setup) return report_error(o.json, setup.error());
    if (!spec_of_b) return report_error(o.json, spec_of_b.error());
    const RunSpec& a_spec = spec_of_a.value();
    const RunSpec& b_spec = spec_of_b.value();
    // --model-b: B on another file, both open at once.
    std::optional<OpenedModel> other;
    if (!o.model_b.empty()) {
        auto opened = open_model_or_builtin(o.model_b, {.backend = o.backend, .threads = o.threads, .n_ctx = o.ctx_size,
                                                        .kv_types = o.kv.choice(), .precision = o.a.precision});
        if (!opened) {
            const Error& e = opened.error();
            return report_error(o.json, e.code == ErrorCode::OutOfMemory
                                            ? "--model-b " + o.model_b + " does not fit in memory beside --model (both are open at once): " + e.message
                                            : "--model-b: " + e.message);
        }
        other = std::move(opened.value());
    }
    OpenedModel& setup_a = setup.value();
    OpenedModel& setup_b = other ? *other : setup_a;
    auto a = run_variant(setup_a, a_spec);
    if (!a) return report_error(o.json, a.error());
    auto b = run_variant(setup_b, b_spec);
    if (!b) return report_error(o.json, b.error());

    const Tokenizer& ta = *setup_a.tokenizer;
    const Tokenizer& tb = *setup_b.tokenizer;
    // Two models: shares of one metric both have (norm share: head norms are always measured).
    const auto routed = [](const OpenedModel& m) { return m.info.n_expert > 0 ? m.info.n_layer : int64_t{0}; }; // experts compared
    ComparedRun ca = compared_run(a->result.generation, a->result.token_metrics, other ? Metric::NormShare : a->result.default_metric,
                                  routed(setup_a));
    ComparedRun cb = compared_run(b->result.generation, b->result.token_metrics, other ? Metric::NormShare : b->result.default_metric,
                                  routed(setup_b));
    const bool same_vocab = !other || same_vocabulary(ta, tb);
    if (!same_vocab) {
        TokenTextIds texts;
        align_by_text(ca, ta, texts);
        align_by_text(cb, tb, texts);
    }
    const RunComparison c = compare_runs(ca, cb);
    // With one vocabulary, both models fed A's tokens: the KL divergence per step.
    std::optional<ModelDivergence> divergence;
    if (other && same_vocab) {
        std::vector<int32_t> generated;
        for (const TokenEvent& e : a->result.generation.tokens) generated.push_back(e.id);
        auto d = model_divergence(*setup_a.model, *setup_a.backend, *setup_b.model, *setup_b.backend, a->prompt.ids, generated,
                                  a_spec.precision);
        if (!d) return report_error(o.json, d.error());
        divergence = std::move(d.value());
    }
    const nlohmann::json first = c.first_divergence ? nlohmann::json(*c.first_divergence) : nlohmann::json(nullptr);
    const nlohmann::json verdict =
        verdict_json(a_spec.prompt, a->result.generation.text, b_spec.prompt, b->result.generation.text);
    const nlohmann::json moved = other ? groups_moved_json(c.share_delta) : nlohmann::json();
    if (!o.json) {
        print_compare_text({o.model, o.model_b, other.has_value(), a->result.generation.text, b->result.generation.text, first, verdict,
                            divergence, c, moved});
        return kExitOk;
    }
    const auto ablation = [](const RunSpec& s) { return ablation_mode_name(s.ablation_mode); };
    const int64_t n_head = setup_a.map().n_head() == setup_b.map().n_head() ? setup_a.map().n_head() : 0;
    nlohmann::json out = {{"a", run_json(a->prompt, a->result, {ta, setup_a.map(), *setup_a.backend, a_spec.disabled, ablation(a_spec), false})},
                          {"b", run_json(b->prompt, b->result, {tb, setup_b.map(), *setup_b.backend, b_spec.disabled, ablation(b_spec), false})},
                          {"first_divergence", first},
                          {"comparison", comparison_json(c, n_head)},
                          {"verdict", verdict}};
    if (other) {
        out["model_a"] = setup_a.info.path;
        out["model_b"] = setup_b.info.path;
        out["same_vocabulary"] = same_vocab;
        out["divergence"] = divergence ? divergence_json(*divergence) : nlohmann::json(nullptr);
        out["groups_moved"] = moved;
    }
    print_json(out);
    return kExitOk;
}

} // namespace

void add_compare_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<CompareOptions>();
    CLI::App* cmd = app.add_subcommand("compare", "Run two variants of a prompt with the same seed and compare them");
    cmd->add_option("--model,-m", o->model, "GGUF model file (default: the built-in octet model); with --engine the server's model id");
    cmd->add_option("--prompt,-p", o->a.prompt, "Prompt of variant A (and of B unless --prompt-b)")->required();
    cmd->add_option("--disable", o->disable_a, "Ablate these subsystems in A (and B unless --disable-b)");
    cmd->add_option("--ablation", o->ablation_a, "zero or mean, for A (and B unless --ablation-b)")
        ->check(CLI::IsMember({"zero", "mean"}))->capture_default_str();
    cmd->add_option("--temperature", o->a.sampling.temperature, "0: greedy (A, and B unless --temperature-b)")
        ->capture_default_str();
    cmd->add_option("--seed", o->a.sampling.seed, "Sampling seed of both variants unless --seed-b")->capture_default_str();
    cmd->add_option("--model-b", o->model_b,
                    "Run B on this GGUF file instead (e.g. another quantisation of the model): adds the KL divergence "
                    "per step of B fed A's tokens and the subsystems that moved most");
    cmd->add_option("--prompt-b", o->prompt_b, "Prompt of variant B");
    cmd->add_option("--disable-b", o->disable_b, "Subsystems ablated in B (\"\" for none)");
    cmd->add_option("--ablation-b", o->ablation_b, "zero or mean, for B")->check(CLI::IsMember({"zero", "mean"}));
    cmd->add_option("--temperature-b", o->temperature_b, "Temperature of B");
    cmd->add_option("--seed-b", o->seed_b, "Sampling seed of B");
    add_precision_option(*cmd, o->a.precision, "--precision", " of A (and B unless --precision-b)");
    add_precision_option(*cmd, o->precision_b, "--precision-b", " of B", "A's");
    cmd->add_option("--max-tokens,-n", o->max_tokens, "Tokens to generate at most, each")
        ->check(CLI::Range(0, 1 << 20))->capture_default_str();
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)")->capture_default_str();
    cmd->add_option("--backend", o->backend, "auto (CUDA when usable, else the CPU), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd->add_option("--ctx-size,-c", o->ctx_size, "Context size in tokens (0: the model's, at most 4096)")
        ->capture_default_str();
    cmd->add_option("--head-map", o->head_map, "Head → subsystem map file (JSON)");
    add_kv_type_options(*cmd, o->kv);
    cmd->add_flag("--json", o->json, "Print one JSON object");
#ifdef OCTOSCOPE_HAVE_NET
    add_engine_options(*cmd, o->engine, o->api_key_env);
#endif
    cmd->callback([&run, o] { run = [o] { return run_compare(*o); }; });
}

} // namespace octo::cli
