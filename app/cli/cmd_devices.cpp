// octoscope-cli devices: the compute backends this machine offers, and why CUDA is not
// usable when it is not.
#include <iostream>
#include <memory>
#include <thread>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "engine/backend/cpu/cpu_features.h"
#include "engine/backend/cuda/cuda_module.h"

namespace octo::cli {

namespace {

int run_devices(bool json) {
    const CudaProbe cuda = probe_cuda();
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : cuda.devices) {
        devices.push_back({{"name", valid_utf8(d.name)},
                           {"compute_capability", std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)},
                           {"total_memory", d.total_memory},
                           {"free_memory", d.free_memory}});
    }
    nlohmann::json out = {
        {"cpu",
         {{"model", valid_utf8(cpu_model_name())},
          {"threads", std::thread::hardware_concurrency()},
          {"kernel_path", std::string(cpu_path_name(best_cpu_path()))}}},
        {"cuda",
         {{"available", cuda.available},
          {"module", valid_utf8(cuda.module_path)},
          {"reason", cuda.available ? nlohmann::json(nullptr) : nlohmann::json(valid_utf8(cuda.reason))},
          {"devices", devices}}},
    };
    if (json) {
        print_json(out);
        return kExitOk;
    }
    std::cout << "cpu: " << out["cpu"]["model"].get<std::string>() << ", " << out["cpu"]["threads"] << " threads, "
              << out["cpu"]["kernel_path"].get<std::string>() << " kernels\n";
    if (!cuda.available) std::cout << "cuda: unavailable: " << cuda.reason << '\n';
    for (const auto& d : cuda.devices) {
        std::cout << "cuda: " << d.name << " (compute " << d.compute_major << '.' << d.compute_minor << ", "
                  << d.total_memory / (1024 * 1024) << " MiB)\n";
    }
    return kExitOk;
}

} // namespace

void add_devices_command(CLI::App& app, CommandRunner& run) {
    auto json = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("devices", "List the CPU and CUDA devices the engine can use");
    cmd->add_flag("--json", *json, "Print one JSON object");
    cmd->callback([&run, json] { run = [json] { return run_devices(*json); }; });
}

} // namespace octo::cli
