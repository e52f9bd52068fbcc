// Fuzz target: arbitrary bytes as the body of POST /v1/chat/completions, /v1/completions,
// /v1/embeddings, /tokenize and /detokenize through the server's request parsing and checks
// (engine/serve/openai_request.h), and each error through the error object the client would
// receive. Any crash, sanitizer report, exception or
// unbounded allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "engine/serve/openai_request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    for (octo::serve::Endpoint endpoint : {octo::serve::Endpoint::Chat, octo::serve::Endpoint::Completion}) {
        auto parsed = octo::serve::parse_completion_request(body, endpoint);
        if (const auto* e = std::get_if<octo::serve::ApiError>(&parsed)) {
            (void)octo::serve::error_json(*e).dump(); // what the client is sent must serialise
        }
    }
    const auto answered = [](const auto& parsed) {
        if (const auto* e = std::get_if<octo::serve::ApiError>(&parsed)) (void)octo::serve::error_json(*e).dump();
    };
    answered(octo::serve::parse_embeddings_request(body));
    answered(octo::serve::parse_tokenize_request(body));
    answered(octo::serve::parse_detokenize_request(body));
    return 0;
}
