// octoscope-cli quant-report: the same prompts on two files of one model (another quantisation as
// B) and where the two part — first divergent step, KL per step with B fed A's answer, the
// subsystems whose share moved most (engine/evaluation/quant_report.h, docs/advisor.md "Across
// models"). Ctrl+C stops it between tokens (exit 130).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/interrupt_guard.h"
#include "app/cli/precision_option.h"
#include "app/common/builtin_model.h"
#include "engine/evaluation/quant_report.h"
#include "engine/host/model_beside.h"

namespace octo::cli {

namespace {

struct QuantReportCliOptions {
    std::string model;
    std::string model_b;
    std::vector<std::string> prompts;
    std::string prompts_file;
    int64_t max_tokens = 32;
    std::optional<Precision> precision;
    bool chat = false;
    std::string backend = "auto";
    int threads = 0;
    int64_t ctx_size = 0;
    bool json = false;
};

Result<std::vector<std::string>> gather_prompts(const QuantReportCliOptions& o) {
    std::vector<std::string> prompts = o.prompts;
    if (!o.prompts_file.empty()) {
        std::ifstream in(o.prompts_file, std::ios::binary);
        if (!in) return make_error(ErrorCode::Io, "cannot read the prompts file " + o.prompts_file);
        std::stringstream text;
        text << in.rdbuf();
        for (std::string& p : parse_prompt_lines(text.str())) prompts.push_back(std::move(p));
    }
    if (prompts.empty()) return make_error(ErrorCode::InvalidArgument, "give --prompt or a --prompts file with at least one prompt");
    return prompts;
}

void print_text(const QuantReport& r) {
    std::printf("A: %s\nB: %s\n", r.model_a.c_str(), r.model_b.c_str());
    for (size_t i = 0; i < r.items.size(); ++i) {
        const QuantReportItem& item = r.items[i];
        const std::string parted = item.first_token_divergence ? "part at step " + std::to_string(*item.first_token_divergence)
                                                               : std::string("same answer");
        std::printf("%zu. %-14s mean KL %.5f  max %.5f  top agree %5.1f %%  %s\n", i + 1, parted.c_str(), item.divergence.mean_kl,
                    item.divergence.max_kl, 100.0 * item.divergence.top_agreement, valid_utf8(item.prompt).c_str());
    }
    std::printf("%zu of %zu prompts answered the same; over %zu steps (B fed A's answer): mean KL %.5f, max %.5f", r.same_answers,
                r.items.size(), r.steps, r.mean_kl, r.max_kl);
    if (r.max_kl_item) std::printf(" (prompt %zu, step %lld)", *r.max_kl_item + 1, static_cast<long long>(r.max_kl_step));
    std::printf("; most probable tokens agree at %.1f %%\n", 100.0 * r.top_agreement);
    if (r.mean_share_delta) {
        std::printf("subsystems moved most (mean norm share, B - A):");
        for (size_t i = 0; i < r.groups_moved.size() && i < 3; ++i) {
            const int g = r.groups_moved[i];
            std::printf(" %s %+.4f", std::string(subsystem_id(g)).c_str(), (*r.mean_share_delta)[static_cast<size_t>(g)]);
        }
        std::printf("\n");
    }
}

int run_quant_report(const QuantReportCliOptions& o) {
    auto prompts = gather_prompts(o);
    if (!prompts) {
        return report_error(o.json, prompts.error().message, prompts.error().code == ErrorCode::Io ? kExitError : kExitUsage);
    }
    const OpenOptions open{.backend = o.backend, .threads = o.threads, .n_ctx = o.ctx_size, .precision = o.precision};
    auto a = open_model_or_builtin(o.model, open);
    if (!a) return report_error(o.json, a.error());
    auto b = open_beside(a.value(), o.model_b, o.precision);
    if (!b) return report_error(o.json, "--model-b: " + b.error().message);
    InterruptGuard interrupt;
    QuantReportOptions options{.max_tokens = o.max_tokens, .precision = o.precision, .chat = o.chat, .cancel = interrupt.flag()};
    if (!o.json) options.progress = [](size_t done, size_t total) { std::fprintf(stderr, "\rprompt %zu of %zu", done, total); };
    auto report = quant_report(report_model_of(*a, *a->backend), report_model_of(*b, *a->backend), prompts.value(), options);
    if (!o.json) std::fprintf(stderr, "\n");
    if (!report) {
        if (report.error().code == ErrorCode::Cancelled) {
            report_error(o.json, "interrupted");
            return kExitInterrupted;
        }
        return report_error(o.json, report.error());
    }
    if (o.json) print_json(quant_report_json(report.value()));
    else print_text(report.value());
    return kExitOk;
}

} // namespace

void add_quant_report_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<QuantReportCliOptions>();
    CLI::App* cmd = app.add_subcommand("quant-report",
                                       "Run the same prompts on two files of one model and report where they part (KL per step, "
                                       "first divergent step, subsystems moved)");
    cmd->add_option("--model,-m", o->model, "Model A, the GGUF file compared against (default: the built-in octet model)");
    cmd->add_option("--model-b", o->model_b, "Model B: another file of the same model (e.g. another quantisation)")->required();
    cmd->add_option("--prompt,-p", o->prompts, "A prompt (repeat for several)");
    cmd->add_option("--prompts", o->prompts_file,
                    "A text file of prompts, one a line (blank lines and lines starting with # left out; \\n is a line break)");
    cmd->add_option("--max-tokens,-n", o->max_tokens, "Tokens each model answers at most")->check(CLI::Range(1, 4096))->capture_default_str();
    add_precision_option(*cmd, o->precision, "--precision", " of both models");
    cmd->add_flag("--chat", o->chat, "Send each prompt through the model's chat template");
    cmd->add_option("--backend", o->backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--ctx-size,-c", o->ctx_size, "Context of both models (0: as memory allows)")->check(CLI::NonNegativeNumber);
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([&run, o] { run = [o] { return run_quant_report(*o); }; });
}

} // namespace octo::cli
