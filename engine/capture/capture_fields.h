// The payload's building blocks (docs/capture-format.md, "Payload"): float arrays as CBOR byte
// strings, and a reader that takes typed fields out of a decoded CBOR map, checking each one.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace octo {

// n floats as 4n bytes, byte-plane shuffled for compression: the lowest byte of every value
// (little-endian), then every second byte, and so on.
nlohmann::json f32_blob(std::span<const float> values);

// Reads fields of one CBOR map. The first problem is kept (naming the field's path, e.g.
// "tokens[3].probe.head_norms") and every later read returns an empty value, so a decoder reads
// on and checks `error()` once at the end.
class FieldReader {
public:
    FieldReader(const nlohmann::json& object, std::string path, std::string& error);

    bool has(const char* key) const; // present and not null
    int64_t integer(const char* key, int64_t min = std::numeric_limits<int64_t>::min(),
                    int64_t max = std::numeric_limits<int64_t>::max());
    uint64_t unsigned_integer(const char* key);
    double number(const char* key);
    bool boolean(const char* key);
    std::string text(const char* key);  // a CBOR text string
    std::string bytes(const char* key); // a CBOR byte string (arbitrary bytes)
    std::string bytes_or_text(const char* key); // a byte string, or a text string (JSON files)
    std::vector<float> floats(const char* key, size_t max_count);
    std::vector<std::string> texts(const char* key, size_t max_count);
    // An array (at most max_count items) or a map; an empty array / object on error.
    const nlohmann::json& array(const char* key, size_t max_count);
    const nlohmann::json& object(const char* key);
    // The path of a child item, for a nested reader.
    std::string child(const char* key, size_t index = std::numeric_limits<size_t>::max()) const;
    // Records a problem of this map's field `key`.
    void fail(const char* key, const std::string& what);
    bool ok() const { return error_.empty(); }

private:
    const nlohmann::json* field(const char* key, bool (nlohmann::json::*is)() const noexcept, const char* type);

    const nlohmann::json& object_;
    std::string path_;
    std::string& error_;
};

// The value among `values` whose name (name_of) the text field `key` holds; records an error
// when none does.
template <class E>
E enum_field(FieldReader& r, const char* key, std::initializer_list<E> values, const char* (*name_of)(E)) {
    const std::string name = r.text(key);
    for (E v : values) {
        if (name == name_of(v)) return v;
    }
    r.fail(key, "\"" + name + "\" is not a known value");
    return *values.begin();
}

} // namespace octo
