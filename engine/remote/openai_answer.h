// Reading what an OpenAI-compatible server answers: a whole completion or one streamed chunk,
// chat or text completion, from any server (OpenAI, vLLM, SGLang, TGI, llama.cpp's server,
// Ollama, Octoscope). Only the fields OpenAI documents are relied on; the rest is optional:
//   - log-probabilities as chat's `logprobs.content[]` ({token, logprob, bytes?, top_logprobs[]},
//     with llama.cpp's `id`), also found on completions from llama.cpp's server, or as the
//     completions' legacy arrays (`tokens`, `token_logprobs`, `top_logprobs` as {text: logprob});
//   - Octoscope's extension (`choices[i].octoscope`) kept as it came, for the views that use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/result.h"

namespace octo::remote {

struct RemoteAlternative {
    std::string text;
    double logprob = 0.0;
    std::optional<int32_t> id; // when the server gives ids (llama.cpp)
};

// One generated token as a server describes it. Without log-probabilities a server tells only
// text: a streamed chunk then counts as one token, a whole answer has none.
struct RemoteToken {
    std::string text;               // the token's text (its bytes when the server sent them)
    std::optional<double> logprob;
    std::vector<RemoteAlternative> top;
    std::optional<int32_t> id;
    nlohmann::json octoscope;       // the extension's record of this token (null from other servers)
    double arrival_ms = 0.0;        // since the request was sent (a streamed token's arrival; set by the client)
};

struct RemoteChoice {
    int index = 0;
    std::string text;                    // the text (whole answer) or the text this chunk adds
    std::vector<RemoteToken> tokens;     // with log-probabilities (or the extension)
    std::optional<std::string> finish_reason;
    nlohmann::json octoscope;            // the choice's extension object, tokens left in RemoteToken
};

struct RemoteUsage {
    int64_t prompt_tokens = 0;
    int64_t completion_tokens = 0;
};

struct RemoteAnswer {
    std::string id;
    std::string model;
    std::string fingerprint; // system_fingerprint ("" when absent)
    std::vector<RemoteChoice> choices;
    std::optional<RemoteUsage> usage;
};

// Parses a whole answer or a chunk. Format error (naming the field) when it is not an answer:
// no `choices` array, a choice that is not an object, text of the wrong type.
Result<RemoteAnswer> parse_answer(const nlohmann::json& answer);

// What a failed request's body says: the error object's message (OpenAI's {"error": {...}},
// {"error": "text"}, {"detail": ...} of some servers), else the body's start, else the status.
std::string error_message(int status, std::string_view body);

} // namespace octo::remote
