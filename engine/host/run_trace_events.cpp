#include "engine/host/run_trace_events.h"

namespace octo {

void record_event(RunTrace& trace, const host_event::PromptMeasured& event) {
    for (size_t i = 0; i < event.probes.size() && i < trace.n_prompt; ++i) {
        trace.tokens[i].probe = event.probes[i];
        if (i < event.metrics.size()) trace.tokens[i].metrics = event.metrics[i];
    }
}

size_t record_event(RunTrace& trace, const host_event::Token& event) {
    const TokenEvent& e = event.event;
    trace.tokens.push_back(TraceToken{e.id, e.bytes, true, event.logprobs_known ? std::optional(e.logprobs) : std::nullopt, e.ms,
                                      e.probe, event.metrics, e.visible_text, e.constraint});
    return trace.tokens.size() - 1;
}

void record_event(RunTrace& trace, const host_event::RunFinished& event) {
    trace.outcome = event.outcome;
    trace.default_metric = event.default_metric;
}

} // namespace octo
