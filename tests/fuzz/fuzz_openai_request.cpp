// Fuzz target: arbitrary bytes as the body of POST /v1/chat/completions, /v1/completions,
// /v1/embeddings, /tokenize and /detokenize through the server's request parsing and checks
// (engine/serve/openai_request.h), and each error through the error object the client would
// receive. A chat request that parses goes on through the tool formats (chat_format.h,
// tool_call_format.h): its conversation and tools written in each family's tool format, the
// grammar of a required call (which must parse), and the body read back as a model's answer
// (calls, if any, name an offered tool and carry a JSON object; otherwise the text is kept
// whole). Any crash, sanitizer report, exception, unbounded allocation or broken invariant is a
// finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_format.h"
#include "engine/chat/tool_call_format.h"
#include "engine/grammar/gbnf_grammar.h"
#include "engine/serve/openai_request.h"

namespace {

void tool_formats(const octo::RunSpec& run, std::string_view body) {
    using octo::ChatFamily;
    for (int variant = 0; variant < 5; ++variant) {
        octo::ChatTemplate tmpl;
        tmpl.tools = true;
        tmpl.family = variant == 0 ? ChatFamily::ChatML : variant == 1 ? ChatFamily::Llama3 : variant == 4 ? ChatFamily::Harmony : ChatFamily::Mistral;
        tmpl.mistral = variant == 3 ? octo::MistralStyle::Tekken : octo::MistralStyle::V3;
        tmpl.llama3_dated_system = variant == 1;
        octo::ChatFormatContext context;
        context.eos_text = "</s>";
        context.tools = run.tools;
        if (run.tool_choice.forces_call()) {
            if (auto opening = octo::tool_call_opening(tmpl, run.tools, run.tool_choice)) context.tool_call_opening = *opening;
        }
        (void)octo::format_chat(tmpl, run.messages, context);
        if (run.tools.empty()) continue;
        octo::ToolChoice choice = run.tool_choice;
        if (!choice.forces_call()) choice.mode = octo::ToolChoice::Mode::Required;
        if (auto gbnf = octo::tool_call_grammar(tmpl, run.tools, choice); gbnf.ok()) {
            if (!octo::Grammar::parse(*gbnf).ok()) std::abort(); // a call's grammar always compiles
        }
        const auto opened = octo::tool_call_opening(tmpl, run.tools, choice);
        const std::string opening = opened ? *opened : std::string();
        for (std::string_view before : {std::string_view(), std::string_view(opening)}) {
            const octo::ParsedToolCalls parsed = octo::parse_tool_calls(tmpl, body, run.tools, before);
            for (const octo::ToolCall& call : parsed.calls) {
                bool offered = false;
                for (const octo::ChatTool& t : run.tools) offered = offered || t.name == call.name;
                const auto args = nlohmann::json::parse(call.arguments, nullptr, false);
                if (!offered || !args.is_object()) std::abort();
            }
            if (parsed.calls.empty() && parsed.content.find(body) == std::string::npos) std::abort(); // nothing lost
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    for (octo::serve::Endpoint endpoint : {octo::serve::Endpoint::Chat, octo::serve::Endpoint::Completion}) {
        auto parsed = octo::serve::parse_completion_request(body, endpoint);
        if (const auto* e = std::get_if<octo::serve::ApiError>(&parsed)) {
            (void)octo::serve::error_json(*e).dump(); // what the client is sent must serialise
        } else if (endpoint == octo::serve::Endpoint::Chat) {
            tool_formats(std::get<octo::serve::CompletionRequest>(parsed).run, body);
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
