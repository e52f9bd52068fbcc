// Each octoscope-cli subcommand registers its options on the parser and, when chosen,
// sets `run` to the action that main() executes after parsing.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace octo::cli {

using CommandRunner = std::function<int()>;

void add_info_command(CLI::App& app, CommandRunner& run);
void add_tokenize_command(CLI::App& app, CommandRunner& run);
void add_paths_command(CLI::App& app, CommandRunner& run);
void add_generate_command(CLI::App& app, CommandRunner& run);
void add_devices_command(CLI::App& app, CommandRunner& run);
void add_bench_command(CLI::App& app, CommandRunner& run);
void add_eval_command(CLI::App& app, CommandRunner& run);
void add_route_command(CLI::App& app, CommandRunner& run);
void add_eval_router_command(CLI::App& app, CommandRunner& run);
void add_calibrate_command(CLI::App& app, CommandRunner& run);
void add_compare_command(CLI::App& app, CommandRunner& run);
void add_quant_report_command(CLI::App& app, CommandRunner& run);
void add_advise_command(CLI::App& app, CommandRunner& run);
void add_replay_command(CLI::App& app, CommandRunner& run);
void add_capture_info_command(CLI::App& app, CommandRunner& run);
void add_claims_command(CLI::App& app, CommandRunner& run);
void add_chat_command(CLI::App& app, CommandRunner& run);
void add_coherence_command(CLI::App& app, CommandRunner& run);
void add_serve_command(CLI::App& app, CommandRunner& run); // builds with OCTOSCOPE_HAVE_NET

} // namespace octo::cli
