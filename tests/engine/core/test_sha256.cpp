// SHA-256 against the FIPS 180-4 example digests, and chunked input equal to one-shot input.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include <string>

#include "engine/core/sha256.h"

namespace octo {
namespace {

std::span<const uint8_t> bytes(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

TEST(Sha256, KnownDigests) {
    EXPECT_EQ(sha256_hex(bytes("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex(bytes("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(bytes(std::string(1000000, 'a'))),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, ChunkedEqualsOneShot) {
    std::string text;
    for (int i = 0; i < 1000; ++i) text += static_cast<char>(i * 7);
    Sha256 h;
    for (size_t i = 0; i < text.size(); i += 37) h.update(bytes(text.substr(i, 37)));
    const auto digest = h.finish();
    std::string hex;
    for (uint8_t b : digest) {
        static const char* d = "0123456789abcdef";
        hex += d[b >> 4];
        hex += d[b & 15];
    }
    EXPECT_EQ(hex, sha256_hex(bytes(text)));
    EXPECT_FALSE(sha256_file("/nonexistent/file"));
}

TEST(Sha256, FileHashStopsWhenCancelled) {
    const std::string path = ::testing::TempDir() + "octoscope_sha256_cancel.bin";
    const std::string content(3 << 20, 'x'); // three 1 MiB chunks
    std::ofstream(path, std::ios::binary) << content;
    EXPECT_EQ(sha256_file(path).value(), sha256_hex(bytes(content)));
    const std::atomic<bool> cancel{true};
    const auto stopped = sha256_file(path, &cancel);
    std::filesystem::remove(path);
    ASSERT_FALSE(stopped);
    EXPECT_EQ(stopped.error().code, ErrorCode::Cancelled);
}

} // namespace
} // namespace octo
