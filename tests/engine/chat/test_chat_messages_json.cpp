// Conversation files (engine/chat/chat_messages_json.h): what File → Save Conversation… writes
// opens as the same messages, with every role, tool calls and results; the bare array and a chat
// request's body open too; what is not a conversation is refused with the file's name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/chat/chat_messages_json.h"

namespace octo {
namespace {

std::vector<ChatMessage> every_kind() {
    ChatMessage call(ChatRole::Assistant, "");
    call.tool_calls.push_back({"call_1", "get_weather", "{\"city\": \"Paris\"}"});
    ChatMessage result(ChatRole::Tool, "{\"temp\": 21}");
    result.tool_call_id = "call_1";
    result.name = "get_weather";
    return {ChatMessage(ChatRole::System, "Be brief.\nAlways."), ChatMessage(ChatRole::User, "天气如何？ \"quoted\""), call, result,
            ChatMessage(ChatRole::Assistant, "It is 21 °C.")};
}

TEST(ConversationFile, WhatIsSavedOpensAsTheSameMessages) {
    const std::vector<ChatMessage> messages = every_kind();
    const std::string saved = conversation_file_text(messages);
    EXPECT_EQ(saved.rfind("{\n  \"messages\": [", 0), 0u) << saved;
    EXPECT_EQ(saved.back(), '\n');
    auto back = parse_conversation_file(saved, "c.json");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back.value(), messages);
    EXPECT_EQ(conversation_file_text(back.value()), saved);
}

TEST(ConversationFile, TheBareArrayAndARequestBodyOpen) {
    auto bare = parse_conversation_file(R"([{"role": "developer", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
                                            {"role": "user", "content": "hi"}])",
                                        "bare.json");
    ASSERT_TRUE(bare) << bare.error().message;
    ASSERT_EQ(bare.value().size(), 2u);
    EXPECT_EQ(bare.value()[0].role, ChatRole::System);
    EXPECT_EQ(bare.value()[0].content, "ab");
    auto body = parse_conversation_file(R"({"model": "m", "temperature": 0, "messages": [{"role": "user", "content": "hi"}]})", "body.json");
    ASSERT_TRUE(body) << body.error().message;
    EXPECT_EQ(body.value(), std::vector<ChatMessage>{ChatMessage(ChatRole::User, "hi")});
}

TEST(ConversationFile, WhatIsNoConversationIsRefusedByName) {
    for (const char* text : {"", "{\"messages\": [", "{\"prompt\": \"x\"}", "[]", "{\"messages\": []}", "[{\"role\": \"robot\", \"content\": \"x\"}]",
                             "[{\"role\": \"user\", \"content\": 3}]", "\"text\""}) {
        auto r = parse_conversation_file(text, "/tmp/x/c.json");
        ASSERT_FALSE(r) << text;
        EXPECT_EQ(r.error().code, ErrorCode::Format) << text;
        EXPECT_NE(r.error().message.find("/tmp/x/c.json"), std::string::npos) << r.error().message;
    }
}

} // namespace
} // namespace octo
