#include "engine/gguf/gguf_value.h"

#include <limits>

namespace octo {

std::string_view gguf_type_name(GgufType type) {
    switch (type) {
    case GgufType::UInt8: return "u8";
    case GgufType::Int8: return "i8";
    case GgufType::UInt16: return "u16";
    case GgufType::Int16: return "i16";
    case GgufType::UInt32: return "u32";
    case GgufType::Int32: return "i32";
    case GgufType::Float32: return "f32";
    case GgufType::Bool: return "bool";
    case GgufType::String: return "string";
    case GgufType::Array: return "array";
    case GgufType::UInt64: return "u64";
    case GgufType::Int64: return "i64";
    case GgufType::Float64: return "f64";
    }
    return "?";
}

bool gguf_type_is_signed_int(GgufType type) {
    return type == GgufType::Int8 || type == GgufType::Int16 || type == GgufType::Int32 ||
           type == GgufType::Int64;
}

bool gguf_type_is_unsigned_int(GgufType type) {
    return type == GgufType::UInt8 || type == GgufType::UInt16 || type == GgufType::UInt32 ||
           type == GgufType::UInt64;
}

bool gguf_type_is_float(GgufType type) {
    return type == GgufType::Float32 || type == GgufType::Float64;
}

bool GgufValue::as_int(int64_t& out) const {
    if (gguf_type_is_signed_int(type)) {
        out = i;
        return true;
    }
    if (gguf_type_is_unsigned_int(type)) {
        if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
        out = static_cast<int64_t>(u);
        return true;
    }
    return false;
}

size_t GgufArray::size() const {
    if (elem_type == GgufType::String) return strings.size();
    if (elem_type == GgufType::Array) return arrays.size();
    if (gguf_type_is_float(elem_type)) return floats.size();
    if (gguf_type_is_unsigned_int(elem_type)) return uints.size();
    return ints.size();
}

} // namespace octo
