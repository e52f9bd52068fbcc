// octoscope-cli: the headless entry point. Subcommands live in cmd_*.cpp.
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"

namespace {

bool wants_json(int argc, char** argv) {
    for (int k = 1; k < argc; ++k) {
        if (std::strcmp(argv[k], "--json") == 0) return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    using namespace octo::cli;
    const bool json = wants_json(argc, argv);
    // Engine logs (e.g. why CUDA is not used) go to stderr: stdout carries the JSON.
    spdlog::set_default_logger(spdlog::stderr_logger_mt("octoscope"));
    try {
        CLI::App app{"Octoscope command-line interface: inspect GGUF models and run them headless"};
        app.require_subcommand(1);
        app.set_version_flag("--version", "octoscope-cli " OCTOSCOPE_VERSION);
        CommandRunner run;
        add_info_command(app, run);
        add_tokenize_command(app, run);
        add_paths_command(app, run);
        add_generate_command(app, run);
        add_devices_command(app, run);
        add_bench_command(app, run);
        add_eval_command(app, run);
        add_route_command(app, run);
        add_eval_router_command(app, run);
        add_calibrate_command(app, run);
        add_advise_command(app, run);
        add_compare_command(app, run);
        add_quant_report_command(app, run);
        add_replay_command(app, run);
        add_capture_info_command(app, run);
        add_claims_command(app, run);
        add_chat_command(app, run);
        add_coherence_command(app, run);
#ifdef OCTOSCOPE_HAVE_NET
        add_serve_command(app, run);
#endif
        try {
            app.parse(argc, argv);
        } catch (const CLI::CallForHelp& e) {
            return app.exit(e);
        } catch (const CLI::CallForAllHelp& e) {
            return app.exit(e);
        } catch (const CLI::CallForVersion& e) {
            return app.exit(e);
        } catch (const CLI::ParseError& e) {
            return report_error(json, e.what(), kExitUsage);
        }
        return run();
    } catch (const std::bad_alloc&) {
        return report_error(json, "out of memory");
    } catch (const std::exception& e) {
        return report_error(json, std::string("internal error: ") + e.what());
    }
}
