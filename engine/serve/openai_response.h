// The JSON `octoscope-cli serve` answers with: OpenAI's completion objects (whole, or as
// server-sent chunks), with the engine's measurements under "octoscope" in each choice or chunk
// when the request asked for them (docs/server.md, "The extension").
//
// Shapes, as OpenAI documents them:
//   chat        {"id": "chatcmpl-…", "object": "chat.completion", "created", "model",
//                "system_fingerprint", "choices": [{"index", "message": {"role", "content"},
//                "logprobs": {"content": [{"token", "logprob", "bytes", "top_logprobs"}]} | null,
//                "finish_reason"}], "usage"}
//   completion  {"id": "cmpl-…", "object": "text_completion", …, "choices": [{"index", "text",
//                "logprobs": {"tokens", "token_logprobs", "top_logprobs", "text_offset"} | null,
//                "finish_reason"}], "usage"}
//   chunks      "chat.completion.chunk" with "delta", or "text_completion" with "text"; the last
//               chunk of a choice carries its finish_reason, an optional last one the usage.
// finish_reason: "stop" (an end-of-generation token or a stop string), "length" (max_tokens, or
// the context is full; the extension's stop_reason tells which), "tool_calls" (the answer is
// tool calls: message.tool_calls, in a stream the last chunk's delta.tool_calls with their index).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_template.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/kv/kv_pool_stats.h"
#include "engine/serve/openai_request.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo::serve {

// What every answer to one request shares.
struct AnswerContext {
    const CompletionRequest* request = nullptr;
    const Tokenizer* tokenizer = nullptr;
    std::string id;          // "chatcmpl-…" or "cmpl-…"
    int64_t created = 0;     // Unix seconds
    std::string model;       // the served model's id
    std::string fingerprint; // system_fingerprint
    Metric metric = Metric::NormShare; // the extension's "subsystems": the request's metric, or the model's default
    int64_t n_layer = 0;     // for the extension's experts
    int64_t n_expert = 0;    // 0: a dense model
    const HeadMap* head_map = nullptr; // for the extension's constraint "removed_pull" (optional)
    std::vector<int32_t> prompt_ids;
    std::string prompt_text; // what was tokenized (the rendered conversation of a chat request)
    // A chat request that offers tools (tool_choice not "none"): the format its calls are read
    // back in (tool_call_format.h), what the prompt ended with to open a required call, and the
    // seed of the calls' ids. A stream then sends each choice's text with its last chunk: only the whole
    // answer tells a call from text.
    std::optional<ChatTemplate> tool_format;
    std::string tool_call_opening;
    uint64_t tool_ids = 0;
};

// One choice as it arrived (whole answers are built from these).
struct ChoiceRecord {
    std::vector<TokenEvent> tokens;
    std::vector<TokenMetrics> metrics;        // [tokens] with the extension
    std::vector<TokenMetrics> prompt_metrics; // with the extension
    std::optional<GenerateResult> result;     // once done (text, stop reason, timing)
    KvPoolStats kv;
};

// "stop" or "length" (Cancelled, which no client sees, gives "stop").
const char* finish_reason(StopReason reason);

// The whole answer (stream: false).
nlohmann::ordered_json answer_json(const AnswerContext& context, const std::vector<ChoiceRecord>& choices);

// Streamed chunks. The first of a chat choice sets the role (with the prompt's measurements when
// the extension asked for them); one per token, `text` being what it releases (may be empty);
// the last of a choice with its finish_reason (`text`: what the end released) and the extension's
// summary; the usage chunk when stream_options.include_usage.
nlohmann::ordered_json first_chunk_json(const AnswerContext& context, int choice, const std::vector<TokenMetrics>& prompt_metrics);
nlohmann::ordered_json token_chunk_json(const AnswerContext& context, int choice, const TokenEvent& token,
                                const std::string& text, const TokenMetrics* metrics);
nlohmann::ordered_json last_chunk_json(const AnswerContext& context, int choice, const std::string& text,
                               const GenerateResult& result, const KvPoolStats& kv);
nlohmann::ordered_json usage_chunk_json(const AnswerContext& context, int64_t completion_tokens);

// {"prompt_tokens", "completion_tokens", "total_tokens"}
nlohmann::ordered_json usage_json(int64_t prompt_tokens, int64_t completion_tokens);

} // namespace octo::serve
