// octoscope-cli capture-info: what a .octo capture holds, without the model.
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/subsystem_list.h"
#include "engine/capture/capture_container.h"
#include "engine/capture/capture_io.h"
#include "engine/chat/chat_messages_json.h"

namespace octo::cli {

namespace {

nlohmann::json summary_json(const Capture& c, uint32_t version, uint64_t file_bytes, uint64_t payload_bytes) {
    const RunTrace& t = c.trace;
    const RunOutcome g = t.outcome.value_or(RunOutcome{}); // a decoded capture always has one
    bool attention = false;
    for (const auto& token : t.generated()) attention = attention || !token.probe.attention.empty();
    const auto& m = c.model;
    const RunSpec s = t.repeat_spec();
    return {
        {"format_version", version},
        {"file_bytes", file_bytes},
        {"payload_bytes", payload_bytes},
        {"model",
         {{"file_name", valid_utf8(m.file_name)}, {"path", valid_utf8(m.path)}, {"size", m.size},
          {"sha256", m.sha256}, {"name", valid_utf8(m.name)}, {"architecture", valid_utf8(m.architecture)},
          {"n_layer", m.n_layer}, {"n_head", m.n_head}}},
        {"engine", c.engine ? nlohmann::json{{"url", valid_utf8(c.engine->url)}, {"model", valid_utf8(c.engine->model)},
                                             {"fingerprint", valid_utf8(c.engine->fingerprint)}, {"octoscope", c.engine->octoscope}}
                            : nlohmann::json(nullptr)},
        {"app_version", valid_utf8(c.app_version)},
        {"backend", valid_utf8(c.backend)},
        {"device", valid_utf8(c.device)},
        {"settings",
         {{"prompt", valid_utf8(s.prompt)}, {"chat", s.chat}, {"messages", chat_messages_json(s.messages)}, {"max_tokens", s.max_tokens},
          {"temperature", s.sampling.temperature}, {"seed", s.sampling.seed}, {"top_k", s.sampling.top_k},
          {"top_p", s.sampling.top_p}, {"disabled", subsystem_list_json(s.disabled)},
          {"ablation", ablation_mode_name(s.ablation_mode)}, {"dla", s.dla}, {"record_attention", s.record_attention},
          // a remote run's precision is the server's own, not known here
          {"precision", c.engine ? nlohmann::json(nullptr) : nlohmann::json(precision_name(s.precision.value_or(Precision::Exact)))}}},
        {"head_map", c.head_map ? c.head_map->describe() : nlohmann::json(nullptr)},
        {"prompt_tokens", t.n_prompt},
        {"generated_tokens", t.n_generated()},
        {"text", valid_utf8(g.text)},
        {"stop_reason", stop_reason_name(g.stop_reason)},
        {"attention", attention},
        {"route", c.route ? nlohmann::json(subsystem_id(c.route->route)) : nlohmann::json(nullptr)},
        {"findings", c.findings.size()},
        {"notes", c.notes.size()},
    };
}

int run_capture_info(const std::string& path, bool json) {
    auto bytes = read_file_bytes(path, "capture");
    if (!bytes) return report_error(json, bytes.error());
    const std::span<const uint8_t> view(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
    auto capture = parse_capture(view, path);
    if (!capture) return report_error(json, capture.error());
    const nlohmann::json out =
        summary_json(capture.value(), capture_container_version(view), bytes->size(), capture_payload_bytes(view));
    if (json) {
        print_json(out);
        return kExitOk;
    }
    std::cout << path << ": " << out["generated_tokens"] << " tokens of " << out["model"]["file_name"].get<std::string>();
    if (out["model"]["n_layer"].get<int64_t>() > 0) {
        std::cout << " (" << out["model"]["n_layer"] << " layers x " << out["model"]["n_head"] << " heads)";
    }
    std::cout << ", " << out["file_bytes"] << " bytes (" << out["payload_bytes"] << " uncompressed), ";
    if (out["engine"].is_object()) {
        std::cout << "run on " << out["engine"]["url"].get<std::string>() << '\n';
    } else {
        std::cout << out["settings"]["precision"].get<std::string>() << " precision\n";
    }
    if (!out["settings"]["messages"].empty()) std::cout << "a conversation of " << out["settings"]["messages"].size() << " messages\n";
    return kExitOk;
}

} // namespace

void add_capture_info_command(CLI::App& app, CommandRunner& run) {
    auto path = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("capture-info", "Summarise a .octo capture (no model needed)");
    cmd->add_option("capture", *path, ".octo capture file")->required();
    cmd->add_flag("--json", *json, "Print one JSON object");
    cmd->callback([&run, path, json] { run = [path, json] { return run_capture_info(*path, *json); }; });
}

} // namespace octo::cli
