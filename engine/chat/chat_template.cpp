#include "engine/chat/chat_template.h"

namespace octo {

std::string_view chat_family_name(ChatFamily family) {
    switch (family) {
    case ChatFamily::Llama2: return "llama2";
    case ChatFamily::Llama3: return "llama3";
    case ChatFamily::ChatML: return "chatml";
    case ChatFamily::Mistral: return "mistral";
    case ChatFamily::Gemma: return "gemma";
    case ChatFamily::Phi3: return "phi3";
    case ChatFamily::DeepSeek3: return "deepseek3";
    case ChatFamily::Harmony: return "harmony";
    }
    return "unknown";
}

} // namespace octo
