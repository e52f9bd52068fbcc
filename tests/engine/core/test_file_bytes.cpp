// Reading a whole file: every byte as written (NULs and invalid UTF-8 included), and an error that
// names the file and what it is for when it cannot be opened.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "engine/core/file_bytes.h"
#include "tests/support/test_temp.h"

namespace octo {
namespace {

TEST(FileBytes, ReadsEveryByte) {
    const std::string path = test::test_temp_path("bytes.bin");
    const std::string bytes("a\0b\xFF\r\n", 6);
    std::ofstream(path, std::ios::binary) << bytes;
    Result<std::string> read = read_file_bytes(path, "prompt file");
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(*read, bytes);

    const std::string empty = test::test_temp_path("empty.txt");
    std::ofstream(empty, std::ios::binary).flush();
    Result<std::string> none = read_file_bytes(empty, "prompt file");
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(*none, "");
}

TEST(FileBytes, AMissingFileIsAnIoErrorNamingIt) {
    const std::string path = test::test_temp_path("missing.txt");
    Result<std::string> read = read_file_bytes(path, "conversation file");
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code, ErrorCode::Io);
    EXPECT_EQ(read.error().message, "cannot open conversation file '" + path + "'");
}

} // namespace
} // namespace octo
