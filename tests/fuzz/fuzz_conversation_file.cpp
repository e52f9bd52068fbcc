// Fuzz target: a conversation file from untrusted bytes (File → Open Conversation…, `octoscope-cli
// chat --conversation`), read by parse_conversation_file (engine/chat/chat_messages_json.h).
// What is accepted is saved as File → Save Conversation… saves it and read back: the messages
// must come back the same (ChatMessage's operator==), and saving them again must write the same
// bytes. Any crash, sanitizer report, exception, unbounded allocation, a saved file that does
// not read, or a round trip that changes a message is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chat/chat_messages_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto messages = octo::parse_conversation_file(text, "conversation.json");
    if (!messages) {
        if (messages.error().message.find("conversation.json") == std::string::npos) std::abort(); // errors name the file
        return 0;
    }
    const std::string saved = octo::conversation_file_text(messages.value());
    auto back = octo::parse_conversation_file(saved, "saved.json");
    if (!back) std::abort();                           // a saved conversation must open
    if (back.value() != messages.value()) std::abort(); // as the same messages
    if (octo::conversation_file_text(back.value()) != saved) std::abort();
    return 0;
}
