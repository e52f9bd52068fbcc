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
        ChatMessage message{ChatRole::User, {}};
        if (r == "system" || r == "developer") {
            message.role = ChatRole::System;
        } else if (r == "user") {
            message.role = ChatRole::User;
        } else if (r == "assistant") {
            message.role = ChatRole::Assistant;
        } else {
            return MessagesProblem{where + ".role", "'" + where + ".role' is '" + r +
                                                        "': the roles are system, developer, user and assistant (tools are not supported)"};
        }
        if (m.contains("tool_calls") && !m["tool_calls"].is_null()) {
            return MessagesProblem{where + ".tool_calls", "'" + where + ".tool_calls': tools are not supported"};
        }
        if (auto e = message_content(m, where, message.content)) return e;
        out.push_back(std::move(message));
    }
    return std::nullopt;
}

Result<std::vector<ChatMessage>> read_conversation_file(const std::string& path) {
    auto bytes = read_file_bytes(path, "conversation file");
    if (!bytes) return bytes.error();
    const json j = json::parse(bytes.value(), nullptr, false);
    if (j.is_discarded()) return make_error(ErrorCode::Format, path + " is not JSON");
    const json* messages = &j;
    if (j.is_object()) {
        if (!j.contains("messages")) return make_error(ErrorCode::Format, path + " has no \"messages\" array");
        messages = &j["messages"];
    }
    std::vector<ChatMessage> out;
    if (auto problem = chat_messages_from_json(*messages, out)) return make_error(ErrorCode::Format, path + ": " + problem->message);
    if (out.empty()) return make_error(ErrorCode::Format, path + ": the conversation has no messages");
    return out;
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
    for (const ChatMessage& m : messages) out.push_back({{"role", chat_role_name(m.role)}, {"content", valid_utf8(m.content)}});
    return out;
}

} // namespace octo
