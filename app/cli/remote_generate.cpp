#include "app/cli/remote_generate.h"

#include <algorithm>
#include <iostream>

#include "app/cli/cli_output.h"
#include "app/cli/subsystem_list.h"
#include "engine/capture/capture_io.h"
#include "engine/core/json_fields.h"
#include "engine/remote/openai_runner.h"
#include "engine/remote/remote_client.h"
#include "engine/remote/remote_trace.h"

namespace octo::cli {

namespace {

using nlohmann::json;

json token_json(const remote::RemoteToken& t) {
    json top = json::array();
    for (const remote::RemoteAlternative& a : t.top) top.push_back({{"piece", valid_utf8(a.text)}, {"logprob", a.logprob}});
    json out = {{"piece", valid_utf8(t.text)}, {"logprob", t.logprob ? json(*t.logprob) : json(nullptr)}, {"top", top},
                {"arrival_ms", t.arrival_ms}};
    if (t.id) out["id"] = *t.id;
    if (t.octoscope.is_object()) {
        out["subsystems"] = json_member(t.octoscope, "subsystems");
        out["metrics"] = json_member(t.octoscope, "metrics").is_object() ? json_member(t.octoscope, "metrics") : json::object();
    }
    return out;
}

} // namespace

Status check_remote_spec(const ConnectedEngine& engine, const RunSpec& spec, const std::string& metric) {
    return remote::check_spec_for_server(spec, engine.model, metric, engine.describe());
}

remote::RemoteRequest remote_request(const ConnectedEngine& engine, const RunSpec& spec, const std::string& metric, bool heads) {
    return remote::request_for_spec(spec, engine.model, metric, heads);
}

json remote_run_json(const ConnectedEngine& engine, const remote::RemoteRequest& request, const remote::RemoteResult& result) {
    json tokens = json::array();
    for (const remote::RemoteToken& t : result.tokens) tokens.push_back(token_json(t));
    const double decode_s = (result.total_ms - result.ttft_ms) / 1000.0;
    json out = {{"engine", engine.describe()},
                {"model", result.model.empty() ? request.model : result.model},
                {"fingerprint", result.fingerprint},
                {"octoscope_server", engine.model.octoscope},
                {"text", valid_utf8(result.text)},
                {"tokens", tokens},
                {"finish_reason", result.finish_reason},
                {"timing",
                 {{"ttft_ms", result.ttft_ms},
                  {"total_ms", result.total_ms},
                  {"tokens_per_s", decode_s > 0 && result.tokens.size() > 1
                                       ? static_cast<double>(result.tokens.size() - 1) / decode_s
                                       : 0.0}}},
                {"retries", result.retries}};
    if (result.usage) {
        out["usage"] = {{"prompt_tokens", result.usage->prompt_tokens}, {"completion_tokens", result.usage->completion_tokens}};
    }
    if (engine.model.octoscope) {
        // The server's extension as it came (null where it sent none or not an object).
        for (const char* key : {"stop_reason", "metric", "ablation", "kv"}) out[key] = json_member(result.octoscope, key);
        if (const json& p = json_member(result.octoscope, "prompt"); p.is_object()) {
            out["prompt_ids"] = json_member(p, "ids").is_null() ? json::array() : json_member(p, "ids");
            out["prompt_subsystems"] = json_member(p, "subsystems").is_null() ? json::array() : json_member(p, "subsystems");
        }
    }
    return out;
}

Capture capture_of_remote_run(const ConnectedEngine& engine, const RunSpec& spec, const remote::RemoteResult& result) {
    Capture c;
    static_cast<CaptureContext&>(c) = remote::remote_capture_context(remote::remote_model_info(engine.client, engine.model),
                                                                     result.fingerprint, OCTOSCOPE_VERSION);
    if (!result.model.empty()) c.engine->model = result.model; // as the server named it in the answer
    c.trace = remote::trace_of_remote_run(spec, result);
    return c;
}

int run_remote_generate(const RemoteTarget& target, const RunSpec& spec, const std::string& metric, bool json_out,
                        const std::string& save_capture_path) {
    auto connected = connect_engine(target);
    if (!connected) return report_error(json_out, connected.error().message, engine_error_exit_code(connected.error()));
    if (auto ok = check_remote_spec(connected.value(), spec, metric); !ok) return report_error(json_out, ok.error().message, kExitUsage);
    const remote::RemoteRequest r = remote_request(connected.value(), spec, metric, !save_capture_path.empty());
    auto result = connected->client.complete(r, [&](const remote::RemoteToken& t) {
        if (!json_out) std::cout << t.text << std::flush;
    });
    if (!result) return report_error(json_out, result.error());
    if (!save_capture_path.empty()) {
        if (auto saved = save_capture(capture_of_remote_run(connected.value(), spec, result.value()), save_capture_path); !saved) {
            return report_error(json_out, saved.error());
        }
    }
    if (!json_out) {
        std::cout << '\n';
        return kExitOk;
    }
    print_json(remote_run_json(connected.value(), r, result.value()));
    return kExitOk;
}

} // namespace octo::cli
