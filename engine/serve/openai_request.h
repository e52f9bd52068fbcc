// The body of an OpenAI-style completion request, parsed and checked: POST /v1/chat/completions
// and /v1/completions as `octoscope-cli serve` accepts them (docs/server.md).
//
// Strict where a silent misreading would mislead: every field OpenAI documents is either honoured
// or, when it asks for something the engine does not do (audio, the deprecated functions,
// echo, best_of > 1), refused with a 400 that names it. Tools go into the run (RunSpec::tools,
// tool_choice; docs/server.md). Fields no OpenAI document names are ignored, as other servers do, so clients that
// add their own (`user`, `metadata`) keep working. Every refusal is an ApiError whose message
// names the field and the rule, shaped as OpenAI's error object by error_json().
//
// The extension: `"octoscope": {...}` asks for the engine's measurements with every token
// (OctoscopeRequest below); a server that is not Octoscope ignores it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_message.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/run_spec.h"
#include "engine/instrumentation/subsystem.h"
#include "engine/sampling/sampler_config.h"

namespace octo::serve {

enum class Endpoint { Chat, Completion };
const char* endpoint_path(Endpoint endpoint); // "/v1/chat/completions", "/v1/completions"

// An error as the client sees it: an HTTP status and OpenAI's {"error": {...}} object.
struct ApiError {
    int status = 400;
    std::string message;
    std::string type = "invalid_request_error"; // OpenAI's types: invalid_request_error, authentication_error, ...
    std::string param;                          // the field at fault ("" when none)
    std::string code;                           // e.g. "model_not_found", "rate_limit_exceeded" ("" when none)
};

// {"error": {"message", "type", "param" (null when empty), "code" (null when empty)}}
nlohmann::json error_json(const ApiError& error);

// What the server allows (serve's options; the defaults are documented in docs/server.md).
struct RequestLimits {
    int64_t max_tokens = 4096;   // the most a request may ask for (also the default when it names none)
    int max_choices = 16;        // `n`
    int max_stop = 4;            // stop strings, as OpenAI
    size_t max_stop_bytes = 256; // of each stop string
    int max_top_logprobs = 20;   // chat's top_logprobs (completions' logprobs: 5), as OpenAI
    int max_messages = 1024;
    int max_logit_bias = 1024;   // logit_bias entries
};

// What the `octoscope` extension object asks to be shown. What it asks the run to do — "disable":
// ["rte-c", ...], "ablation": "zero" | "mean", "dla" (also implied by "metric": "dla") — goes
// into the request's RunSpec (disabled, ablation_mode, dla).
struct OctoscopeRequest {
    bool enabled = false;                        // the object was present
    std::optional<Metric> metric;                // "subsystems" is this metric (default: the model's)
    bool heads = false;                          // "heads": each token's per-head norms [n_layer][n_head]
    bool experts = false;                        // "experts": each token's routing (mixture-of-experts models)
    bool prompt = false;                         // "prompt": the prompt positions' measurements too
};

struct CompletionRequest {
    Endpoint endpoint = Endpoint::Chat;
    std::string model;                 // as sent ("" when absent)
    // The run the body asks for: the conversation (chat: run.messages) or the prompt (completions:
    // run.prompt); max_tokens, 1..limits.max_tokens (absent: limits.max_tokens); sampling
    // (temperature default 1, as OpenAI; top_p, top_k, seed, repetition_penalty); the stop
    // strings; the extension's switches and dla. Attention and router probabilities are not
    // recorded (an answer has no room for them), and each token comes with at least 5 alternatives.
    RunSpec run;
    bool max_tokens_given = false;
    bool seed_given = false;
    bool logprobs = false;             // log-probabilities of the chosen tokens
    int top_logprobs = 0;              // alternatives per token shown (chat: top_logprobs; completions: logprobs N)
    int n = 1;                         // choices
    bool stream = false;
    bool include_usage = false;        // stream_options.include_usage
    OctoscopeRequest octoscope;
};

// POST /tokenize, in llama.cpp's shape ({"content", "add_special", "with_pieces"}) or vLLM's
// ({"prompt" | "messages", "add_special_tokens"}): the text, or a conversation rendered through
// the model's chat template as a chat request is. add_special defaults to true: the tokens a
// completion of the same text would see.
struct TokenizeRequest {
    std::string text;                  // content / prompt
    std::vector<ChatMessage> messages; // instead of text
    bool add_special = true;
    bool with_pieces = false;          // each token's text too
};
std::variant<TokenizeRequest, ApiError> parse_tokenize_request(std::string_view body, const RequestLimits& limits = {});

// POST /detokenize: {"tokens": [id, …]} (at most max_detokenize ids; ids checked by the server).
std::variant<std::vector<int32_t>, ApiError> parse_detokenize_request(std::string_view body, size_t max_tokens = size_t{1} << 20);

// POST /v1/embeddings: {"input": a string or an array of strings (at most max_inputs), "model",
// "encoding_format": "float" | "base64"}. Token-id inputs and "dimensions" are refused.
struct EmbeddingsRequest {
    std::string model;
    std::vector<std::string> inputs;
    bool base64 = false;
};
std::variant<EmbeddingsRequest, ApiError> parse_embeddings_request(std::string_view body, size_t max_inputs = 256);

// Parses `body` for `endpoint`; the ApiError (status 400, or 413 for too many messages) names
// the first problem found.
std::variant<CompletionRequest, ApiError> parse_completion_request(std::string_view body, Endpoint endpoint,
                                                                   const RequestLimits& limits = {});

} // namespace octo::serve
