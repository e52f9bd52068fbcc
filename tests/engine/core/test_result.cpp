// Result and Status: a value or an error with its code, and every code's name (what error messages
// and JSON write). Expected names written literally.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/core/result.h"

namespace octo {
namespace {

TEST(Result, HoldsAValueOrAnError) {
    Result<int> ok = 7;
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(static_cast<bool>(ok));
    EXPECT_EQ(*ok, 7);

    Result<int> failed = make_error(ErrorCode::Format, "bad magic");
    EXPECT_FALSE(failed.ok());
    EXPECT_FALSE(static_cast<bool>(failed));
    EXPECT_EQ(failed.error().code, ErrorCode::Format);
    EXPECT_EQ(failed.error().message, "bad magic");
}

TEST(Result, MovesAValueOutWithoutCopying) {
    Result<std::unique_ptr<std::string>> r = std::make_unique<std::string>("kept");
    std::unique_ptr<std::string> taken = std::move(r).value();
    ASSERT_NE(taken, nullptr);
    EXPECT_EQ(*taken, "kept");
    Result<std::string> text = std::string("abc");
    EXPECT_EQ(text->size(), 3u);
}

TEST(Result, StatusIsAResultWithoutAValue) {
    Status done = Ok{};
    EXPECT_TRUE(done.ok());
    Status refused = make_error(ErrorCode::InvalidArgument, "n_ctx must be positive");
    EXPECT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::InvalidArgument);
}

TEST(Result, EveryErrorCodeHasItsOwnName) {
    EXPECT_STREQ(error_code_name(ErrorCode::Io), "io");
    EXPECT_STREQ(error_code_name(ErrorCode::Format), "format");
    EXPECT_STREQ(error_code_name(ErrorCode::Unsupported), "unsupported");
    EXPECT_STREQ(error_code_name(ErrorCode::InvalidModel), "invalid-model");
    EXPECT_STREQ(error_code_name(ErrorCode::Tokenizer), "tokenizer");
    EXPECT_STREQ(error_code_name(ErrorCode::InvalidArgument), "invalid-argument");
    EXPECT_STREQ(error_code_name(ErrorCode::OutOfMemory), "out-of-memory");
    EXPECT_STREQ(error_code_name(ErrorCode::Cancelled), "cancelled");
    EXPECT_STREQ(error_code_name(ErrorCode::Device), "device");
}

} // namespace
} // namespace octo
