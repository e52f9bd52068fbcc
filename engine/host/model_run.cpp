#include "engine/host/model_run.h"

namespace octo {

Result<ModelRun> run_on_model(OpenedModel& setup, const RunSpec& spec, const std::function<void(const TokenEvent&)>& on_token) {
    const Tokenizer& tok = *setup.tokenizer;
    auto prompt = build_prompt(setup.model->file(), tok, spec);
    if (!prompt) return prompt.error();
    InstrumentedCallbacks callbacks;
    if (on_token) callbacks.on_token = [&](const TokenEvent& e, const TokenMetrics&) { on_token(e); };
    const RunInputs inputs{.prompt_ids = prompt->ids, .expert_map = setup.expert_map()};
    auto run = run_instrumented(*setup.model, *setup.backend, tok, setup.map(), *setup.kv, spec, inputs, callbacks);
    if (!run) return run.error();
    return ModelRun{std::move(prompt.value()), std::move(run.value())};
}

Result<RunTrace> run_traced(OpenedModel& setup, const RunSpec& spec) {
    auto r = run_on_model(setup, spec);
    if (!r) return r.error();
    return trace_of_run(spec, r->prompt, *setup.tokenizer, r->run, setup.kv->pool().history());
}

} // namespace octo
