// Reading fields of JSON that came from outside (engine/core/json_fields.h): a missing field, a
// field of another type and a value that is not an object all give the fallback, and none throws.
#include <gtest/gtest.h>

#include <limits>

#include <nlohmann/json.hpp>

#include "engine/core/json_fields.h"

namespace octo {
namespace {

using nlohmann::json;

const json kObject = json::parse(R"({"s": "text", "i": -7, "u": 18446744073709551615, "f": 2.5, "b": true,
                                      "o": {"x": 1}, "n": null})");

TEST(JsonFields, AFieldOfTheRightTypeIsRead) {
    EXPECT_EQ(json_string_or(kObject, "s", "fallback"), "text");
    EXPECT_EQ(json_integer_or(kObject, "i", 3), -7);
    EXPECT_DOUBLE_EQ(json_number_or(kObject, "f", 0.0), 2.5);
    EXPECT_DOUBLE_EQ(json_number_or(kObject, "i", 0.0), -7.0) << "an integer is a number";
    EXPECT_TRUE(json_bool_or(kObject, "b", false));
    EXPECT_EQ(json_member(kObject, "o"), json({{"x", 1}}));
}

TEST(JsonFields, AMissingOrWronglyTypedFieldGivesTheFallback) {
    EXPECT_EQ(json_string_or(kObject, "missing", "fallback"), "fallback");
    EXPECT_EQ(json_string_or(kObject, "o", "fallback"), "fallback");
    EXPECT_EQ(json_string_or(kObject, "i"), "");
    EXPECT_EQ(json_integer_or(kObject, "s", 3), 3);
    EXPECT_EQ(json_integer_or(kObject, "f", 3), 3) << "2.5 is not an integer";
    EXPECT_EQ(json_integer_or(kObject, "b", 3), 3) << "true is not an integer";
    EXPECT_EQ(json_integer_or(kObject, "u", 3), 3) << "past int64_t";
    EXPECT_DOUBLE_EQ(json_number_or(kObject, "s", 1.5), 1.5);
    EXPECT_FALSE(json_bool_or(kObject, "i", false));
    EXPECT_TRUE(json_bool_or(kObject, "n", true));
    EXPECT_TRUE(json_member(kObject, "missing").is_null());
}

TEST(JsonFields, AValueThatIsNotAnObjectHasNoFields) {
    for (const json& v : {json(), json(3), json("s"), json::array({1, 2}), json(true)}) {
        EXPECT_TRUE(json_member(v, "s").is_null()) << v.dump();
        EXPECT_EQ(json_string_or(v, "s", "f"), "f") << v.dump();
        EXPECT_EQ(json_integer_or(v, "i", std::numeric_limits<int64_t>::min()), std::numeric_limits<int64_t>::min()) << v.dump();
    }
}

} // namespace
} // namespace octo
