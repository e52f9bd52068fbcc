// The one description of a run, the only request type from the prompt editor, the CLI and the
// server down to the engine: what is said, how tokens are chosen and when to stop, what is
// measured, what is switched off, and how and where it runs. Built from five parts, each a plain
// aggregate a caller may take alone (the generator takes GenerationSpec, the prompt builder
// PromptSpec); RunSpec is those parts and nothing else, so a field belongs to exactly one of them.
//
// Captures (which store it with the precision the run took), the workbench's autosave, Re-run and
// replay, compare, claims and the server's parsed OpenAI bodies all hold this struct; one
// serialiser writes and reads it (engine/capture/run_spec_json.h). What is not a description of
// the run — the prompt's token ids, a cancel flag, the expert map of the open model — travels
// beside it (RunInputs, instrumented_generation.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/backend/precision.h"
#include "engine/chat/chat_message.h"
#include "engine/instrumentation/ablation_switches.h"
#include "engine/instrumentation/subsystem.h"
#include "engine/kv/kv_types.h"
#include "engine/sampling/sampler_config.h"

namespace octo {

// What is said: plain text, a system + user turn through the model's chat template, or a whole
// conversation (prompt_builder.h turns it into token ids).
struct PromptSpec {
    std::string prompt;          // what the user typed (the user turn with chat)
    bool chat = false;           // wrapped in the model's chat template
    std::string system;          // chat: the system message ("" for none)
    bool enable_thinking = true; // chat: Qwen3's enable_thinking (ChatFormatContext)
    ReasoningEffort reasoning_effort = ReasoningEffort::Medium; // chat: harmony's reasoning level (gpt-oss)
    bool parse_special = false;  // control-token texts in a plain prompt become those tokens
    // A whole conversation (a server's chat request): when not empty it is the prompt, and
    // prompt, chat and system are not used.
    std::vector<ChatMessage> messages;
    // With messages: the tools offered (written in the family's tool format, chat_format.h) and
    // whether the model may, may not or must call one (a required call is also constrained by
    // GenerationSpec::grammar, tool_call_format.h).
    std::vector<ChatTool> tools;
    ToolChoice tool_choice;
    bool operator==(const PromptSpec&) const = default;
};

// How tokens are chosen and when generation stops.
struct GenerationSpec {
    int64_t max_tokens = 128;
    std::vector<std::string> stop_strings;
    bool stop_at_eog = true;  // false: keep going past end-of-generation tokens (measurements)
    SamplerConfig sampling = {};
    size_t top_logprobs = 5;  // alternatives reported with each token
    std::string grammar;      // GBNF (engine/grammar) every generated token must keep to; empty: none
    std::string json_schema;  // the JSON Schema `grammar` was compiled from (shown, edited again); empty: none, or GBNF as written
    bool operator==(const GenerationSpec&) const = default;
};

// What is measured beyond head norms (always on).
struct MeasurementSpec {
    bool dla = false;
    bool record_attention = true;     // every position's attention weights (turns prefix reuse off)
    // With record_attention: reuse the KV pool's blocks anyway. The positions taken from the pool
    // then have no attention weights; the new ones keep theirs (a conversation's next turn).
    bool attention_keeps_kv = false;
    bool record_router_probs = false; // every expert's router probability (MoE models), not only the chosen
    bool operator==(const MeasurementSpec&) const = default;
};

// What is switched off inside the model.
struct AblationSpec {
    std::array<bool, kSubsystemCount> disabled = {}; // ablated subsystems, rte-a first
    AblationMode ablation_mode = AblationMode::Zero;
    std::vector<ExpertSwitch> disabled_experts;       // left out of the routers' choice (MoE models)
    SwitchTarget switch_target = SwitchTarget::Heads; // what `disabled` switches off: heads, or the experts an expert map gives each subsystem
    bool operator==(const AblationSpec&) const = default;
};

// How and where it runs. Precision changes the numbers; the CLI opens the model with n_ctx and
// threads (the workbench's and the server's model is open already), and tokens do not depend on threads.
struct ExecutionSpec {
    // How matrix products treat activations (backend/precision.h); nullopt: the model's default.
    // A capture holds the precision the run took, so that a replay repeats it whatever the default.
    std::optional<Precision> precision = std::nullopt;
    int64_t n_ctx = 0;   // requested context (0: the model's)
    int32_t threads = 0; // CPU threads (0: every core)
    // How the KV pool stores keys and values (kv/kv_types.h); nullopt: as the model was opened (a
    // CLI run opens it with the default: F16 at reference precision, F32 at exact). They change
    // the numbers, so a capture records the types a run took (RunTrace::kv_types) and a replay
    // opens its model with them; in a capture "default" (written before the default was F16)
    // means F32.
    std::optional<TensorType> kv_type_k = std::nullopt;
    std::optional<TensorType> kv_type_v = std::nullopt;
    bool operator==(const ExecutionSpec&) const = default;
};

// The KV types a run asks for (nullopt: the default).
inline KvTypeChoice kv_types_of(const ExecutionSpec& s) { return {s.kv_type_k, s.kv_type_v}; }

struct RunSpec : PromptSpec, GenerationSpec, MeasurementSpec, AblationSpec, ExecutionSpec {
    bool operator==(const RunSpec&) const = default;
};

namespace detail {
struct AnyValue {
    template <class T>
    operator T() const; // NOLINT: converts to anything, only ever in unevaluated aggregate initialisation
};
template <class S, class... Extra>
concept InitialisedBy = requires { S{PromptSpec{}, GenerationSpec{}, MeasurementSpec{}, AblationSpec{}, ExecutionSpec{}, Extra{}...}; };
} // namespace detail
// RunSpec is its five parts and has no member of its own (a field goes into a part, where the
// serialiser sees it).
static_assert(detail::InitialisedBy<RunSpec> && !detail::InitialisedBy<RunSpec, detail::AnyValue>,
              "RunSpec holds its parts and nothing else");

} // namespace octo
