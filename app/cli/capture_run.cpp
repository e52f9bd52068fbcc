#include "app/cli/capture_run.h"

#include "engine/backend/cpu/cpu_features.h"
#include "engine/capture/capture_identity.h"
#include "engine/generation/run_spec.h"

namespace octo::cli {

Result<SettingsRun> run_settings(OpenedModel& setup, const RunSpec& settings,
                                 const std::function<void(const TokenEvent&)>& on_token) {
    return run_on_model(setup, settings, on_token);
}

Result<Capture> capture_of_run(const OpenedModel& setup, const RunSpec& settings, const SettingsRun& run) {
    auto identity = capture_model_identity(*setup.model);
    if (!identity) return identity.error();
    Capture c;
    c.model = std::move(identity.value());
    c.app_version = OCTOSCOPE_VERSION;
    c.backend = setup.backend->name();
    c.device = cpu_model_name();
    c.head_map = setup.map();
    c.trace = trace_of_run(settings, run.prompt, *setup.tokenizer, run.run, setup.kv->pool().history());
    return c;
}

} // namespace octo::cli
