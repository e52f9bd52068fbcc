#include "engine/serve/openai_request.h"

#include "engine/chat/chat_messages_json.h"
#include "engine/chat/chat_tools.h"
#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/json_schema.h"

#include <cmath>
#include <limits>

namespace octo::serve {

namespace {

using nlohmann::json;

ApiError bad(std::string param, std::string message) {
    ApiError e;
    e.status = 400;
    e.param = std::move(param);
    e.message = std::move(message);
    return e;
}

ApiError wrong_type(const std::string& param, const char* wanted, const json& v) {
    return bad(param, "'" + param + "' must be " + wanted + ", not " + json_type_words(v));
}

// Reads body[key] when present and not null. Each returns the error, or nullopt when fine.
struct Reader {
    const json& body;
    std::string prefix; // "octoscope." for the extension's fields

    const json* get(const char* key) const {
        auto it = body.find(key);
        if (it == body.end() || it->is_null()) return nullptr;
        return &*it;
    }
    std::string name(const char* key) const { return prefix + key; }

    std::optional<ApiError> boolean(const char* key, bool& out) const {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) return wrong_type(name(key), "true or false", *v);
        out = v->get<bool>();
        return std::nullopt;
    }
    // A number in [lo, hi] (open at lo when lo_open).
    std::optional<ApiError> number(const char* key, double lo, bool lo_open, double hi, double& out, bool& given) const {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_number()) return wrong_type(name(key), "a number", *v);
        const double x = v->get<double>();
        if (!std::isfinite(x) || x > hi || (lo_open ? x <= lo : x < lo)) {
            return bad(name(key), "'" + name(key) + "' must be " + (lo_open ? "greater than " : "between ") +
                                      json(lo).dump() + (lo_open ? " and at most " : " and ") + json(hi).dump() +
                                      ", not " + v->dump());
        }
        out = x;
        given = true;
        return std::nullopt;
    }
    std::optional<ApiError> integer(const char* key, int64_t lo, int64_t hi, int64_t& out, bool& given) const {
        const json* v = get(key);
        if (!v) return std::nullopt;
        // 3.0 is an integer to JSON's eyes; 3.5 is not.
        if (v->is_number_float()) {
            const double x = v->get<double>();
            if (!std::isfinite(x) || std::floor(x) != x || std::fabs(x) > 9.0e15) {
                return wrong_type(name(key), "an integer", *v);
            }
        } else if (!v->is_number_integer()) {
            return wrong_type(name(key), "an integer", *v);
        }
        if (v->is_number_unsigned() && v->get<uint64_t>() > static_cast<uint64_t>(hi)) {
            return bad(name(key), "'" + name(key) + "' must be at most " + std::to_string(hi) + ", not " + v->dump());
        }
        const int64_t x = v->is_number_float() ? static_cast<int64_t>(v->get<double>()) : v->get<int64_t>();
        if (x < lo || x > hi) {
            return bad(name(key), "'" + name(key) + "' must be between " + std::to_string(lo) + " and " +
                                      std::to_string(hi) + ", not " + v->dump());
        }
        out = x;
        given = true;
        return std::nullopt;
    }
};

std::optional<ApiError> parse_messages(const json& body, const RequestLimits& limits, std::vector<ChatMessage>& out) {
    auto it = body.find("messages");
    if (it == body.end() || it->is_null()) return bad("messages", "'messages' is missing: a chat request needs at least one message");
    if (!it->is_array()) return wrong_type("messages", "an array of messages", *it);
    if (it->empty()) return bad("messages", "'messages' is empty: a chat request needs at least one message");
    if (it->size() > static_cast<size_t>(limits.max_messages)) {
        ApiError e = bad("messages", "'messages' has " + std::to_string(it->size()) + " entries; this server takes at most " +
                                         std::to_string(limits.max_messages));
        e.status = 413;
        return e;
    }
    if (auto problem = chat_messages_from_json(*it, out)) return bad(problem->param, problem->message);
    return std::nullopt;
}

// prompt: a string, or an array holding one string.
std::optional<ApiError> parse_prompt(const json& body, std::string& out) {
    auto it = body.find("prompt");
    if (it == body.end() || it->is_null()) return bad("prompt", "'prompt' is missing");
    if (it->is_string()) {
        out = it->get<std::string>();
        return std::nullopt;
    }
    if (it->is_array() && it->size() == 1 && (*it)[0].is_string()) {
        out = (*it)[0].get<std::string>();
        return std::nullopt;
    }
    if (it->is_array()) {
        return bad("prompt", "'prompt' must be a string or an array of one string (one prompt per request; "
                             "send several requests, or use 'n' for several completions)");
    }
    return wrong_type("prompt", "a string", *it);
}

// logit_bias: {"token id": bias in [-100, 100], …} (ids as strings, as OpenAI's JSON keys);
// whether an id is in the vocabulary is the server's check (it knows the model).
std::optional<ApiError> parse_logit_bias(const json& body, const RequestLimits& limits, std::vector<std::pair<int32_t, float>>& out) {
    auto it = body.find("logit_bias");
    if (it == body.end() || it->is_null()) return std::nullopt;
    if (!it->is_object()) return wrong_type("logit_bias", "an object of token ids to biases", *it);
    if (it->size() > static_cast<size_t>(limits.max_logit_bias)) {
        return bad("logit_bias", "'logit_bias' has " + std::to_string(it->size()) + " entries; at most " +
                                     std::to_string(limits.max_logit_bias) + " are allowed");
    }
    for (const auto& [key, value] : it->items()) {
        const bool digits = !key.empty() && key.size() <= 10 && key.find_first_not_of("0123456789") == std::string::npos;
        const int64_t id = digits ? std::stoll(key) : -1;
        if (!digits || id > std::numeric_limits<int32_t>::max()) {
            return bad("logit_bias", "'logit_bias' keys are token ids (\"15043\"); '" + key.substr(0, 40) + "' is not one");
        }
        if (!value.is_number() || !(value.get<double>() >= -100.0 && value.get<double>() <= 100.0)) {
            return bad("logit_bias", "'logit_bias' values are numbers from -100 to 100; token " + key + "'s is not");
        }
        out.emplace_back(static_cast<int32_t>(id), value.get<float>());
    }
    return std::nullopt;
}

std::optional<ApiError> parse_stop(const json& body, const RequestLimits& limits, std::vector<std::string>& out) {
    auto it = body.find("stop");
    if (it == body.end() || it->is_null()) return std::nullopt;
    std::vector<json> items;
    if (it->is_string()) {
        items.push_back(*it);
    } else if (it->is_array()) {
        items.assign(it->begin(), it->end());
    } else {
        return wrong_type("stop", "a string or an array of strings", *it);
    }
    if (items.size() > static_cast<size_t>(limits.max_stop)) {
        return bad("stop", "'stop' has " + std::to_string(items.size()) + " strings; at most " +
                               std::to_string(limits.max_stop) + " are allowed");
    }
    for (const json& s : items) {
        if (!s.is_string()) return wrong_type("stop", "a string or an array of strings", s);
        const std::string text = s.get<std::string>();
        if (text.empty()) return bad("stop", "'stop' strings must not be empty");
        if (text.size() > limits.max_stop_bytes) {
            return bad("stop", "'stop' strings may be at most " + std::to_string(limits.max_stop_bytes) + " bytes long");
        }
        out.push_back(text);
    }
    return std::nullopt;
}

// Documented fields that ask for something this server does not do: refused unless neutral.
std::optional<ApiError> refuse_unsupported(const json& body, Endpoint endpoint) {
    const auto present = [&](const char* key) {
        auto it = body.find(key);
        return it != body.end() && !it->is_null();
    };
    for (const char* key : {"functions", "function_call"}) { // OpenAI's deprecated names of tools and tool_choice
        if (present(key)) return bad(key, std::string("'") + key + "' is not supported: send 'tools' and 'tool_choice'");
    }
    if (endpoint == Endpoint::Completion) {
        for (const char* key : {"tools", "tool_choice"}) {
            if (present(key)) return bad(key, std::string("'") + key + "' belongs to /v1/chat/completions");
        }
    }
    for (const char* key : {"audio", "modalities", "prediction"}) {
        if (present(key)) return bad(key, std::string("'") + key + "' is not supported: this server generates text only");
    }
    if (present("min_p") && !(body["min_p"].is_number() && body["min_p"].get<double>() == 0.0)) {
        return bad("min_p", "'min_p' is not supported (only 0); 'top_p' and 'top_k' are");
    }
    if (endpoint == Endpoint::Completion) {
        if (present("echo") && !(body["echo"].is_boolean() && !body["echo"].get<bool>())) {
            return bad("echo", "'echo' is not supported");
        }
        if (present("suffix")) return bad("suffix", "'suffix' (insertion) is not supported");
        if (present("best_of") && !(body["best_of"].is_number_integer() && body["best_of"].get<int64_t>() == 1)) {
            return bad("best_of", "'best_of' other than 1 is not supported; use 'n'");
        }
    }
    return std::nullopt;
}

std::optional<ApiError> parse_octoscope(const json& body, OctoscopeRequest& out, RunSpec& run) {
    auto it = body.find("octoscope");
    if (it == body.end() || it->is_null()) return std::nullopt;
    if (!it->is_object()) return wrong_type("octoscope", "an object", *it);
    out.enabled = true;
    const json& o = *it;
    static const char* const known[] = {"metric", "disable", "ablation", "dla", "heads", "experts", "prompt"};
    for (auto field = o.begin(); field != o.end(); ++field) {
        bool ok = false;
        for (const char* k : known) ok = ok || field.key() == k;
        if (!ok) {
            return bad("octoscope." + field.key(), "'octoscope." + field.key() +
                                                        "' is not an Octoscope option (metric, disable, ablation, dla, "
                                                        "heads, experts, prompt)");
        }
    }
    Reader r{o, "octoscope."};
    if (const json* m = r.get("metric")) {
        if (!m->is_string()) return wrong_type("octoscope.metric", "a metric name", *m);
        out.metric = parse_metric(m->get<std::string>());
        if (!out.metric) {
            return bad("octoscope.metric", "'octoscope.metric' is '" + m->get<std::string>() +
                                               "': the metrics are norm_share, relative, dla, gates and experts");
        }
    }
    if (const json* d = r.get("disable")) {
        if (!d->is_array()) return wrong_type("octoscope.disable", "an array of subsystem ids", *d);
        for (const json& id : *d) {
            const auto s = id.is_string() ? subsystem_index(id.get<std::string>()) : std::nullopt;
            if (!s) return bad("octoscope.disable", "'octoscope.disable' holds " + id.dump() + ": the subsystems are rte-a … rte-h");
            run.disabled[static_cast<size_t>(*s)] = true;
        }
    }
    if (const json* a = r.get("ablation")) {
        if (!a->is_string() || (*a != "zero" && *a != "mean")) {
            return bad("octoscope.ablation", "'octoscope.ablation' must be \"zero\" or \"mean\", not " + a->dump());
        }
        run.ablation_mode = *a == "mean" ? AblationMode::Mean : AblationMode::Zero;
    }
    for (auto [key, flag] : {std::pair{"dla", &run.dla}, {"heads", &out.heads}, {"experts", &out.experts}, {"prompt", &out.prompt}}) {
        if (auto e = r.boolean(key, *flag)) return e;
    }
    if (out.metric == Metric::Dla) run.dla = true;
    return std::nullopt;
}

// response_format (OpenAI: text, json_object, json_schema with its schema; llama.cpp's server also
// takes a "schema" inside json_object) and llama.cpp's "grammar" (GBNF), into run.grammar. The
// schema is read from `ordered` (the body with its keys in the order sent: properties are written
// in the order declared).
std::optional<ApiError> parse_constraint(const json& body, const nlohmann::ordered_json& ordered, RunSpec& run) {
    const auto present = [&](const char* key) {
        auto it = body.find(key);
        return it != body.end() && !it->is_null();
    };
    const auto compile = [&](const nlohmann::ordered_json& schema, const char* param) -> std::optional<ApiError> {
        auto gbnf = json_schema_to_gbnf(schema.dump());
        if (!gbnf) return bad(param, gbnf.error().message);
        run.grammar = std::move(gbnf.value());
        run.json_schema = schema.dump();
        return std::nullopt;
    };
    if (present("response_format")) {
        const json& f = body["response_format"];
        if (!f.is_object()) return wrong_type("response_format", "an object", f);
        const auto type = f.find("type");
        if (type == f.end() || !type->is_string()) {
            return bad("response_format", "'response_format.type' must be \"text\", \"json_object\" or \"json_schema\"");
        }
        const std::string kind = type->get<std::string>();
        const auto& of = ordered["response_format"];
        if (kind == "json_object") {
            if (of.contains("schema") && !of["schema"].is_null()) {
                if (auto e = compile(of["schema"], "response_format")) return e;
            } else {
                run.grammar = json_object_gbnf();
                run.json_schema = std::string(kJsonObjectSchema);
            }
        } else if (kind == "json_schema") {
            if (!of.contains("json_schema") || !of["json_schema"].is_object()) {
                return bad("response_format", "'response_format' of type json_schema needs a 'json_schema' object");
            }
            const auto& js = of["json_schema"];
            if (js.contains("schema") && !js["schema"].is_null()) {
                if (auto e = compile(js["schema"], "response_format")) return e;
            } else {
                run.grammar = json_object_gbnf();
                run.json_schema = std::string(kJsonObjectSchema);
            }
        } else if (kind != "text") {
            return bad("response_format", "'response_format.type' must be \"text\", \"json_object\" or \"json_schema\", not \"" +
                                              kind + "\"");
        }
    }
    if (present("grammar")) {
        if (!run.grammar.empty()) return bad("grammar", "'grammar' and a JSON 'response_format' cannot both constrain a request");
        if (!body["grammar"].is_string()) return wrong_type("grammar", "a string (GBNF)", body["grammar"]);
        const std::string text = body["grammar"].get<std::string>();
        if (!text.empty()) {
            if (auto g = Grammar::parse(text); !g) return bad("grammar", "'grammar': " + g.error().message);
            run.grammar = text;
        }
    }
    return std::nullopt;
}

// tools (read from `ordered`: the templates write them with their keys in the order sent),
// tool_choice (default "auto" with tools) and parallel_tool_calls (true, or false: the formats
// write one call at a time either way when a call is required).
std::optional<ApiError> parse_tools(const json& body, const nlohmann::ordered_json& ordered, RunSpec& run) {
    if (body.contains("tools") && !body["tools"].is_null()) {
        if (auto problem = chat_tools_from_json(ordered["tools"], run.tools)) return bad(problem->param, problem->message);
    }
    if (body.contains("tool_choice") && !body["tool_choice"].is_null()) {
        if (auto problem = tool_choice_from_json(body["tool_choice"], run.tools, run.tool_choice)) return bad(problem->param, problem->message);
    }
    if (body.contains("parallel_tool_calls") && !body["parallel_tool_calls"].is_null() && !body["parallel_tool_calls"].is_boolean()) {
        return wrong_type("parallel_tool_calls", "true or false", body["parallel_tool_calls"]);
    }
    return std::nullopt;
}

std::optional<ApiError> parse_into(const json& body, Endpoint endpoint, const RequestLimits& limits, CompletionRequest& q) {
    q.endpoint = endpoint;
    Reader r{body, ""};
    if (const json* m = r.get("model")) {
        if (!m->is_string()) return wrong_type("model", "a string", *m);
        q.model = m->get<std::string>();
    }
    if (auto e = refuse_unsupported(body, endpoint)) return e;
    if (endpoint == Endpoint::Chat) {
        if (auto e = parse_messages(body, limits, q.run.messages)) return e;
        if (body.contains("prompt")) return bad("prompt", "'prompt' belongs to /v1/completions; a chat request sends 'messages'");
        if (const json* level = r.get("reasoning_effort")) { // the harmony format's reasoning level (gpt-oss)
            if (!level->is_string()) return wrong_type("reasoning_effort", "a string", *level);
            const auto parsed = parse_reasoning_effort(level->get<std::string>());
            if (!parsed) {
                return bad("reasoning_effort", "'reasoning_effort' must be \"low\", \"medium\" or \"high\", not " + level->dump());
            }
            q.run.reasoning_effort = *parsed;
        }
    } else {
        if (auto e = parse_prompt(body, q.run.prompt)) return e;
        if (body.contains("messages")) return bad("messages", "'messages' belongs to /v1/chat/completions; /v1/completions takes 'prompt'");
    }

    int64_t max_tokens = limits.max_tokens;
    bool given = false;
    const char* max_key = endpoint == Endpoint::Chat && r.get("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
    if (auto e = r.integer(max_key, 1, limits.max_tokens, max_tokens, given)) return e;
    q.run.max_tokens = max_tokens;
    q.max_tokens_given = given;

    double temperature = 1.0, top_p = 1.0, repetition = 1.0;
    bool unused = false;
    if (auto e = r.number("temperature", 0.0, false, 2.0, temperature, unused)) return e;
    if (auto e = r.number("top_p", 0.0, true, 1.0, top_p, unused)) return e;
    if (auto e = r.number("repetition_penalty", 0.0, true, 10.0, repetition, unused)) return e;
    int64_t top_k = 0, seed = 0, n = 1;
    if (auto e = r.integer("top_k", 0, 1'000'000, top_k, unused)) return e;
    if (auto e = r.integer("seed", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), seed, q.seed_given)) return e;
    if (auto e = r.integer("n", 1, limits.max_choices, n, unused)) return e;
    q.run.sampling.temperature = static_cast<float>(temperature);
    q.run.sampling.top_p = static_cast<float>(top_p);
    q.run.sampling.top_k = static_cast<int32_t>(top_k);
    q.run.sampling.seed = static_cast<uint64_t>(seed);
    q.run.sampling.repeat_penalty = static_cast<float>(repetition);
    double frequency = 0.0, presence = 0.0;
    if (auto e = r.number("frequency_penalty", -2.0, false, 2.0, frequency, unused)) return e;
    if (auto e = r.number("presence_penalty", -2.0, false, 2.0, presence, unused)) return e;
    q.run.sampling.frequency_penalty = static_cast<float>(frequency);
    q.run.sampling.presence_penalty = static_cast<float>(presence);
    if (auto e = parse_logit_bias(body, limits, q.run.sampling.logit_bias)) return e;
    q.n = static_cast<int>(n);
    if (auto e = validate_sampler_config(q.run.sampling); !e) return bad("", e.error().message);

    if (auto e = parse_stop(body, limits, q.run.stop_strings)) return e;

    if (endpoint == Endpoint::Chat) {
        if (auto e = r.boolean("logprobs", q.logprobs)) return e;
        int64_t top = 0;
        bool top_given = false;
        if (auto e = r.integer("top_logprobs", 0, limits.max_top_logprobs, top, top_given)) return e;
        if (top_given && !q.logprobs) return bad("top_logprobs", "'top_logprobs' needs 'logprobs': true");
        q.top_logprobs = static_cast<int>(top);
    } else {
        int64_t top = 0;
        bool top_given = false;
        if (const json* lp = r.get("logprobs"); lp && lp->is_boolean()) {
            return bad("logprobs", "'logprobs' of /v1/completions is the number of alternatives (0–5), not a boolean");
        }
        if (auto e = r.integer("logprobs", 0, 5, top, top_given)) return e;
        q.logprobs = top_given;
        q.top_logprobs = static_cast<int>(top);
    }

    if (auto e = r.boolean("stream", q.stream)) return e;
    if (const json* so = r.get("stream_options")) {
        if (!so->is_object()) return wrong_type("stream_options", "an object", *so);
        if (!q.stream) return bad("stream_options", "'stream_options' needs 'stream': true");
        Reader sr{*so, "stream_options."};
        if (auto e = sr.boolean("include_usage", q.include_usage)) return e;
    }
    q.run.top_logprobs = static_cast<size_t>(std::max(5, q.top_logprobs)); // the answer's alternatives come from these
    q.run.record_attention = false;
    return parse_octoscope(body, q.octoscope, q.run);
}

} // namespace

const char* endpoint_path(Endpoint endpoint) {
    return endpoint == Endpoint::Chat ? "/v1/chat/completions" : "/v1/completions";
}

nlohmann::json error_json(const ApiError& e) {
    return {{"error",
             {{"message", e.message},
              {"type", e.type},
              {"param", e.param.empty() ? json(nullptr) : json(e.param)},
              {"code", e.code.empty() ? json(nullptr) : json(e.code)}}}};
}

namespace {

std::variant<json, ApiError> json_object_body(std::string_view body) {
    json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
        return bad("", "the request body is not valid JSON (send a JSON object with Content-Type: application/json)");
    }
    if (!parsed.is_object()) return bad("", "the request body must be a JSON object, not " + json_type_words(parsed));
    return parsed;
}

} // namespace

std::variant<TokenizeRequest, ApiError> parse_tokenize_request(std::string_view body, const RequestLimits& limits) {
    auto parsed = json_object_body(body);
    if (auto* e = std::get_if<ApiError>(&parsed)) return *e;
    const json& j = std::get<json>(parsed);
    TokenizeRequest t;
    const Reader r{j, ""};
    const char* text_key = j.contains("content") ? "content" : "prompt";
    if (j.contains("messages") && !j["messages"].is_null()) {
        if (j.contains("content") || j.contains("prompt")) return bad("messages", "send 'messages' or a text ('content', 'prompt'), not both");
        if (auto e = parse_messages(j, limits, t.messages)) return *e;
    } else {
        const json* text = r.get(text_key);
        if (!text) return bad("content", "'content' (or 'prompt', or 'messages') is missing: what is there to tokenize?");
        if (!text->is_string()) return wrong_type(text_key, "a string", *text);
        t.text = text->get<std::string>();
    }
    if (auto e = r.boolean(j.contains("add_special") ? "add_special" : "add_special_tokens", t.add_special)) return *e;
    if (auto e = r.boolean("with_pieces", t.with_pieces)) return *e;
    return t;
}

std::variant<std::vector<int32_t>, ApiError> parse_detokenize_request(std::string_view body, size_t max_tokens) {
    auto parsed = json_object_body(body);
    if (auto* e = std::get_if<ApiError>(&parsed)) return *e;
    const json& j = std::get<json>(parsed);
    const auto it = j.find("tokens");
    if (it == j.end() || it->is_null()) return bad("tokens", "'tokens' is missing: an array of token ids");
    if (!it->is_array()) return wrong_type("tokens", "an array of token ids", *it);
    if (it->size() > max_tokens) return bad("tokens", "'tokens' has more than " + std::to_string(max_tokens) + " ids");
    std::vector<int32_t> ids;
    ids.reserve(it->size());
    for (const json& id : *it) {
        if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > std::numeric_limits<int32_t>::max()) {
            return bad("tokens", "'tokens' holds " + id.dump().substr(0, 40) + ", which is not a token id");
        }
        ids.push_back(static_cast<int32_t>(id.get<int64_t>()));
    }
    return ids;
}

std::variant<EmbeddingsRequest, ApiError> parse_embeddings_request(std::string_view body, size_t max_inputs) {
    auto parsed = json_object_body(body);
    if (auto* e = std::get_if<ApiError>(&parsed)) return *e;
    const json& j = std::get<json>(parsed);
    EmbeddingsRequest q;
    const Reader r{j, ""};
    if (const json* m = r.get("model")) {
        if (!m->is_string()) return wrong_type("model", "a string", *m);
        q.model = m->get<std::string>();
    }
    const json* input = r.get("input");
    if (!input) return bad("input", "'input' is missing: a string or an array of strings");
    if (input->is_string()) {
        q.inputs.push_back(input->get<std::string>());
    } else if (input->is_array()) {
        if (input->empty()) return bad("input", "'input' is empty");
        if (input->size() > max_inputs) {
            return bad("input", "'input' has " + std::to_string(input->size()) + " texts; at most " + std::to_string(max_inputs) +
                                    " per request");
        }
        for (const json& item : *input) {
            if (item.is_number_integer() || item.is_array()) {
                return bad("input", "'input' as token ids is not supported: send the text (POST /detokenize turns ids into text)");
            }
            if (!item.is_string()) return wrong_type("input", "a string or an array of strings", item);
            q.inputs.push_back(item.get<std::string>());
        }
    } else {
        return wrong_type("input", "a string or an array of strings", *input);
    }
    if (const json* f = r.get("encoding_format")) {
        if (!f->is_string() || (f->get<std::string>() != "float" && f->get<std::string>() != "base64")) {
            return bad("encoding_format", "'encoding_format' is \"float\" or \"base64\"");
        }
        q.base64 = f->get<std::string>() == "base64";
    }
    if (r.get("dimensions")) return bad("dimensions", "'dimensions' is not supported: the vectors have the model's width");
    return q;
}

std::variant<CompletionRequest, ApiError> parse_completion_request(std::string_view body, Endpoint endpoint,
                                                                   const RequestLimits& limits) {
    const json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
        return bad("", "the request body is not valid JSON (send a JSON object with Content-Type: application/json)");
    }
    if (!parsed.is_object()) return bad("", "the request body must be a JSON object, not " + json_type_words(parsed));
    CompletionRequest q;
    if (auto e = parse_into(parsed, endpoint, limits, q)) return *e;
    if (parsed.contains("response_format") || parsed.contains("grammar") || parsed.contains("tools") || parsed.contains("tool_choice") ||
        parsed.contains("parallel_tool_calls")) {
        const auto ordered = nlohmann::ordered_json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
        if (auto e = parse_constraint(parsed, ordered, q.run)) return *e;
        if (endpoint == Endpoint::Chat) {
            if (auto e = parse_tools(parsed, ordered, q.run)) return *e;
        }
    }
    return q;
}

} // namespace octo::serve
