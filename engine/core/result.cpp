#include "engine/core/result.h"

namespace octo {

const char* error_code_name(ErrorCode code) {
    switch (code) {
    case ErrorCode::Io: return "io";
    case ErrorCode::Format: return "format";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::InvalidModel: return "invalid-model";
    case ErrorCode::Tokenizer: return "tokenizer";
    case ErrorCode::InvalidArgument: return "invalid-argument";
    case ErrorCode::OutOfMemory: return "out-of-memory";
    case ErrorCode::Cancelled: return "cancelled";
    case ErrorCode::Device: return "device";
    }
    return "unknown";
}

} // namespace octo
