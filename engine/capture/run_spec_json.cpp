#include "engine/capture/run_spec_json.h"

#include <limits>
#include <type_traits>

#include "engine/chat/chat_tools.h"

namespace octo {

using nlohmann::json;

namespace {

constexpr int64_t kMaxId = (int64_t{1} << 31) - 1;
constexpr int64_t kMaxThreads = 1 << 16;
constexpr size_t kMaxItems = size_t{1} << 26; // stop strings, messages, expert switches
constexpr int64_t kMaxTopLogprobs = 1 << 10;

// The range a reader accepts for an integer field; nullopt: the type's whole range.
std::optional<std::pair<int64_t, int64_t>> int_range(std::string_view key) {
    if (key == "max_tokens") return std::pair{int64_t{0}, std::numeric_limits<int64_t>::max()};
    if (key == "top_k" || key == "repeat_last_n" || key == "n_ctx") return std::pair{int64_t{0}, kMaxId};
    if (key == "top_logprobs") return std::pair{int64_t{0}, kMaxTopLogprobs};
    if (key == "threads") return std::pair{int64_t{0}, kMaxThreads};
    return std::nullopt;
}

// v(names[i], member i) for every member of `part`, bound with one structured binding of as
// many names as are given: a part with another number of members does not compile.
template <size_t N, class Part, class V>
void members(Part& part, const char* const (&names)[N], V& v) {
    if constexpr (N == 3) {
        auto& [a, b, c] = part;
        v(names[0], a), v(names[1], b), v(names[2], c);
    } else if constexpr (N == 4) {
        auto& [a, b, c, d] = part;
        v(names[0], a), v(names[1], b), v(names[2], c), v(names[3], d);
    } else if constexpr (N == 5) {
        auto& [a, b, c, d, e] = part;
        v(names[0], a), v(names[1], b), v(names[2], c), v(names[3], d), v(names[4], e);
    } else if constexpr (N == 6) {
        auto& [a, b, c, d, e, f] = part;
        v(names[0], a), v(names[1], b), v(names[2], c), v(names[3], d), v(names[4], e), v(names[5], f);
    } else if constexpr (N == 7) {
        auto& [a, b, c, d, e, f, g] = part;
        v(names[0], a), v(names[1], b), v(names[2], c), v(names[3], d), v(names[4], e), v(names[5], f), v(names[6], g);
    } else if constexpr (N == 9) {
        auto& [a, b, c, d, e, f, g, h, i] = part;
        v(names[0], a), v(names[1], b), v(names[2], c), v(names[3], d), v(names[4], e), v(names[5], f), v(names[6], g), v(names[7], h),
            v(names[8], i);
    } else {
        static_assert(N == 0, "a part of this many members: add a case");
    }
}

template <class Spec, class Part>
using PartOf = std::conditional_t<std::is_const_v<Spec>, const Part, Part>;

// Calls v(key, member) for every field of `s`: each part's members in declaration order, named
// by its key (SamplerConfig's inside "sampling").
template <class Spec, class V>
void each_field(Spec& s, V&& v) {
    static constexpr const char* prompt[] = {"prompt", "chat", "system", "enable_thinking", "reasoning_effort", "parse_special",
                                             "messages", "tools", "tool_choice"};
    members(static_cast<PartOf<Spec, PromptSpec>&>(s), prompt, v);

    auto& generation = static_cast<PartOf<Spec, GenerationSpec>&>(s);
    const auto generation_and_sampling = [&](const char* key, auto& member) {
        if constexpr (std::is_same_v<std::remove_const_t<std::remove_reference_t<decltype(member)>>, SamplerConfig>) {
            static constexpr const char* sampling[] = {"temperature",    "seed",          "top_k",
                                                       "top_p",          "repeat_penalty", "repeat_last_n",
                                                       "frequency_penalty", "presence_penalty", "logit_bias"};
            members(member, sampling, v);
        } else {
            v(key, member);
        }
    };
    static constexpr const char* generation_keys[] = {"max_tokens", "stop_strings", "stop_at_eog", "sampling", "top_logprobs", "grammar",
                                                      "json_schema"};
    members(generation, generation_keys, generation_and_sampling);

    static constexpr const char* measurement[] = {"dla", "record_attention", "record_router_probs", "attention_keeps_kv"};
    members(static_cast<PartOf<Spec, MeasurementSpec>&>(s), measurement, v);
    static constexpr const char* ablation[] = {"disabled", "ablation_mode", "disabled_experts", "switch_target"};
    members(static_cast<PartOf<Spec, AblationSpec>&>(s), ablation, v);
    static constexpr const char* execution[] = {"precision", "n_ctx", "threads", "kv_type_k", "kv_type_v"};
    members(static_cast<PartOf<Spec, ExecutionSpec>&>(s), execution, v);
}

class Writer {
public:
    Writer(json& out, ByteStrings bytes) : out_(out), bytes_(bytes) {}

    void operator()(const char* key, const std::string& s) { out_[key] = byte_string(s); }
    void operator()(const char* key, const std::vector<std::string>& list) {
        json a = json::array();
        for (const std::string& s : list) a.push_back(byte_string(s));
        out_[key] = std::move(a);
    }
    void operator()(const char* key, const std::vector<ChatMessage>& messages) {
        json a = json::array();
        for (const ChatMessage& m : messages) {
            json item = {{"role", chat_role_name(m.role)}, {"content", byte_string(m.content)}};
            if (!m.tool_calls.empty()) {
                json calls = json::array();
                for (const ToolCall& c : m.tool_calls) {
                    calls.push_back({{"id", byte_string(c.id)}, {"name", byte_string(c.name)}, {"arguments", byte_string(c.arguments)}});
                }
                item["tool_calls"] = std::move(calls);
            }
            if (m.role == ChatRole::Tool) {
                item["tool_call_id"] = byte_string(m.tool_call_id);
                item["name"] = byte_string(m.name);
            }
            a.push_back(std::move(item));
        }
        out_[key] = std::move(a);
    }
    void operator()(const char* key, const std::vector<ChatTool>& tools) {
        json a = json::array();
        for (const ChatTool& t : tools) {
            a.push_back({{"name", byte_string(t.name)},
                         {"description", byte_string(t.description)},
                         {"parameters", byte_string(t.parameters)},
                         {"declaration", byte_string(t.declaration)}});
        }
        out_[key] = std::move(a);
    }
    void operator()(const char* key, const ToolChoice& choice) { out_[key] = tool_choice_text(choice); }
    void operator()(const char* key, const std::vector<ExpertSwitch>& switches) {
        json a = json::array();
        for (const ExpertSwitch& e : switches) a.push_back(expert_switch_text(e));
        out_[key] = std::move(a);
    }
    void operator()(const char* key, const std::vector<std::pair<int32_t, float>>& biases) {
        json a = json::array();
        for (const auto& [id, bias] : biases) a.push_back(json::array({id, bias}));
        out_[key] = std::move(a);
    }
    void operator()(const char* key, AblationMode m) { out_[key] = ablation_mode_name(m); }
    void operator()(const char* key, SwitchTarget t) { out_[key] = switch_target_name(t); }
    void operator()(const char* key, ReasoningEffort e) { out_[key] = reasoning_effort_name(e); }
    void operator()(const char* key, const std::optional<Precision>& p) {
        out_[key] = p ? std::string(precision_name(*p)) : std::string("default");
    }
    void operator()(const char* key, const std::optional<TensorType>& kv_type) {
        out_[key] = kv_type ? std::string(kv_type_name(*kv_type)) : std::string("default");
    }
    template <class T> // bool, float, integers, std::array<bool, 8>
    void operator()(const char* key, const T& value) {
        out_[key] = value;
    }

private:
    json byte_string(const std::string& s) const {
        return bytes_ == ByteStrings::Binary ? json::binary(std::vector<uint8_t>(s.begin(), s.end())) : json(s);
    }

    json& out_;
    ByteStrings bytes_;
};

// An array item that is a byte string or a text string.
std::optional<std::string> item_bytes(const json& item) {
    if (item.is_string()) return item.get<std::string>();
    if (item.is_binary()) return std::string(item.get_binary().begin(), item.get_binary().end());
    return std::nullopt;
}

class Reader {
public:
    Reader(FieldReader& r, const std::function<bool(std::string_view)>& may_be_absent) : r_(r), may_be_absent_(may_be_absent) {}

    template <class T>
    void operator()(const char* key, T& field) {
        if (!r_.ok()) return;
        if (may_be_absent_(key) && !r_.has(key)) return;
        read(key, field);
    }

private:
    void read(const char* key, std::string& s) { s = r_.bytes_or_text(key); }
    void read(const char* key, bool& b) { b = r_.boolean(key); }
    void read(const char* key, float& f) { f = static_cast<float>(r_.number(key)); }
    template <class T>
        requires std::is_integral_v<T>
    void read(const char* key, T& value) {
        if (const auto range = int_range(key)) {
            value = static_cast<T>(r_.integer(key, range->first, range->second));
        } else if constexpr (std::is_unsigned_v<T>) {
            value = static_cast<T>(r_.unsigned_integer(key));
        } else {
            value = static_cast<T>(r_.integer(key, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
        }
    }
    void read(const char* key, std::vector<std::string>& list) {
        const json& a = r_.array(key, kMaxItems);
        list.clear();
        for (size_t i = 0; i < a.size() && r_.ok(); ++i) {
            auto s = item_bytes(a[i]);
            if (!s) return r_.fail(key, "item " + std::to_string(i) + " is not a byte string");
            list.push_back(std::move(*s));
        }
    }
    void read(const char* key, std::vector<ChatMessage>& messages) {
        const json& a = r_.array(key, kMaxItems);
        messages.clear();
        for (size_t i = 0; i < a.size() && r_.ok(); ++i) {
            const json& m = a[i];
            std::optional<std::string> content;
            std::optional<ChatRole> role;
            if (m.is_object() && m.contains("content")) content = item_bytes(m["content"]);
            if (m.is_object() && m.contains("role") && m["role"].is_string()) {
                for (ChatRole c : {ChatRole::System, ChatRole::User, ChatRole::Assistant, ChatRole::Tool}) {
                    if (m["role"].get<std::string>() == chat_role_name(c)) role = c;
                }
            }
            if (!content || !role) return r_.fail(key, "item " + std::to_string(i) + " is not a {\"role\", \"content\"} message");
            ChatMessage message(*role, std::move(*content));
            const auto text_of = [&](const json& object, const char* field, std::string& out) {
                if (!object.contains(field)) return true;
                auto bytes = item_bytes(object[field]);
                if (bytes) out = std::move(*bytes);
                return bytes.has_value();
            };
            bool ok = text_of(m, "tool_call_id", message.tool_call_id) && text_of(m, "name", message.name);
            if (ok && m.contains("tool_calls")) {
                ok = m["tool_calls"].is_array() && m["tool_calls"].size() <= kMaxItems;
                for (size_t k = 0; ok && k < m["tool_calls"].size(); ++k) {
                    const json& c = m["tool_calls"][k];
                    ToolCall call;
                    ok = c.is_object() && text_of(c, "id", call.id) && text_of(c, "name", call.name) && text_of(c, "arguments", call.arguments);
                    message.tool_calls.push_back(std::move(call));
                }
            }
            if (!ok) return r_.fail(key, "item " + std::to_string(i) + " has malformed tool calls");
            messages.push_back(std::move(message));
        }
    }
    void read(const char* key, std::vector<ChatTool>& tools) {
        const json& a = r_.array(key, kMaxItems);
        tools.clear();
        for (size_t i = 0; i < a.size() && r_.ok(); ++i) {
            const json& t = a[i];
            ChatTool tool;
            bool ok = t.is_object();
            for (auto [field, out] : {std::pair{"name", &tool.name}, {"description", &tool.description}, {"parameters", &tool.parameters},
                                      {"declaration", &tool.declaration}}) {
                if (!ok) break;
                auto bytes = t.contains(field) ? item_bytes(t[field]) : std::nullopt;
                ok = bytes.has_value();
                if (ok) *out = std::move(*bytes);
            }
            if (!ok || tool.name.empty()) return r_.fail(key, "item " + std::to_string(i) + " is not a {\"name\", \"description\", \"parameters\", \"declaration\"} tool");
            tools.push_back(std::move(tool));
        }
    }
    void read(const char* key, ToolChoice& choice) {
        const auto parsed = parse_tool_choice_text(r_.text(key));
        if (!r_.ok()) return;
        if (!parsed) return r_.fail(key, "is not auto, none, required or function:NAME");
        choice = *parsed;
    }
    void read(const char* key, std::vector<ExpertSwitch>& switches) {
        switches.clear();
        for (const std::string& text : r_.texts(key, kMaxItems)) {
            auto e = parse_expert_switch(text);
            if (!e) return r_.fail(key, e.error().message);
            switches.push_back(e.value());
        }
    }
    void read(const char* key, std::array<bool, kSubsystemCount>& disabled) {
        const json& a = r_.array(key, kSubsystemCount);
        if (r_.ok() && a.size() != kSubsystemCount) return r_.fail(key, "does not hold 8 values");
        for (size_t i = 0; i < a.size() && r_.ok(); ++i) {
            if (!a[i].is_boolean()) return r_.fail(key, "item " + std::to_string(i) + " is not a boolean");
            disabled[i] = a[i].get<bool>();
        }
    }
    void read(const char* key, std::vector<std::pair<int32_t, float>>& biases) {
        const json& a = r_.array(key, kMaxItems);
        biases.clear();
        for (size_t i = 0; i < a.size() && r_.ok(); ++i) {
            const json& b = a[i];
            if (!b.is_array() || b.size() != 2 || !b[0].is_number_integer() || !b[1].is_number() || b[0].get<int64_t>() < 0 ||
                b[0].get<int64_t>() > kMaxId) {
                return r_.fail(key, "item " + std::to_string(i) + " is not an [id, bias] pair");
            }
            biases.emplace_back(static_cast<int32_t>(b[0].get<int64_t>()), b[1].get<float>());
        }
    }
    void read(const char* key, AblationMode& m) {
        m = enum_field(r_, key, {AblationMode::Zero, AblationMode::Mean}, ablation_mode_name);
    }
    void read(const char* key, SwitchTarget& t) {
        t = enum_field(r_, key, {SwitchTarget::Heads, SwitchTarget::Experts}, switch_target_name);
    }
    void read(const char* key, ReasoningEffort& e) {
        const auto parsed = parse_reasoning_effort(r_.text(key));
        if (!r_.ok()) return;
        if (!parsed) return r_.fail(key, "is not low, medium or high");
        e = *parsed;
    }
    void read(const char* key, std::optional<Precision>& p) { p = named_or_default(key, parse_precision, "a known value"); }
    void read(const char* key, std::optional<TensorType>& kv_type) {
        kv_type = named_or_default(key, parse_kv_type, "a KV cache type (f32, f16, q8_0 or q4_0)");
    }

    // "default" (nullopt) or a name `parse` knows; another name fails the reader.
    template <class Parse>
    auto named_or_default(const char* key, Parse parse, const char* what) -> decltype(parse(std::string_view{})) {
        const std::string name = r_.text(key);
        if (!r_.ok() || name == "default") return std::nullopt;
        auto parsed = parse(name);
        if (!parsed) r_.fail(key, "\"" + name + "\" is not " + what);
        return parsed;
    }

    FieldReader& r_;
    const std::function<bool(std::string_view)>& may_be_absent_;
};

} // namespace

json run_spec_json(const RunSpec& spec, ByteStrings bytes) {
    json out = json::object();
    each_field(spec, Writer(out, bytes));
    return out;
}

void read_run_spec(FieldReader& r, RunSpec& spec, const std::function<bool(std::string_view key)>& may_be_absent) {
    each_field(spec, Reader(r, may_be_absent));
    if (r.ok()) {
        if (auto valid = validate_sampler_config(spec.sampling); !valid) {
            r.fail("temperature", "or another sampling setting is invalid: " + valid.error().message);
        }
    }
}

std::vector<std::string_view> run_spec_keys() {
    std::vector<std::string_view> keys;
    RunSpec s;
    each_field(s, [&](const char* key, const auto&) { keys.emplace_back(key); });
    return keys;
}

} // namespace octo
