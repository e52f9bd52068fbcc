// Captures that are not what they should be: truncated, flipped, foreign, from the future,
// oversized or inconsistent. Each gives a Format error naming the file and the problem.
#include <gtest/gtest.h>

#include <functional>

#include <nlohmann/json.hpp>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "engine/capture/capture_container.h"
#include "engine/capture/capture_io.h"
#include "engine/capture/capture_payload.h"
#include "engine/core/le_bytes.h"
#include "tests/engine/capture/capture_sample.h"

namespace octo {
namespace {

using nlohmann::json;

std::vector<uint8_t> to_bytes(const std::string& s) { return {s.begin(), s.end()}; }

const std::vector<uint8_t>& sample_file() {
    static const std::vector<uint8_t> bytes = to_bytes(serialize_capture(test::sample_capture(2)).value());
    return bytes;
}

// The error of parsing `bytes`, which must fail with ErrorCode::Format naming "bad.octo".
std::string error_of(const std::vector<uint8_t>& bytes) {
    auto r = parse_capture(bytes, "bad.octo");
    if (r.ok()) return "<parsed>";
    EXPECT_EQ(r.error().code, ErrorCode::Format) << r.error().message;
    EXPECT_EQ(r.error().message.rfind("bad.octo: ", 0), 0u) << r.error().message;
    return r.error().message;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Recomputes the header's checksum after an edit (XXH3-64 of bytes 0..31 and the payload).
void reseal(std::vector<uint8_t>& b) {
    std::vector<uint8_t> covered(b.begin(), b.begin() + 32);
    covered.insert(covered.end(), b.begin() + kCaptureHeaderBytes, b.end());
    store_le64(b.data() + 32, XXH3_64bits(covered.data(), covered.size()));
}

// A container of this build's version around an arbitrary CBOR payload.
std::vector<uint8_t> container_of(const json& payload) {
    const std::vector<uint8_t> cbor = json::to_cbor(payload);
    return to_bytes(
        pack_capture_container({reinterpret_cast<const char*>(cbor.data()), cbor.size()}, kCaptureFormatVersion).value());
}

TEST(CaptureCorrupt, TruncatedAnywhere) {
    const auto& full = sample_file();
    for (size_t cut : {size_t{0}, size_t{5}, size_t{8}, size_t{20}, size_t{39}, size_t{40}, size_t{41},
                       full.size() / 2, full.size() - 1}) {
        const std::vector<uint8_t> part(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
        const std::string e = error_of(part);
        EXPECT_TRUE(contains(e, cut < 8 ? "not an Octoscope capture" : "truncated")) << cut << ": " << e;
    }
}

TEST(CaptureCorrupt, FlippedByteIsAChecksumError) {
    const auto& full = sample_file();
    for (size_t at : {size_t{33}, size_t{40}, size_t{41}, full.size() / 2, full.size() - 1}) {
        std::vector<uint8_t> b = full;
        b[at] ^= 0x10;
        EXPECT_TRUE(contains(error_of(b), "checksum mismatch")) << at;
    }
}

TEST(CaptureCorrupt, TrailingBytes) {
    std::vector<uint8_t> b = sample_file();
    b.push_back(0);
    EXPECT_TRUE(contains(error_of(b), "unexpected bytes after the payload"));
}

TEST(CaptureCorrupt, WrongMagic) {
    std::vector<uint8_t> b = sample_file();
    b[0] = 'G';
    EXPECT_TRUE(contains(error_of(b), "not an Octoscope capture"));
    EXPECT_TRUE(contains(error_of(to_bytes("GGUF and more bytes than a header has, surely, yes indeed")), "not an Octoscope capture"));
}

TEST(CaptureCorrupt, FutureVersionSaysSo) {
    std::vector<uint8_t> b = sample_file();
    store_le32(b.data() + 8, kCaptureFormatVersion + 1);
    reseal(b);
    EXPECT_TRUE(contains(error_of(b), "capture format version " + std::to_string(kCaptureFormatVersion + 1) +
                                          " is newer than this Octoscope supports (" +
                                          std::to_string(kCaptureFormatVersion) + ")"))
        << error_of(b);
    store_le32(b.data() + 8, 0);
    reseal(b);
    EXPECT_TRUE(contains(error_of(b), "version 0"));
}

TEST(CaptureCorrupt, UnknownFlags) {
    std::vector<uint8_t> b = sample_file();
    store_le32(b.data() + 12, 4);
    reseal(b);
    EXPECT_TRUE(contains(error_of(b), "unknown header flags"));
}

TEST(CaptureCorrupt, OversizedLengths) {
    std::vector<uint8_t> b = sample_file();
    store_le64(b.data() + 16, uint64_t{1} << 62);
    EXPECT_TRUE(contains(error_of(b), "truncated"));

    b = sample_file();
    store_le64(b.data() + 24, uint64_t{3} << 30);
    reseal(b);
    EXPECT_TRUE(contains(error_of(b), "over the limit"));

    b = sample_file();
    store_le64(b.data() + 24, load_le64(b.data() + 24) + 1);
    reseal(b);
    EXPECT_TRUE(contains(error_of(b), "does not match the header"));
}

TEST(CaptureCorrupt, DecompressionBombIsRefused) {
    const std::string zeros(size_t{64} << 20, '\0'); // compresses far more than 1000 times
    std::vector<uint8_t> b = to_bytes(pack_capture_container(zeros, 1).value());
    EXPECT_LT(b.size() * kCaptureMaxExpansion, zeros.size());
    EXPECT_TRUE(contains(error_of(b), "over the limit"));
}

TEST(CaptureCorrupt, PayloadThatIsNotCbor) {
    EXPECT_TRUE(contains(error_of(to_bytes(pack_capture_container("\xff\xff\xff not cbor", 1).value())), "not valid CBOR"));
}

TEST(CaptureCorrupt, DeepNestingIsRefusedBeforeParsing) {
    std::string nested; // [r, [r, [r, …]]] with varied r, so that it does not compress 1000 times
    for (uint32_t i = 0, r = 1; i < 100000; ++i, r = r * 1103515245u + 12345u) {
        nested += "\x82\x18";
        nested += static_cast<char>(r >> 24);
    }
    nested += '\x00';
    const std::string e = error_of(to_bytes(pack_capture_container(nested, 1).value()));
    EXPECT_TRUE(contains(e, "nests deeper")) << e;
}

TEST(CaptureCorrupt, TooManyValuesAreRefusedBeforeParsing) {
    std::string many("\x9a\x01\x00\x00\x00", 5); // an array of 2^24 items …
    for (uint32_t i = 0, r = 1; i < (1u << 24); ++i, r = r * 1103515245u + 12345u) {
        many += static_cast<char>((r >> 24) & 0x17); // … of small varied integers, so that it compresses < 1000 times
    }
    const std::string e = error_of(to_bytes(pack_capture_container(many, 1).value()));
    EXPECT_TRUE(contains(e, "more than 16777216 values")) << e;
}

TEST(CaptureCorrupt, FieldProblemsNameTheField) {
    const json good = encode_capture(test::sample_capture(2));
    auto with = [&](const std::function<void(json&)>& edit) {
        json j = good;
        edit(j);
        return error_of(container_of(j));
    };
    EXPECT_TRUE(contains(with([](json& j) { j.erase("tokens"); }), "\"tokens\" is missing"));
    EXPECT_TRUE(contains(with([](json& j) { j["model"]["n_layer"] = "two"; }), "\"model.n_layer\" is not an integer"));
    EXPECT_TRUE(contains(with([](json& j) { j["model"]["n_head"] = 0; }), "\"model.n_head\" is 0"));
    EXPECT_TRUE(contains(with([](json& j) { j["tokens"][1]["probe"]["head_norms"] = json::binary(std::vector<uint8_t>{1, 2, 3, 4}); }),
                         "\"tokens[1].probe.head_norms\" holds 1 floats"));
    EXPECT_TRUE(contains(with([](json& j) { j["tokens"][0]["probe"]["head_norms"] = json::binary(std::vector<uint8_t>{1, 2, 3}); }),
                         "not a whole number of floats"));
    EXPECT_TRUE(contains(with([](json& j) { j["prompt_probes"].erase(0); }), "\"prompt_probes\" has"));
    EXPECT_TRUE(contains(with([](json& j) { j["kv_blocks"] = json::binary(std::vector<uint8_t>{0}); }), "\"kv_blocks\" holds 1 blocks"));
    EXPECT_TRUE(contains(with([](json& j) { j["stop_reason"] = "bored"; }), "\"bored\" is not a known value"));
    // A logit lens that does not fit the run or the model (position past the tokens, a layer missing).
    EXPECT_TRUE(contains(with([](json& j) { j["lenses"][0][0] = 999; }), "\"lenses\" item 0"));
    EXPECT_TRUE(contains(with([](json& j) { j["lenses"][0][2].erase(0); }), "\"lenses\" item 0"));
    EXPECT_TRUE(contains(with([](json& j) { j["lenses"] = json::array({json::array({0, 1})}); }), "\"lenses\" item 0"));
    EXPECT_TRUE(contains(with([](json& j) { j["notes"] = json::array({json::array({999, json::binary(std::vector<uint8_t>{})})}); }),
                         "\"notes\" item 0"));
    EXPECT_TRUE(contains(with([](json& j) { j["head_map"]["map"]["layers"].erase(0); }), "\"head_map.map\" is not a valid head map"));
    EXPECT_TRUE(contains(with([](json& j) { j["settings"]["top_p"] = 0; }), "sampling setting is invalid"));
    EXPECT_TRUE(contains(with([](json& j) { j["settings"].erase("precision"); }), "\"settings.precision\" is missing"));
    EXPECT_TRUE(contains(with([](json& j) { j["settings"]["precision"] = "fast"; }),
                         "\"settings.precision\" \"fast\" is not a known value"));
    EXPECT_TRUE(contains(with([](json& j) { j["settings"]["precision"] = 1; }), "\"settings.precision\" is not"));
    EXPECT_TRUE(contains(with([](json& j) { j["tokens"][0]["top"] = json::array({json::array({-1, 0.0})}); }),
                         "\"tokens[0].top\" item 0"));
    EXPECT_TRUE(contains(with([](json& j) { j = json::array(); }), "is not a map"));
}

} // namespace
// CBOR nested deeper than a capture's payload is refused before the recursive parser sees it
// (the long fuzz run of fuzz_run_spec overflowed the stack with 4,000 nested arrays given to a
// bare from_cbor; that target now parses through parse_capture_cbor).
TEST(CaptureCorrupt, DeepCborIsRefusedNotRecursedInto) {
    const std::string deep(4072, '\x86'); // arrays of six, each holding the next first
    auto r = parse_capture_cbor(deep, "deep.octo");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::Format);
    EXPECT_NE(r.error().message.find("deep.octo: the payload nests deeper"), std::string::npos) << r.error().message;
    auto shallow = parse_capture_cbor(std::string("\x82\x01\x81\x02", 4), "shallow.octo"); // [1, [2]]
    ASSERT_TRUE(shallow) << shallow.error().message;
    EXPECT_EQ(shallow.value(), nlohmann::json::parse("[1, [2]]"));
}

} // namespace octo
