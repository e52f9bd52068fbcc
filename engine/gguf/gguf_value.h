// Metadata values of a GGUF file: the 13 scalar/string/array types of GGUF v2/v3.
// Integers are kept widened (signed in `i`, unsigned in `u`) with their declared type;
// arrays hold one typed vector chosen by the element type (arrays may nest).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace octo {

enum class GgufType : uint32_t {
    UInt8 = 0, Int8 = 1, UInt16 = 2, Int16 = 3, UInt32 = 4, Int32 = 5, Float32 = 6,
    Bool = 7, String = 8, Array = 9, UInt64 = 10, Int64 = 11, Float64 = 12,
};

std::string_view gguf_type_name(GgufType type);
bool gguf_type_is_signed_int(GgufType type);
bool gguf_type_is_unsigned_int(GgufType type);
bool gguf_type_is_float(GgufType type);

struct GgufArray;

struct GgufValue {
    GgufType type = GgufType::UInt8;
    uint64_t u = 0;      // unsigned integer types
    int64_t i = 0;       // signed integer types and Bool (0/1)
    double f = 0.0;      // Float32 / Float64
    std::string s;       // String
    std::shared_ptr<const GgufArray> array; // Array

    // Integer value as int64 if the value is any integer type that fits.
    bool as_int(int64_t& out) const;
};

struct GgufArray {
    GgufType elem_type = GgufType::UInt8;
    // Exactly one of these is filled, by elem_type:
    std::vector<int64_t> ints;         // signed integer types and Bool
    std::vector<uint64_t> uints;       // unsigned integer types
    std::vector<double> floats;        // Float32 / Float64
    std::vector<std::string> strings;  // String
    std::vector<GgufArray> arrays;     // Array (nested)

    size_t size() const;
};

} // namespace octo
