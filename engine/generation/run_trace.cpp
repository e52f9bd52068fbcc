#include "engine/generation/run_trace.h"

#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

std::vector<int32_t> RunTrace::prompt_ids() const {
    std::vector<int32_t> ids;
    for (const TraceToken& t : prompt()) ids.push_back(t.id);
    return ids;
}

std::vector<int32_t> RunTrace::generated_ids() const {
    std::vector<int32_t> ids;
    for (const TraceToken& t : generated()) ids.push_back(t.id);
    return ids;
}

std::string RunTrace::generated_bytes() const {
    std::string bytes;
    for (const TraceToken& t : generated()) bytes += t.bytes;
    return bytes;
}

RunSpec RunTrace::repeat_spec() const {
    RunSpec s = spec;
    s.precision = precision;
    if (kv_types) {
        s.kv_type_k = kv_types->k;
        s.kv_type_v = kv_types->v;
    }
    return s;
}

RunTrace start_trace(const RunSpec& spec, Precision precision, KvTypes kv_types, const BuiltPrompt& prompt,
                     const Tokenizer& tokenizer) {
    RunTrace t;
    t.spec = spec;
    t.precision = precision;
    t.kv_types = kv_types;
    t.prompt_text = prompt.text;
    for (int32_t id : prompt.ids) t.tokens.push_back(TraceToken{.id = id, .bytes = tokenizer.token_bytes(id)});
    t.n_prompt = prompt.ids.size();
    return t;
}

RunOutcome outcome_of(const InstrumentedResult& run, const std::deque<KvPoolSample>& kv_history) {
    const GenerateResult& g = run.generation;
    RunOutcome o;
    o.stop_reason = g.stop_reason;
    o.text = g.text;
    o.prefill_ms = g.prefill_ms;
    o.decode_ms = g.decode_ms;
    o.n_decoded = g.n_decoded;
    o.reused_tokens = g.reused_tokens;
    o.evaluated_tokens = g.evaluated_tokens;
    o.kv = run.kv;
    o.kv_history.assign(kv_history.begin(), kv_history.end());
    o.kv_blocks = run.kv_blocks;
    return o;
}

RunTrace trace_of_run(const RunSpec& spec, const BuiltPrompt& prompt, const Tokenizer& tokenizer,
                      const InstrumentedResult& run, const std::deque<KvPoolSample>& kv_history) {
    RunTrace t = start_trace(spec, run.precision, run.kv_types, prompt, tokenizer);
    const GenerateResult& g = run.generation;
    for (size_t i = 0; i < t.n_prompt; ++i) {
        if (i < g.prompt_probes.size()) t.tokens[i].probe = g.prompt_probes[i];
        if (i < run.prompt_metrics.size()) t.tokens[i].metrics = run.prompt_metrics[i];
    }
    for (size_t i = 0; i < g.tokens.size(); ++i) {
        const TokenEvent& e = g.tokens[i];
        t.tokens.push_back(TraceToken{e.id, e.bytes, true, e.logprobs, e.ms, e.probe,
                                      i < run.token_metrics.size() ? run.token_metrics[i] : TokenMetrics{},
                                      e.visible_text, e.constraint});
    }
    t.default_metric = run.default_metric;
    t.outcome = outcome_of(run, kv_history);
    return t;
}

} // namespace octo
