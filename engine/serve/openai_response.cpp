#include "engine/serve/openai_response.h"

#include "engine/chat/chat_messages_json.h"
#include "engine/chat/tool_call_format.h"
#include "engine/conversation/conversation_run.h"

#include "engine/core/utf8_text.h"
#include "engine/generation/constraint_json.h"
#include "engine/instrumentation/expert_routing.h"

namespace octo::serve {

namespace {

// Insertion order: keys come as OpenAI writes them, and a legacy top_logprobs dict is in the
// order of probability (a sorted object put it in alphabetical order).
using json = nlohmann::ordered_json;

bool chat(const AnswerContext& c) { return c.request->endpoint == Endpoint::Chat; }

json bytes_json(const std::string& bytes) {
    json out = json::array();
    for (char ch : bytes) out.push_back(static_cast<unsigned char>(ch));
    return out;
}

// Chat's {"token", "logprob", "bytes", "top_logprobs": [...]} of one token.
json chat_logprob_json(const AnswerContext& c, const TokenEvent& e) {
    json top = json::array();
    for (size_t i = 0; i < e.logprobs.top.size() && i < static_cast<size_t>(c.request->top_logprobs); ++i) {
        const TokenLogprob& alt = e.logprobs.top[i];
        const std::string bytes = c.tokenizer->token_bytes(alt.id);
        top.push_back({{"token", valid_utf8(bytes)}, {"logprob", alt.logprob}, {"bytes", bytes_json(bytes)}});
    }
    return {{"token", valid_utf8(e.bytes)}, {"logprob", e.logprobs.logprob}, {"bytes", bytes_json(e.bytes)}, {"top_logprobs", top}};
}

// A token in the legacy arrays, as OpenAI writes it: its text, or when its bytes are not valid
// UTF-8 (a byte token, a character cut in two) "bytes:" and each byte as \xNN, so that byte
// tokens stay apart (they all read "\ufffd" and overwrote each other in the dict).
std::string legacy_token(const std::string& bytes) {
    if (valid_utf8(bytes) == bytes) return bytes;
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "bytes:";
    for (const char ch : bytes) {
        const auto b = static_cast<unsigned char>(ch);
        out += "\\x";
        out += kHex[b >> 4];
        out += kHex[b & 15];
    }
    return out;
}

// Completions' legacy arrays for `tokens`, their text starting at `offset` in the choice's text.
json completion_logprobs_json(const AnswerContext& c, const std::vector<const TokenEvent*>& tokens, size_t offset) {
    json pieces = json::array(), lps = json::array(), tops = json::array(), offsets = json::array();
    for (const TokenEvent* e : tokens) {
        pieces.push_back(legacy_token(e->bytes));
        lps.push_back(e->logprobs.logprob);
        json top = json::object();
        for (size_t i = 0; i < e->logprobs.top.size() && i < static_cast<size_t>(c.request->top_logprobs); ++i) {
            const std::string key = legacy_token(c.tokenizer->token_bytes(e->logprobs.top[i].id));
            if (!top.contains(key)) top[key] = e->logprobs.top[i].logprob; // most probable first; one key per text
        }
        tops.push_back(std::move(top));
        offsets.push_back(offset);
        offset += e->visible_text.size();
    }
    return {{"tokens", pieces}, {"token_logprobs", lps}, {"top_logprobs", tops}, {"text_offset", offsets}};
}

// The extension's record of one generated token.
json token_extension_json(const AnswerContext& c, const TokenEvent& e, const TokenMetrics& m) {
    const auto& shares = m.get(c.metric);
    json t = {{"id", e.id},
              {"piece", valid_utf8(e.bytes)},
              {"subsystems", shares ? json(*shares) : json(nullptr)},
              {"metrics", metrics_json(m)}};
    const OctoscopeRequest& o = c.request->octoscope;
    if (o.heads) t["heads"] = e.probe.head_norms;
    if (o.experts && c.n_expert > 0) t["experts"] = experts_json(e.probe, c.n_layer);
    if (e.constraint) t["constraint"] = constraint_json(*e.constraint, *c.tokenizer, c.head_map);
    return t;
}

json prompt_extension_json(const AnswerContext& c, const std::vector<TokenMetrics>& prompt_metrics) {
    json subsystems = json::array(), metrics = json::array();
    for (const TokenMetrics& m : prompt_metrics) {
        const auto& shares = m.get(c.metric);
        subsystems.push_back(shares ? json(*shares) : json(nullptr));
        metrics.push_back(json(metrics_json(m)));
    }
    json pieces = json::array();
    std::vector<std::string> bytes;
    for (const int32_t id : c.prompt_ids) {
        bytes.push_back(c.tokenizer->token_bytes(id));
        pieces.push_back(valid_utf8(bytes.back()));
    }
    json out = {{"ids", c.prompt_ids}, {"pieces", pieces}, {"subsystems", subsystems}, {"metrics", metrics}};
    // A conversation: each message's tokens in the prompt and their mean subsystem values (the
    // lens of every turn, docs/coherence.md); a message the template did not write as given, or
    // that never reached the model (a prompt template takes the last user message), has none.
    const std::vector<ChatMessage>& messages = c.request->run.messages;
    if (!messages.empty()) {
        json turns = json::array();
        for (const ConversationTurn& t : locate_turns(messages, c.prompt_text, bytes)) {
            const size_t end = std::min(t.end_token, prompt_metrics.size());
            const TurnLens lens = turn_lens(std::min(t.first_token, end), end, c.metric, [&](size_t i) -> const TokenMetrics& { return prompt_metrics[i]; });
            turns.push_back({{"message", t.message}, {"role", chat_role_name(messages[t.message].role)},
                             {"first_token", t.first_token}, {"end_token", t.end_token},
                             {"subsystems", lens.measured > 0 ? json(lens.mean) : json(nullptr)}});
        }
        out["turns"] = std::move(turns);
    }
    return out;
}

json summary_extension_json(const GenerateResult& r, const KvPoolStats& kv) {
    return {{"stop_reason", stop_reason_name(r.stop_reason)},
            {"kv",
             {{"reused_tokens", r.reused_tokens},
              {"evaluated_tokens", r.evaluated_tokens},
              {"block_size", kv.block_size},
              {"blocks_total", kv.blocks_total},
              {"blocks_used", kv.blocks_used},
              {"blocks_cached", kv.blocks_cached}}},
            {"timing", {{"prefill_ms", r.prefill_ms}, {"decode_ms", r.decode_ms}, {"decoded_tokens", r.n_decoded}}}};
}

// The extension's fields every choice carries.
json extension_header_json(const AnswerContext& c) {
    json disabled = json::array();
    for (int s = 0; s < kSubsystemCount; ++s) {
        if (c.request->run.disabled[static_cast<size_t>(s)]) disabled.push_back(subsystem_id(s));
    }
    return {{"metric", metric_name(c.metric)},
            {"ablation", {{"disabled", disabled}, {"mode", ablation_mode_name(c.request->run.ablation_mode)}}}};
}

json envelope(const AnswerContext& c, const char* object) {
    return {{"id", c.id}, {"object", object}, {"created", c.created}, {"model", c.model}, {"system_fingerprint", c.fingerprint}};
}

json chunk(const AnswerContext& c, json choice) {
    json out = envelope(c, chat(c) ? "chat.completion.chunk" : "text_completion");
    out["choices"] = json::array({std::move(choice)});
    return out;
}

json chunk_choice(const AnswerContext& c, int choice, const std::string& text) {
    // (With tools a chat stream's text waits for the last chunk: see AnswerContext::tool_format.)
    json ch = {{"index", choice}, {"finish_reason", nullptr}};
    if (chat(c)) {
        ch["delta"] = text.empty() ? json::object() : json{{"content", valid_utf8(text)}};
    } else {
        ch["text"] = valid_utf8(text);
    }
    return ch;
}

// A chat answer's message fields ({"content"} and, when the text is tool calls, "tool_calls") and
// its finish_reason. `stream`: the calls carry their index, as a stream's delta does.
std::pair<json, const char*> chat_message_json(const AnswerContext& c, int choice, const std::string& text, StopReason stop, bool stream) {
    const char* reason = finish_reason(stop);
    if (!c.tool_format) return {json{{"content", valid_utf8(text)}}, reason};
    ParsedToolCalls parsed = parse_tool_calls(*c.tool_format, text, c.request->run.tools, c.tool_call_opening);
    if (parsed.calls.empty()) return {json{{"content", valid_utf8(parsed.content)}}, reason};
    uint64_t ids = c.tool_ids + static_cast<uint64_t>(choice) * 0x9E3779B97F4A7C15ULL;
    for (ToolCall& call : parsed.calls) call.id = tool_call_id_for(*c.tool_format, ids);
    json calls = tool_calls_json(parsed.calls);
    if (stream) {
        for (size_t i = 0; i < calls.size(); ++i) calls[i]["index"] = i;
    }
    json message = {{"content", parsed.content.empty() ? json(nullptr) : json(valid_utf8(parsed.content))}, {"tool_calls", std::move(calls)}};
    return {std::move(message), "tool_calls"};
}

} // namespace

const char* finish_reason(StopReason reason) {
    switch (reason) {
    case StopReason::MaxTokens:
    case StopReason::ContextFull: return "length";
    case StopReason::EndOfGeneration:
    case StopReason::StopString:
    case StopReason::Cancelled: break;
    }
    return "stop";
}

json usage_json(int64_t prompt_tokens, int64_t completion_tokens) {
    return {{"prompt_tokens", prompt_tokens},
            {"completion_tokens", completion_tokens},
            {"total_tokens", prompt_tokens + completion_tokens}};
}

json answer_json(const AnswerContext& c, const std::vector<ChoiceRecord>& choices) {
    json out = envelope(c, chat(c) ? "chat.completion" : "text_completion");
    json list = json::array();
    int64_t completion_tokens = 0;
    for (size_t i = 0; i < choices.size(); ++i) {
        const ChoiceRecord& r = choices[i];
        const std::string text = r.result ? valid_utf8(r.result->text) : std::string();
        const StopReason stop = r.result ? r.result->stop_reason : StopReason::Cancelled;
        completion_tokens += static_cast<int64_t>(r.tokens.size());
        json choice = {{"index", i}, {"finish_reason", finish_reason(stop)}};
        if (chat(c)) {
            auto [message, reason] = chat_message_json(c, static_cast<int>(i), text, stop, /*stream=*/false);
            choice["message"] = {{"role", "assistant"}};
            choice["message"].update(message);
            choice["finish_reason"] = reason;
            json content = json::array();
            for (const TokenEvent& e : r.tokens) content.push_back(chat_logprob_json(c, e));
            choice["logprobs"] = c.request->logprobs ? json{{"content", content}} : json(nullptr);
        } else {
            choice["text"] = text;
            std::vector<const TokenEvent*> tokens;
            for (const TokenEvent& e : r.tokens) tokens.push_back(&e);
            choice["logprobs"] = c.request->logprobs ? completion_logprobs_json(c, tokens, 0) : json(nullptr);
        }
        if (c.request->octoscope.enabled) {
            json ext = extension_header_json(c);
            json tokens = json::array();
            for (size_t t = 0; t < r.tokens.size(); ++t) {
                tokens.push_back(token_extension_json(c, r.tokens[t], t < r.metrics.size() ? r.metrics[t] : TokenMetrics{}));
            }
            ext["tokens"] = std::move(tokens);
            if (c.request->octoscope.prompt) ext["prompt"] = prompt_extension_json(c, r.prompt_metrics);
            if (r.result) ext.update(summary_extension_json(*r.result, r.kv));
            choice["octoscope"] = std::move(ext);
        }
        list.push_back(std::move(choice));
    }
    out["choices"] = std::move(list);
    out["usage"] = usage_json(static_cast<int64_t>(c.prompt_ids.size()), completion_tokens);
    return out;
}

json first_chunk_json(const AnswerContext& c, int choice, const std::vector<TokenMetrics>& prompt_metrics) {
    json ch = chunk_choice(c, choice, "");
    if (chat(c)) ch["delta"] = {{"role", "assistant"}, {"content", ""}};
    if (c.request->octoscope.enabled) {
        json ext = extension_header_json(c);
        if (c.request->octoscope.prompt) ext["prompt"] = prompt_extension_json(c, prompt_metrics);
        ch["octoscope"] = std::move(ext);
    }
    return chunk(c, std::move(ch));
}

json token_chunk_json(const AnswerContext& c, int choice, const TokenEvent& token, const std::string& text,
                      const TokenMetrics* metrics) {
    json ch = chunk_choice(c, choice, text);
    if (c.request->logprobs) {
        ch["logprobs"] = chat(c) ? json{{"content", json::array({chat_logprob_json(c, token)})}}
                                 : completion_logprobs_json(c, {&token}, 0);
    }
    if (c.request->octoscope.enabled) {
        ch["octoscope"] = {{"tokens", json::array({token_extension_json(c, token, metrics ? *metrics : TokenMetrics{})})}};
    }
    return chunk(c, std::move(ch));
}

json last_chunk_json(const AnswerContext& c, int choice, const std::string& text, const GenerateResult& result,
                     const KvPoolStats& kv) {
    json ch = chunk_choice(c, choice, text);
    ch["finish_reason"] = finish_reason(result.stop_reason);
    if (chat(c) && c.tool_format) { // the text was held back: the whole of it, as content or calls
        auto [message, reason] = chat_message_json(c, choice, text, result.stop_reason, /*stream=*/true);
        const json& content = message["content"];
        if (content.is_null() || (content.is_string() && content.get<std::string>().empty())) message.erase("content");
        ch["delta"] = std::move(message);
        ch["finish_reason"] = reason;
    }
    if (c.request->octoscope.enabled) ch["octoscope"] = summary_extension_json(result, kv);
    return chunk(c, std::move(ch));
}

json usage_chunk_json(const AnswerContext& c, int64_t completion_tokens) {
    json out = envelope(c, chat(c) ? "chat.completion.chunk" : "text_completion");
    out["choices"] = json::array();
    out["usage"] = usage_json(static_cast<int64_t>(c.prompt_ids.size()), completion_tokens);
    return out;
}

} // namespace octo::serve
