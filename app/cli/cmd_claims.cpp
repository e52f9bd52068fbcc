// octoscope-cli claims: the article's testable claims measured on the model (the built-in octet
// by default) with 95 % intervals and a verdict each (engine/claims/, docs/claims.md). Progress
// goes to stderr; Ctrl+C stops after the running item and reports the claims that finished.
#include <iostream>
#include <memory>
#include <optional>

#include <unistd.h>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/interrupt_guard.h"
#include "app/common/builtin_model.h"
#include "app/common/resource_dir.h"
#include "engine/claims/claims_report.h"
#include "engine/host/claim_variant.h"
#ifdef OCTOSCOPE_HAVE_NET
#include "app/cli/remote_target.h"
#include "engine/remote/openai_runner.h"
#endif

namespace octo::cli {

namespace {

struct ClaimsOptions {
    std::string model;
    std::vector<std::string> claims;
    int64_t items = 0;
    uint64_t seed = 1;
    int resamples = 2000;
    std::string report;
    std::string claims_file;
    bool chinese = false;
    bool chat = false;
    bool list = false;
    int threads = 0;
    std::string backend = "auto";
    bool json = false;
    std::string engine;      // --engine: a remote OpenAI-compatible server (--model: its model id)
    std::string api_key_env;
    int concurrency = 4;
};

// --list: every claim of the catalog, measurable or not.
int list_claims(const ClaimCatalog& catalog, bool json) {
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const Claim& c : catalog.claims) {
            out.push_back({{"id", c.id}, {"section", c.section}, {"text", c.text.en},
                           {"protocol", c.measurable() ? nlohmann::json(c.protocol) : nlohmann::json()},
                           {"article_figure", c.article_figure}});
            if (!c.measurable()) out.back()["not_measurable_here"] = c.not_measurable_here.en;
        }
        print_json({{"claims", out}});
        return kExitOk;
    }
    for (const Claim& c : catalog.claims) {
        std::cout << c.id << "  (" << c.section << ")  " << c.text.en << (c.measurable() ? "" : "  [not measurable here]") << '\n';
    }
    return kExitOk;
}

// The report in words: the model, the map, then one line per claim.
void print_claims_report(const ClaimsReport& report) {
    std::cout << "model: " << report.model << "\nmap: " << report.map << " (metric " << report.metric << ")\n" << report.note.en << "\n\n";
    for (size_t i = 0; i < report.results.size(); ++i) {
        const Claim& c = report.claims[i];
        const ClaimResult& r = report.results[i];
        std::cout << c.id << ": article " << article_figure_text(c) << "; ";
        if (r.estimate) {
            std::cout << "measured " << format_claim_value(c.unit, r.estimate->value) << " [" << format_claim_value(c.unit, r.estimate->ci95.lo)
                      << ", " << format_claim_value(c.unit, r.estimate->ci95.hi) << "] n=" << r.estimate->n << " → " << verdict_line(c, r)
                      << (r.reason.empty() ? "" : " (" + r.reason + ")") << '\n';
        } else {
            std::cout << verdict_name(r.verdict) << ": " << r.reason << '\n';
        }
    }
}

// The model the claims are measured on: --engine's server, else --model's file (or octet).
struct ClaimSubjectModel {
    ClaimModel model;
    std::optional<OpenedModel> opened; // a local model, kept open for the lab
#ifdef OCTOSCOPE_HAVE_NET
    std::optional<remote::OpenAiRunner> server;
#endif
};

// Fills `out` (its address is kept by the lab); the exit code, said, when it cannot.
std::optional<int> open_claims_model(const ClaimsOptions& o, ClaimLabOptions& lo, ClaimSubjectModel& out) {
#ifdef OCTOSCOPE_HAVE_NET
    if (!o.engine.empty()) {
        auto c = connect_engine({o.engine, o.api_key_env, o.model});
        if (!c) return report_error(o.json, c.error().message, engine_error_exit_code(c.error()));
        out.server.emplace(std::move(c->client), std::move(c->model));
        out.server->set_claims_concurrency(o.concurrency);
        return std::nullopt;
    }
#endif
    auto local = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads});
    if (!local) return report_error(o.json, local.error());
    out.opened.emplace(std::move(local.value()));
    out.model = claim_model_of(*out.opened, *out.opened->backend, out.opened->info.name + " (" + valid_utf8(out.opened->info.path) + ")");
    lo.open_model = open_claim_variant;
    return std::nullopt;
}

int run_claims_command(const ClaimsOptions& o) {
    auto dir = resource_dir();
    if (!dir) return report_error(o.json, dir.error());
    auto catalog = read_claim_catalog(o.claims_file.empty() ? (dir.value() / "claims" / "claims.json").string() : o.claims_file);
    if (!catalog) return report_error(o.json, catalog.error());
    if (o.list) return list_claims(catalog.value(), o.json);
    std::vector<Claim> chosen;
    if (o.claims.empty()) {
        chosen = catalog->claims;
    } else {
        for (const std::string& id : o.claims) {
            const Claim* c = catalog->find(id);
            if (!c) return report_error(o.json, "unknown claim \"" + id + "\" (octoscope-cli claims --list names them)", kExitUsage);
            chosen.push_back(*c);
        }
    }
    auto data = load_claim_data(dir.value().string());
    if (!data) return report_error(o.json, data.error());
    InterruptGuard interrupt;
    ClaimLabOptions lo;
    lo.seed = o.seed;
    lo.items = o.items;
    lo.resamples = o.resamples;
    lo.chat = o.chat;
    lo.cancel = interrupt.flag();
    ClaimSubjectModel subject;
    if (auto failed = open_claims_model(o, lo, subject)) return *failed;
    size_t current = 0;
    std::string current_id;
    const bool tty = isatty(STDERR_FILENO) != 0; // a log file gets one line per claim, a terminal a live count
    lo.progress = [&](int64_t done, int64_t total) {
        if (tty && (done == total || done % 8 == 0)) {
            std::cerr << "\r[" << current + 1 << "/" << chosen.size() << "] " << current_id << ": " << done << " / " << total
                      << "        " << std::flush;
        }
    };
#ifdef OCTOSCOPE_HAVE_NET
    if (subject.server) subject.server->prepare_claims(subject.model, lo); // after lo.progress: the batches report through it
#endif
    ClaimLab lab(std::move(subject.model), std::move(data.value()), lo);
    ClaimRunCallbacks callbacks;
    callbacks.on_start = [&](size_t i, const Claim& c) {
        current = i;
        current_id = c.id;
        if (tty) std::cerr << "\r[" << i + 1 << "/" << chosen.size() << "] " << c.id << "…" << std::flush;
    };
    callbacks.on_done = [&](size_t i, const Claim& c, const ClaimResult& r) {
        std::cerr << (tty ? "\r" : "") << "[" << i + 1 << "/" << chosen.size() << "] " << c.id << ": " << verdict_name(r.verdict)
                  << (tty ? "                    \n" : "\n");
    };
    auto report = run_claims(lab, chosen, callbacks);
    if (!report) return report_error(o.json, report.error());
    report->version = OCTOSCOPE_VERSION;
    report->date = utc_date_today();
    if (!report->complete) std::cerr << "\nstopped: " << report->results.size() << " of " << chosen.size() << " claims finished\n";
    if (!o.report.empty()) {
        auto written = write_claims_report(o.report, report.value(), o.chinese);
        if (!written) return report_error(o.json, written.error());
        std::cerr << "report: " << written->size() << " files in " << o.report << '\n';
    }
    const int code = report->complete ? kExitOk : kExitInterrupted;
    if (o.json) {
        print_json(claims_json(report.value()));
    } else {
        print_claims_report(report.value());
    }
    return code;
}

} // namespace

void add_claims_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<ClaimsOptions>();
    CLI::App* cmd = app.add_subcommand("claims", "Measure the article's claims on the model, with 95 % intervals and a verdict each");
    cmd->add_option("--model,-m", o->model, "GGUF model (default: the built-in octet model); with --engine the server's model id");
    cmd->add_option("--claim", o->claims, "Run only these claims (repeatable; default: all)");
    cmd->add_option("--items", o->items, "Items per subsystem for every claim (0: each claim's own)")->check(CLI::Range(0, 10000));
    cmd->add_option("--seed", o->seed, "Seed of item selection and bootstrap")->capture_default_str();
    cmd->add_option("--resamples", o->resamples, "Bootstrap resamples")->check(CLI::Range(100, 100000))->capture_default_str();
    cmd->add_option("--report", o->report, "Write report.md and a CSV per series into this folder");
    cmd->add_flag("--chinese", o->chinese, "Write report.md in Chinese");
    cmd->add_option("--claims-file", o->claims_file, "Claims file (default: the resources' claims/claims.json)");
    cmd->add_flag("--chat", o->chat, "Wrap prompts in the model's chat template");
    cmd->add_flag("--list", o->list, "List the claims and exit");
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)");
    cmd->add_option("--backend", o->backend, "auto (CUDA when usable, else the CPU), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    cmd->add_flag("--json", o->json, "Print one JSON object");
#ifdef OCTOSCOPE_HAVE_NET
    add_engine_options(*cmd, o->engine, o->api_key_env, &o->concurrency);
#endif
    cmd->callback([&run, o] { run = [o] { return run_claims_command(*o); }; });
}

} // namespace octo::cli
