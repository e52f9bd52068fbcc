#include "engine/capture/capture_fields.h"

#include <bit>

namespace octo {

using nlohmann::json;

json f32_blob(std::span<const float> values) {
    const size_t n = values.size();
    std::vector<uint8_t> out(4 * n);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t v = std::bit_cast<uint32_t>(values[i]);
        for (size_t b = 0; b < 4; ++b) out[b * n + i] = static_cast<uint8_t>(v >> (8 * b));
    }
    return json::binary(std::move(out));
}

FieldReader::FieldReader(const json& object, std::string path, std::string& error)
    : object_(object), path_(std::move(path)), error_(error) {
    if (!object_.is_object() && error_.empty()) error_ = (path_.empty() ? "the payload" : path_) + " is not a map";
}

std::string FieldReader::child(const char* key, size_t index) const {
    std::string p = path_.empty() ? key : path_ + "." + key;
    if (index != std::numeric_limits<size_t>::max()) p += "[" + std::to_string(index) + "]";
    return p;
}

void FieldReader::fail(const char* key, const std::string& what) {
    if (error_.empty()) error_ = "field \"" + child(key) + "\" " + what;
}

bool FieldReader::has(const char* key) const {
    if (!error_.empty() || !object_.is_object()) return false;
    auto it = object_.find(key);
    return it != object_.end() && !it->is_null();
}

const json* FieldReader::field(const char* key, bool (json::*is)() const noexcept, const char* type) {
    if (!error_.empty() || !object_.is_object()) return nullptr;
    auto it = object_.find(key);
    if (it == object_.end()) {
        fail(key, "is missing");
        return nullptr;
    }
    if (!((*it).*is)()) {
        fail(key, std::string("is not ") + type);
        return nullptr;
    }
    return &*it;
}

int64_t FieldReader::integer(const char* key, int64_t min, int64_t max) {
    const json* v = field(key, &json::is_number_integer, "an integer");
    if (!v) return 0;
    if (v->is_number_unsigned() && v->get<uint64_t>() > static_cast<uint64_t>(max)) {
        fail(key, "is out of range");
        return 0;
    }
    const int64_t x = v->is_number_unsigned() ? static_cast<int64_t>(v->get<uint64_t>()) : v->get<int64_t>();
    if (x < min || x > max) {
        fail(key, "is " + std::to_string(x) + ", outside [" + std::to_string(min) + ", " + std::to_string(max) + "]");
        return 0;
    }
    return x;
}

uint64_t FieldReader::unsigned_integer(const char* key) {
    const json* v = field(key, &json::is_number_unsigned, "an unsigned integer");
    return v ? v->get<uint64_t>() : 0;
}

double FieldReader::number(const char* key) {
    const json* v = field(key, &json::is_number, "a number");
    return v ? v->get<double>() : 0.0;
}

bool FieldReader::boolean(const char* key) {
    const json* v = field(key, &json::is_boolean, "a boolean");
    return v ? v->get<bool>() : false;
}

std::string FieldReader::text(const char* key) {
    const json* v = field(key, &json::is_string, "a text string");
    return v ? v->get<std::string>() : std::string();
}

std::string FieldReader::bytes(const char* key) {
    const json* v = field(key, &json::is_binary, "a byte string");
    if (!v) return {};
    const auto& b = v->get_binary();
    return std::string(b.begin(), b.end());
}

std::string FieldReader::bytes_or_text(const char* key) {
    if (!error_.empty() || !object_.is_object()) return {};
    if (auto it = object_.find(key); it != object_.end() && it->is_string()) return it->get<std::string>();
    const json* v = field(key, &json::is_binary, "a byte string or a text string");
    if (!v) return {};
    const auto& b = v->get_binary();
    return std::string(b.begin(), b.end());
}

std::vector<float> FieldReader::floats(const char* key, size_t max_count) {
    const json* v = field(key, &json::is_binary, "a byte string of floats");
    if (!v) return {};
    const auto& b = v->get_binary();
    if (b.size() % 4 != 0) {
        fail(key, "holds " + std::to_string(b.size()) + " bytes, not a whole number of floats");
        return {};
    }
    const size_t n = b.size() / 4;
    if (n > max_count) {
        fail(key, "holds " + std::to_string(n) + " floats, more than " + std::to_string(max_count));
        return {};
    }
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i) {
        uint32_t u = 0;
        for (size_t k = 0; k < 4; ++k) u |= static_cast<uint32_t>(b[k * n + i]) << (8 * k);
        out[i] = std::bit_cast<float>(u);
    }
    return out;
}

std::vector<std::string> FieldReader::texts(const char* key, size_t max_count) {
    const json& a = array(key, max_count);
    std::vector<std::string> out;
    for (size_t i = 0; i < a.size() && ok(); ++i) {
        if (!a[i].is_string()) {
            fail(key, "item " + std::to_string(i) + " is not a text string");
            return {};
        }
        out.push_back(a[i].get<std::string>());
    }
    return out;
}

const json& FieldReader::array(const char* key, size_t max_count) {
    static const json empty = json::array();
    const json* v = field(key, &json::is_array, "an array");
    if (!v) return empty;
    if (v->size() > max_count) {
        fail(key, "has " + std::to_string(v->size()) + " items, more than " + std::to_string(max_count));
        return empty;
    }
    return *v;
}

const json& FieldReader::object(const char* key) {
    static const json empty = json::object();
    const json* v = field(key, &json::is_object, "a map");
    return v ? *v : empty;
}

} // namespace octo
