#include "engine/core/json_fields.h"

#include <limits>

namespace octo {

const nlohmann::json& json_member(const nlohmann::json& object, std::string_view key) {
    static const nlohmann::json null_value;
    if (!object.is_object()) return null_value;
    const auto it = object.find(key);
    return it == object.end() ? null_value : *it;
}

std::string json_string_or(const nlohmann::json& object, std::string_view key, std::string_view fallback) {
    const nlohmann::json& v = json_member(object, key);
    return v.is_string() ? v.get<std::string>() : std::string(fallback);
}

int64_t json_integer_or(const nlohmann::json& object, std::string_view key, int64_t fallback) {
    const nlohmann::json& v = json_member(object, key);
    if (v.is_number_unsigned()) {
        const auto u = v.get<uint64_t>();
        return u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? static_cast<int64_t>(u) : fallback;
    }
    return v.is_number_integer() ? v.get<int64_t>() : fallback;
}

double json_number_or(const nlohmann::json& object, std::string_view key, double fallback) {
    const nlohmann::json& v = json_member(object, key);
    return v.is_number() ? v.get<double>() : fallback;
}

bool json_bool_or(const nlohmann::json& object, std::string_view key, bool fallback) {
    const nlohmann::json& v = json_member(object, key);
    return v.is_boolean() ? v.get<bool>() : fallback;
}

} // namespace octo
