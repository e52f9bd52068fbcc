// octoscope-cli paths: where the binary looks for its resources.
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/common/resource_dir.h"

namespace octo::cli {

void add_paths_command(CLI::App& app, CommandRunner& run) {
    auto json = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("paths", "Show the resource folder the binaries use");
    cmd->add_flag("--json", *json, "Print one JSON object");
    cmd->callback([&run, json] {
        run = [json] {
            auto dir = resource_dir();
            if (!dir) return report_error(*json, dir.error());
            if (*json) {
                print_json({{"resources", valid_utf8(dir->string())}});
            } else {
                std::cout << "resources: " << dir->string() << '\n';
            }
            return static_cast<int>(kExitOk);
        };
    });
}

} // namespace octo::cli
