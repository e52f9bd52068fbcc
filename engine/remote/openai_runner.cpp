#include "engine/remote/openai_runner.h"

#include "engine/core/json_fields.h"
#include "engine/remote/remote_trace.h"

namespace octo::remote {

using nlohmann::json;

namespace {

// The server's head map when its description carries one (serve::served_head_map): its groups
// are then named as the server names them. Nothing when it carries none or one that does not
// fit the model's shape (then the views say "group N", as for any map without meaning).
std::optional<HeadMap> served_map(const json& d, int64_t n_layer, int64_t n_head) {
    const json& map = json_member(d, "head_map");
    if (!map.is_object() || !map.contains("layers") || n_layer <= 0 || n_head <= 0) return std::nullopt;
    const std::string source = json_string_or(map, "source", "default");
    HeadMapSource kind = HeadMapSource::Default;
    for (HeadMapSource s : {HeadMapSource::File, HeadMapSource::Gguf, HeadMapSource::Calibrated}) {
        if (source == head_map_source_name(s)) kind = s;
    }
    const std::string path = json_string_or(map, "path");
    auto parsed = HeadMap::from_json(json{{"version", json_member(map, "version")}, {"layers", map["layers"]}}, n_layer, n_head, kind, path);
    if (!parsed) return std::nullopt;
    return std::move(parsed.value());
}

} // namespace

ModelInfo remote_model_info(const RemoteClient& client, const RemoteModel& model) {
    ModelInfo info;
    const json& d = model.describe.is_object() ? model.describe : json::object();
        info.path = client.endpoint().describe();
    info.name = json_string_or(d, "name", model.id);
    info.architecture = json_string_or(d, "architecture");
    info.n_layer = json_integer_or(d, "n_layer", 0);
    info.n_head = json_integer_or(d, "n_head", 0);
    info.n_expert = json_integer_or(d, "n_expert", 0);
    info.has_router = json_bool_or(d, "has_router", false);
    info.backend = json_member(d, "backend").is_string() ? json_string_or(d, "backend") + " on " + info.path : "the server " + info.path;
    info.default_precision = Precision::Exact; // the server's own; runs name none
    info.engine = CaptureEngine{info.path, model.id, "", model.octoscope};
    info.head_map = served_map(d, info.n_layer, info.n_head);
    return info;
}

CaptureContext remote_capture_context(const ModelInfo& server, const std::string& fingerprint, const std::string& app_version) {
    CaptureContext c;
    c.model = server; // what the server told (remote_model_info)
    c.model.file_name = server.engine ? server.engine->model : server.name;
    c.model.path.clear(); // no file here: the server is `device`
    c.engine = server.engine;
    if (c.engine) c.engine->fingerprint = fingerprint;
    c.app_version = app_version;
    c.backend = server.backend;
    c.device = server.path;
    return c;
}

OpenAiRunner::OpenAiRunner(RemoteClient client, RemoteModel model)
    : client_(std::move(client)), model_(std::move(model)), info_(remote_model_info(client_, model_)) {}

void OpenAiRunner::prepare_claims(ClaimModel& model, ClaimLabOptions& options) {
    const json& map = json_member(model_.describe, "head_map");
    model.name = model_.id + " on " + info_.path;
    model.server = ClaimServer{info_.path, model_.octoscope, json_string_or(map, "source", "default")};
    answerer_ = RemoteAnswerer{&client_, model_.id, model_.octoscope, {.concurrency = claims_concurrency_, .cancel = options.cancel, .progress = {}}};
    const auto progress = options.progress;
    answerer_.batch.progress = [progress](size_t done, size_t total) {
        if (progress) progress(static_cast<int64_t>(done), static_cast<int64_t>(total));
    };
    use_remote_answers(options, answerer_);
}

Result<RunOutcome> OpenAiRunner::run(const RunSpec& spec, const Callbacks& callbacks, const std::atomic<bool>* cancel) {
    if (auto ok = check_spec_for_server(spec, model_, "", info_.path); !ok) return ok.error();
    RunTrace start;
    start.spec = spec;
    start.default_metric = info_.default_metric;
    bool started = false;
    const auto begin = [&](const json& extension) {
        if (started) return;
        started = true;
        start.tokens = prompt_tokens(extension);
        start.n_prompt = start.tokens.size();
        for (const TraceToken& t : start.tokens) start.prompt_text += t.bytes;
        if (auto m = parse_metric(json_string_or(extension, "metric")); m) {
            start.default_metric = *m;
        }
        if (callbacks.started) callbacks.started(start);
    };
    double previous_ms = 0.0;
    auto result = client_.complete(
        request_for_spec(spec, model_, "", model_.octoscope),
        [&](const RemoteToken& token) {
            begin(json::object());
            if (callbacks.token) callbacks.token(trace_token(token, previous_ms));
            previous_ms = token.arrival_ms;
        },
        cancel, [&](const json& extension) { begin(extension); },
        [&](const RetryNotice& n) {
            if (callbacks.waiting) callbacks.waiting(n.reason, n.retry, n.max_retries, n.wait_s);
        });
    if (!result) return result.error();
    begin(json::object()); // an answer without tokens
    return outcome_of_remote_run(spec, result.value());
}

} // namespace octo::remote
