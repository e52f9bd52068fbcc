#include "engine/generation/token_event.h"

namespace octo {

const char* stop_reason_name(StopReason reason) {
    switch (reason) {
    case StopReason::MaxTokens: return "max_tokens";
    case StopReason::EndOfGeneration: return "end_of_generation";
    case StopReason::StopString: return "stop_string";
    case StopReason::ContextFull: return "context_full";
    case StopReason::Cancelled: return "cancelled";
    }
    return "unknown";
}

} // namespace octo
