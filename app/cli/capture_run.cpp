#include "app/cli/capture_run.h"

#include "engine/backend/cpu/cpu_features.h"
#include "engine/capture/capture_identity.h"
#include "engine/generation/run_spec.h"

namespace octo::cli {

Result<Capture> capture_of_run(const OpenedModel& setup, const RunSpec& spec, const ModelRun& run) {
    auto identity = capture_model_identity(*setup.model);
    if (!identity) return identity.error();
    Capture c;
    c.model = std::move(identity.value());
    c.app_version = OCTOSCOPE_VERSION;
    c.backend = setup.backend->name();
    c.device = cpu_model_name();
    c.head_map = setup.map();
    c.trace = trace_of_run(spec, run.prompt, *setup.tokenizer, run.run, setup.kv->pool().history());
    return c;
}

} // namespace octo::cli
