// Reading the fields of JSON that came from outside: a request, a server's answer, a claims file.
// nlohmann's `value(key, fallback)` throws when the field is there with another type ({"type": {}}
// where a string was meant), which any sender can trigger; these return the fallback instead and
// never throw. A value that is not an object reads as having no fields.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace octo {

// The field `key` of `object`, or a null value when `object` is not an object or has no such field.
const nlohmann::json& json_member(const nlohmann::json& object, std::string_view key);

// The field when it is a string, else `fallback`.
std::string json_string_or(const nlohmann::json& object, std::string_view key, std::string_view fallback = {});

// The field when it is an integer that fits int64_t, else `fallback` (2.5, "3" and true are not integers).
int64_t json_integer_or(const nlohmann::json& object, std::string_view key, int64_t fallback);

// The field when it is a number (integer or not), else `fallback`.
double json_number_or(const nlohmann::json& object, std::string_view key, double fallback);

// The field when it is true or false, else `fallback`.
bool json_bool_or(const nlohmann::json& object, std::string_view key, bool fallback);

} // namespace octo
