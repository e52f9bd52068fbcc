#include "engine/chat/chat_messages_json.h"

#include "engine/core/file_bytes.h"
#include "engine/core/utf8_text.h"

namespace octo {

namespace {

using nlohmann::json;

MessagesProblem wrong_type(const std::string& param, const char* wanted, const json& v) {
    return {param, "'" + param + "' must be " + wanted + ", not " + json_type_words(v)};
}

// content: a string, or an array of {"type": "text", "text": "..."} parts (joined).
std::optional<MessagesProblem> message_content(const json& m, const std::string& where, std::string& out) {
    auto it = m.find("content");
    if (it == m.end() || it->is_null()) return MessagesProblem{where + ".content", "'" + where + ".content' is missing"};
    if (it->is_string()) {
        out = it->get<std::string>();
        return std::nullopt;
    }
    if (!it->is_array()) return wrong_type(where + ".content", "a string or an array of text parts", *it);
    out.clear();
    for (size_t i = 0; i < it->size(); ++i) {
        const json& part = (*it)[i];
        const std::string at = where + ".content[" + std::to_string(i) + "]";
        if (!part.is_object()) return wrong_type(at, "an object", part);
        auto type = part.find("type");
        if (type == part.end() || !type->is_string()) return MessagesProblem{at + ".type", "'" + at + ".type' must be a string"};
        if (*type != "text") {
            return MessagesProblem{at + ".type", "'" + at + ".type' is '" + type->get<std::string>() +
                                                     "': only text parts are supported (Octoscope runs text models)"};
        }
        auto text = part.find("text");
        if (text == part.end() || !text->is_string()) return MessagesProblem{at + ".text", "'" + at + ".text' must be a string"};
        out += text->get<std::string>();
    }
    return std::nullopt;
}

} // namespace

namespace {

// tool_calls: [{"id", "type": "function", "function": {"name", "arguments": JSON text or an object}}, …]
std::optional<MessagesProblem> message_tool_calls(const json& calls, const std::string& where, std::vector<ToolCall>& out) {
    if (!calls.is_array()) return wrong_type(where, "an array of tool calls", calls);
    for (size_t i = 0; i < calls.size(); ++i) {
        const json& c = calls[i];
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!c.is_object()) return wrong_type(at, "an object", c);
        const auto f = c.find("function");
        if (f == c.end() || !f->is_object()) return MessagesProblem{at + ".function", "'" + at + ".function' must be an object"};
        ToolCall call;
        if (c.contains("id") && !c["id"].is_null()) {
            if (!c["id"].is_string()) return wrong_type(at + ".id", "a string", c["id"]);
            call.id = c["id"].get<std::string>();
        }
        const auto name = f->find("name");
        if (name == f->end() || !name->is_string() || name->get<std::string>().empty()) {
            return MessagesProblem{at + ".function.name", "'" + at + ".function.name' must be the function's name"};
        }
        call.name = name->get<std::string>();
        const auto args = f->find("arguments");
        if (args == f->end() || args->is_null()) {
            call.arguments = "{}";
        } else if (args->is_string()) {
            call.arguments = args->get<std::string>();
        } else if (args->is_object()) {
            call.arguments = args->dump(-1, ' ', false, json::error_handler_t::replace);
        } else {
            return wrong_type(at + ".function.arguments", "a JSON object's text", *args);
        }
        out.push_back(std::move(call));
    }
    return std::nullopt;
}

} // namespace

std::optional<MessagesProblem> chat_messages_from_json(const json& messages, std::vector<ChatMessage>& out,
                                                       const std::string& path) {
    if (!messages.is_array()) return wrong_type(path, "an array of messages", messages);
    for (size_t i = 0; i < messages.size(); ++i) {
        const json& m = messages[i];
        const std::string where = path + "[" + std::to_string(i) + "]";
        if (!m.is_object()) return wrong_type(where, "an object", m);
        auto role = m.find("role");
        if (role == m.end() || role->is_null()) return MessagesProblem{where + ".role", "'" + where + ".role' is missing"};
        if (!role->is_string()) return wrong_type(where + ".role", "a string", *role);
        const std::string r = role->get<std::string>();
        ChatMessage message;
        if (r == "system" || r == "developer") {
            message.role = ChatRole::System;
        } else if (r == "user") {
            message.role = ChatRole::User;
        } else if (r == "assistant") {
            message.role = ChatRole::Assistant;
        } else if (r == "tool") {
            message.role = ChatRole::Tool;
        } else {
            return MessagesProblem{where + ".role", "'" + where + ".role' is '" + r +
                                                        "': the roles are system, developer, user, assistant and tool"};
        }
        const bool has_calls = m.contains("tool_calls") && !m["tool_calls"].is_null();
        if (has_calls) {
            if (message.role != ChatRole::Assistant) {
                return MessagesProblem{where + ".tool_calls", "'" + where + ".tool_calls': only an assistant message makes tool calls"};
            }
            if (auto e = message_tool_calls(m["tool_calls"], where + ".tool_calls", message.tool_calls)) return e;
        }
        if (message.role == ChatRole::Tool) {
            const auto id = m.find("tool_call_id");
            if (id != m.end() && !id->is_null()) {
                if (!id->is_string()) return wrong_type(where + ".tool_call_id", "a string", *id);
                message.tool_call_id = id->get<std::string>();
            }
            if (m.contains("name") && m["name"].is_string()) message.name = m["name"].get<std::string>();
        }
        // An assistant message that only calls tools may have no content (OpenAI sends null).
        const bool content_optional = has_calls && (!m.contains("content") || m["content"].is_null());
        if (!content_optional) {
            if (auto e = message_content(m, where, message.content)) return e;
        }
        out.push_back(std::move(message));
    }
    return std::nullopt;
}

Result<std::vector<ChatMessage>> read_conversation_file(const std::string& path) {
    auto bytes = read_file_bytes(path, "conversation file");
    if (!bytes) return bytes.error();
    return parse_conversation_file(bytes.value(), path);
}

Result<std::vector<ChatMessage>> parse_conversation_file(std::string_view text, const std::string& name) {
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) return make_error(ErrorCode::Format, name + " is not JSON");
    const json* messages = &j;
    if (j.is_object()) {
        if (!j.contains("messages")) return make_error(ErrorCode::Format, name + " has no \"messages\" array");
        messages = &j["messages"];
    }
    std::vector<ChatMessage> out;
    if (auto problem = chat_messages_from_json(*messages, out)) return make_error(ErrorCode::Format, name + ": " + problem->message);
    if (out.empty()) return make_error(ErrorCode::Format, name + ": the conversation has no messages");
    return out;
}

std::string conversation_file_text(const std::vector<ChatMessage>& messages) {
    return json{{"messages", chat_messages_json(messages)}}.dump(2) + "\n";
}

std::string json_type_words(const json& v) {
    switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float: return "a number";
    default: return "an integer";
    }
}

json chat_messages_json(const std::vector<ChatMessage>& messages) {
    json out = json::array();
    for (const ChatMessage& m : messages) {
        json item = {{"role", chat_role_name(m.role)}, {"content", valid_utf8(m.content)}};
        if (!m.tool_calls.empty()) {
            if (m.content.empty()) item["content"] = nullptr;
            item["tool_calls"] = tool_calls_json(m.tool_calls);
        }
        if (m.role == ChatRole::Tool) {
            item["tool_call_id"] = valid_utf8(m.tool_call_id);
            if (!m.name.empty()) item["name"] = valid_utf8(m.name);
        }
        out.push_back(std::move(item));
    }
    return out;
}

json tool_calls_json(const std::vector<ToolCall>& calls) {
    json out = json::array();
    for (const ToolCall& c : calls) {
        out.push_back({{"id", valid_utf8(c.id)},
                       {"type", "function"},
                       {"function", {{"name", valid_utf8(c.name)}, {"arguments", valid_utf8(c.arguments)}}}});
    }
    return out;
}

} // namespace octo
