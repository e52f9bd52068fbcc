// One run as it was computed: the spec it was asked with and the precision it took, the prompt
// and every generated token with its probe and metrics, and how it ended (stop reason, timing,
// the KV pool as it left it). Everything that keeps or shows a run holds this one struct:
// the engine host's events build it (engine/host/run_trace_events.h), a CLI run makes it from
// its result (trace_of_run), a capture stores it (engine/capture/capture.h) and the workbench's
// RunRecord wraps it. Nothing copies a run field by field into another struct.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/backend/precision.h"
#include "engine/generation/run_spec.h"
#include "engine/generation/token_event.h"
#include "engine/generation/token_metrics.h"
#include "engine/kv/kv_pool_stats.h"
#include "engine/kv/kv_types.h"

namespace octo {

struct BuiltPrompt;        // prompt_builder.h
struct InstrumentedResult; // instrumented_generation.h
class Tokenizer;           // tokenizer.h

// A prompt or generated token with what was measured at it.
struct TraceToken {
    int32_t id = -1;
    std::string bytes;
    bool generated = false;
    std::optional<TokenLogprobs> logprobs = {}; // generated tokens
    double ms = 0.0;                             // generated tokens: since the previous token
    TokenProbe probe = {};                       // of its position (prompt) / the choosing position (generated)
    TokenMetrics metrics = {};
    std::string visible_text = {};               // generated tokens: the text it released (generator.h)
    std::optional<ConstraintStep> constraint = {}; // generated tokens of a run with a grammar: what its mask did
};

// How a run ended; a run still going has none.
struct RunOutcome {
    StopReason stop_reason = StopReason::MaxTokens;
    std::string text;       // the generated text (GenerateResult::text: without stop strings or EOG text)
    double prefill_ms = 0.0;
    double decode_ms = 0.0;
    int64_t n_decoded = 0;
    int64_t reused_tokens = 0;
    int64_t evaluated_tokens = 0;
    KvPoolStats kv;                        // the pool as the run left it
    std::vector<KvPoolSample> kv_history;  // its occupancy over time, oldest first
    std::vector<KvBlockState> kv_blocks;   // every block's state, by block id
    std::string fingerprint;               // a run on a server: the system_fingerprint it reported (captures keep it in `engine`)
};

struct RunTrace {
    RunSpec spec;                            // as asked (spec.precision nullopt: the model's default)
    Precision precision = Precision::Exact;  // the precision the run took
    std::optional<KvTypes> kv_types;         // the KV cache it ran with (nullopt: a server's, unknown)
    std::string prompt_text;                 // what was tokenized (templated in chat mode)
    std::vector<TraceToken> tokens;          // the prompt's first, then the generated ones
    size_t n_prompt = 0;
    Metric default_metric = Metric::NormShare; // what the run is shown by first
    std::optional<RunOutcome> outcome;       // set when it ended

    size_t n_generated() const { return tokens.size() - n_prompt; }
    std::span<const TraceToken> prompt() const { return {tokens.data(), n_prompt}; }
    std::span<const TraceToken> generated() const { return std::span<const TraceToken>(tokens).subspan(n_prompt); }
    std::vector<int32_t> prompt_ids() const;
    std::vector<int32_t> generated_ids() const;
    std::string generated_bytes() const; // every generated token's bytes, EOG and stop strings included
    // The spec that repeats this run exactly: as asked, with the precision and KV types it took.
    RunSpec repeat_spec() const;
};

// The prompt's tokens of a trace that starts now (no measurements yet).
RunTrace start_trace(const RunSpec& spec, Precision precision, KvTypes kv_types, const BuiltPrompt& prompt,
                     const Tokenizer& tokenizer);

// The outcome of a finished run, with the pool's history.
RunOutcome outcome_of(const InstrumentedResult& run, const std::deque<KvPoolSample>& kv_history);

// A finished run as a trace: the prompt's tokens, then every generated one, with measurements.
RunTrace trace_of_run(const RunSpec& spec, const BuiltPrompt& prompt, const Tokenizer& tokenizer,
                      const InstrumentedResult& run, const std::deque<KvPoolSample>& kv_history);

} // namespace octo
