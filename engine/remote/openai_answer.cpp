#include "engine/remote/openai_answer.h"

#include <algorithm>

#include "engine/core/utf8_text.h"

namespace octo::remote {

namespace {

using nlohmann::json;

std::string string_or(const json& j, const char* key, std::string fallback = {}) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::optional<int32_t> id_of(const json& j) {
    auto it = j.find("id");
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int32_t>();
}

// A token's text: its bytes when given (the exact text, even mid-character), else "token".
std::string token_text(const json& entry) {
    auto bytes = entry.find("bytes");
    if (bytes != entry.end() && bytes->is_array()) {
        std::string out;
        for (const json& b : *bytes) {
            if (!b.is_number_integer() || b.get<int64_t>() < 0 || b.get<int64_t>() > 255) return string_or(entry, "token");
            out.push_back(static_cast<char>(b.get<int>()));
        }
        return out;
    }
    return string_or(entry, "token");
}

// chat's logprobs.content[] (also llama.cpp's completions)
std::vector<RemoteToken> content_tokens(const json& content) {
    std::vector<RemoteToken> out;
    for (const json& entry : content) {
        if (!entry.is_object()) continue;
        RemoteToken t;
        t.text = token_text(entry);
        if (auto lp = entry.find("logprob"); lp != entry.end() && lp->is_number()) t.logprob = lp->get<double>();
        t.id = id_of(entry);
        if (auto top = entry.find("top_logprobs"); top != entry.end() && top->is_array()) {
            for (const json& alt : *top) {
                if (!alt.is_object() || !alt.contains("logprob") || !alt["logprob"].is_number()) continue;
                t.top.push_back({token_text(alt), alt["logprob"].get<double>(), id_of(alt)});
            }
        }
        out.push_back(std::move(t));
    }
    return out;
}

// completions' legacy arrays
std::vector<RemoteToken> legacy_tokens(const json& lp) {
    std::vector<RemoteToken> out;
    auto tokens = lp.find("tokens");
    if (tokens == lp.end() || !tokens->is_array()) return out;
    const json* values = lp.contains("token_logprobs") && lp["token_logprobs"].is_array() ? &lp["token_logprobs"] : nullptr;
    const json* tops = lp.contains("top_logprobs") && lp["top_logprobs"].is_array() ? &lp["top_logprobs"] : nullptr;
    for (size_t i = 0; i < tokens->size(); ++i) {
        RemoteToken t;
        t.text = (*tokens)[i].is_string() ? (*tokens)[i].get<std::string>() : std::string();
        if (values && i < values->size() && (*values)[i].is_number()) t.logprob = (*values)[i].get<double>();
        if (tops && i < tops->size() && (*tops)[i].is_object()) {
            for (auto it = (*tops)[i].begin(); it != (*tops)[i].end(); ++it) {
                if (it->is_number()) t.top.push_back({it.key(), it->get<double>(), std::nullopt});
            }
            std::stable_sort(t.top.begin(), t.top.end(), [](const auto& a, const auto& b) { return a.logprob > b.logprob; });
        }
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace

Result<RemoteAnswer> parse_answer(const json& answer) {
    if (!answer.is_object()) return make_error(ErrorCode::Format, "the server's answer is not a JSON object");
    auto choices = answer.find("choices");
    if (choices == answer.end() || !choices->is_array()) {
        return make_error(ErrorCode::Format, "the server's answer has no 'choices' array");
    }
    RemoteAnswer out;
    out.id = string_or(answer, "id");
    out.model = string_or(answer, "model");
    out.fingerprint = string_or(answer, "system_fingerprint");
    if (auto usage = answer.find("usage"); usage != answer.end() && usage->is_object()) {
        RemoteUsage u;
        // A count only when it is an integer: json::value throws on a string there (fuzz_remote_stream).
        const auto count = [&](const char* key) { const auto f = usage->find(key); return f != usage->end() && f->is_number_integer() ? f->get<int64_t>() : int64_t{0}; };
        u.prompt_tokens = count("prompt_tokens");
        u.completion_tokens = count("completion_tokens");
        out.usage = u;
    }
    for (size_t i = 0; i < choices->size(); ++i) {
        const json& c = (*choices)[i];
        if (!c.is_object()) return make_error(ErrorCode::Format, "choices[" + std::to_string(i) + "] is not an object");
        RemoteChoice choice;
        choice.index = c.contains("index") && c["index"].is_number_integer() ? c["index"].get<int>() : static_cast<int>(i);
        const json* text = nullptr;
        if (auto m = c.find("message"); m != c.end() && m->is_object() && m->contains("content")) text = &(*m)["content"];
        if (auto d = c.find("delta"); d != c.end() && d->is_object() && d->contains("content")) text = &(*d)["content"];
        if (auto t = c.find("text"); t != c.end()) text = &*t;
        if (text && !text->is_null()) {
            if (!text->is_string()) return make_error(ErrorCode::Format, "choices[" + std::to_string(i) + "] has text that is not a string");
            choice.text = text->get<std::string>();
        }
        if (auto f = c.find("finish_reason"); f != c.end() && f->is_string()) choice.finish_reason = f->get<std::string>();
        if (auto lp = c.find("logprobs"); lp != c.end() && lp->is_object()) {
            if (auto content = lp->find("content"); content != lp->end() && content->is_array()) {
                choice.tokens = content_tokens(*content);
            } else {
                choice.tokens = legacy_tokens(*lp);
            }
        }
        if (auto ext = c.find("octoscope"); ext != c.end() && ext->is_object()) {
            choice.octoscope = *ext;
            if (auto tokens = ext->find("tokens"); tokens != ext->end() && tokens->is_array()) {
                // Octoscope's server sends a record per token; pair them with the log-probabilities
                // (or stand in for them when none were asked for).
                for (size_t t = 0; t < tokens->size(); ++t) {
                    if (t >= choice.tokens.size()) {
                        RemoteToken token;
                        token.text = string_or((*tokens)[t], "piece");
                        token.id = id_of((*tokens)[t]);
                        choice.tokens.push_back(std::move(token));
                    }
                    choice.tokens[t].octoscope = (*tokens)[t];
                }
                choice.octoscope.erase("tokens");
            }
        }
        out.choices.push_back(std::move(choice));
    }
    return out;
}

std::string error_message(int status, std::string_view body) {
    const json j = json::parse(body.begin(), body.end(), nullptr, false);
    if (j.is_object()) {
        if (auto e = j.find("error"); e != j.end()) {
            if (e->is_object() && e->contains("message") && (*e)["message"].is_string()) return (*e)["message"].get<std::string>();
            if (e->is_string()) return e->get<std::string>();
        }
        if (auto d = j.find("detail"); d != j.end()) return d->is_string() ? d->get<std::string>() : d->dump();
        if (auto m = j.find("message"); m != j.end() && m->is_string()) return m->get<std::string>();
    }
    const std::string start = valid_utf8(body.substr(0, 200));
    if (!start.empty()) return "HTTP " + std::to_string(status) + ": " + start;
    return "HTTP " + std::to_string(status);
}

} // namespace octo::remote
