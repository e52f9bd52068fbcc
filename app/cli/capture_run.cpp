#include "app/cli/capture_run.h"

#include "engine/backend/cpu/cpu_features.h"
#include "engine/capture/capture_identity.h"
#include "engine/generation/run_spec.h"

namespace octo::cli {

Result<SettingsRun> run_settings(OpenedModel& setup, const RunSpec& settings,
                                 const std::function<void(const TokenEvent&)>& on_token) {
    const Tokenizer& tok = *setup.tokenizer;
    auto prompt = build_prompt(setup.model->file(), tok, settings);
    if (!prompt) return prompt.error();
    InstrumentedCallbacks callbacks;
    if (on_token) callbacks.on_token = [&](const TokenEvent& e, const TokenMetrics&) { on_token(e); };
    const RunInputs inputs{.prompt_ids = prompt->ids, .expert_map = setup.expert_map()};
    auto run = run_instrumented(*setup.model, *setup.backend, tok, setup.map(), *setup.kv, settings, inputs, callbacks);
    if (!run) return run.error();
    return SettingsRun{std::move(prompt.value()), std::move(run.value())};
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
