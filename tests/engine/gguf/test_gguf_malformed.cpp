// Hand-made malformed GGUF files (tests/data/malformed, written by make_malformed.py):
// each must fail to open with an error naming its specific problem, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/gguf/gguf_file.h"

namespace {

struct Case {
    const char* file;
    const char* expected; // substring the error message must contain
    const char* offset;   // "at byte offset N" the message must name, or nullptr
};

const Case kCases[] = {
    {"wrong_magic.gguf", "not a GGUF file", "at byte offset 0"},
    {"truncated_header.gguf", "file is truncated", "at byte offset 8"},
    {"truncated_data.gguf", "runs past the end of the file", nullptr},
    {"version_99.gguf", "unsupported GGUF version 99", "at byte offset 4"},
    {"absurd_kv_count.gguf", "metadata count 1152921504606846976 is larger than the file can hold", "at byte offset 16"},
    {"absurd_tensor_count.gguf", "tensor count 4611686018427387904 is larger than the file can hold", "at byte offset 8"},
    {"string_past_end.gguf", "metadata key claims 1099511627776 bytes but only 7 remain", "at byte offset 24"},
    {"array_count_too_large.gguf", "array claims 1125899906842624 elements of type string", nullptr},
    {"unknown_value_type.gguf", "metadata key 'general.x' has unknown value type 77", nullptr},
    {"duplicate_key.gguf", "duplicate metadata key 'general.architecture'", nullptr},
    {"duplicate_tensor.gguf", "duplicate tensor 'w'", nullptr},
    {"dims_overflow.gguf", "tensor 'w' has dimensions whose product overflows", nullptr},
    {"zero_dim_overflow.gguf", "tensor 'w' has dimensions whose product overflows", nullptr},
    {"too_many_dims.gguf", "tensor 'w' has 5 dimensions (1 to 4 allowed)", nullptr},
    {"unknown_tensor_type.gguf", "tensor 'w' has unknown tensor type id 200", nullptr},
    {"misaligned_offset.gguf", "tensor 'w' data offset 4 is not a multiple of the alignment 32", nullptr},
    {"offset_past_end.gguf", "tensor 'w' data (32 bytes at data offset 1048576) runs past the end of the file", nullptr},
    {"row_not_block_multiple.gguf", "rows of 33 values, not a multiple of the block size 32", nullptr},
    {"bad_alignment.gguf", "general.alignment 24 is not a power of two", nullptr},
    {"nested_too_deep.gguf", "arrays nested deeper than 8 levels", nullptr},
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.file; }

class MalformedGguf : public ::testing::TestWithParam<Case> {};

TEST_P(MalformedGguf, FailsWithItsOwnMessage) {
    const Case& c = GetParam();
    const auto path = std::filesystem::path(OCTOSCOPE_TESTS_DIR) / "data" / "malformed" / c.file;
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    auto f = octo::GgufFile::open(path.string());
    ASSERT_FALSE(f.ok()) << c.file << " opened without error";
    const std::string& msg = f.error().message;
    EXPECT_NE(msg.find(c.expected), std::string::npos) << c.file << ": " << msg;
    if (c.offset) {
        EXPECT_NE(msg.find(c.offset), std::string::npos) << c.file << ": " << msg;
    }
    EXPECT_NE(msg.find(c.file), std::string::npos) << "the message names the file: " << msg;
}

INSTANTIATE_TEST_SUITE_P(Files, MalformedGguf, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& p) {
                             std::string name = p.param.file;
                             return name.substr(0, name.find('.'));
                         });

TEST(MalformedGguf, EmptyFileIsTruncated) {
    const auto path = std::filesystem::temp_directory_path() / "octoscope_empty.gguf";
    { std::FILE* f = std::fopen(path.c_str(), "wb"); ASSERT_NE(f, nullptr); std::fclose(f); }
    auto f = octo::GgufFile::open(path.string());
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("file is truncated"), std::string::npos) << f.error().message;
    std::filesystem::remove(path);
}

TEST(MalformedGguf, MissingFileIsAnIoError) {
    auto f = octo::GgufFile::open("/nonexistent/octoscope/model.gguf");
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, octo::ErrorCode::Io);
    EXPECT_NE(f.error().message.find("/nonexistent/octoscope/model.gguf"), std::string::npos);
}

TEST(MalformedGguf, MetadataArraysHaveAnElementBudget) {
    // 17 Mi one-byte elements fit in the buffer but exceed the parser's element budget.
    const uint64_t count = 17u << 20;
    std::vector<uint8_t> bytes = {'G', 'G', 'U', 'F', 3, 0, 0, 0};
    auto put_u64 = [&](uint64_t v) { for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<uint8_t>(v >> (8 * k))); };
    auto put_u32 = [&](uint32_t v) { for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<uint8_t>(v >> (8 * k))); };
    put_u64(0); // tensors
    put_u64(1); // key/values
    put_u64(3);
    bytes.insert(bytes.end(), {'b', 'i', 'g'});
    put_u32(9); // array
    put_u32(0); // of u8
    put_u64(count);
    bytes.resize(bytes.size() + count, 0);
    auto f = octo::GgufFile::parse(bytes);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("metadata arrays hold more than"), std::string::npos) << f.error().message;
}

TEST(MalformedGguf, EveryPrefixOfAValidFileFailsCleanly) {
    // Truncating a valid file at every byte must give an error, never a crash.
    const auto path = std::filesystem::path(OCTOSCOPE_TESTS_DIR) / "data" / "malformed" / "truncated_data.gguf";
    std::vector<uint8_t> bytes;
    {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        ASSERT_NE(f, nullptr);
        int ch;
        while ((ch = std::fgetc(f)) != EOF) bytes.push_back(static_cast<uint8_t>(ch));
        std::fclose(f);
    }
    for (size_t n = 0; n < bytes.size(); ++n) {
        auto g = octo::GgufFile::parse(std::span<const uint8_t>(bytes.data(), n));
        EXPECT_FALSE(g.ok()) << "prefix of " << n << " bytes parsed";
    }
}

} // namespace
