// Fuzz target: what a hostile or broken OpenAI-compatible server may send the remote engine
// (engine/remote). The input is a streamed body read by the SSE reader in chunks whose sizes come
// from the first bytes; every event's data is parsed as JSON and read as an answer chunk; the
// whole body is also read as one answer and as an error body. Each choice of an answer is then
// read as a whole run is (the trace, the outcome and the claims lab's answer, all of which read the
// Octoscope extension's fields, whatever their types). Besides crashes and sanitizer
// reports, a finding is an SSE reader whose events depend on how the bytes were chunked.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/remote/openai_answer.h"
#include "engine/remote/remote_answers.h"
#include "engine/remote/remote_trace.h"
#include "engine/remote/sse_reader.h"

namespace {

void read_answer(std::string_view text) {
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) return;
    auto answer = octo::remote::parse_answer(json);
    if (!answer) return;
    for (const auto& choice : answer->choices) {
        octo::remote::RemoteResult run;
        run.text = choice.text;
        run.tokens = choice.tokens;
        run.finish_reason = choice.finish_reason.value_or("");
        run.octoscope = choice.octoscope;
        run.usage = answer->usage;
        octo::RunSpec spec;
        spec.prompt = "x";
        const octo::RunTrace trace = octo::remote::trace_of_remote_run(spec, run);
        if (trace.outcome && trace.outcome->kv.blocks_free < 0) std::abort(); // the pool's counts are bounded
        (void)octo::remote::claim_answer(run);
        (void)octo::remote::prompt_tokens(choice.octoscope);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 4) return 0;
    const uint8_t chunking[4] = {data[0], data[1], data[2], data[3]};
    const std::string_view body(reinterpret_cast<const char*>(data + 4), size - 4);

    octo::remote::SseReader whole;
    const std::vector<std::string> at_once = whole.feed(body);

    octo::remote::SseReader pieces;
    std::vector<std::string> chunked;
    size_t at = 0;
    for (size_t i = 0; at < body.size(); ++i) {
        const size_t n = std::min<size_t>(body.size() - at, 1 + chunking[i % 4] % 17);
        for (std::string& event : pieces.feed(body.substr(at, n))) chunked.push_back(std::move(event));
        at += n;
    }
    if (chunked != at_once || pieces.pending() != whole.pending()) std::abort(); // chunking changed the events

    for (const std::string& event : at_once) {
        if (event != "[DONE]") read_answer(event);
    }
    read_answer(body);
    (void)octo::remote::error_message(400 + chunking[0] % 200, body);
    return 0;
}
