// GgufWriter -> GgufFile round trips: metadata of every type (nested arrays included), versions
// 2 and 3, the alignment rule, and tensors of every supported type with their bytes intact.
// Covers: tensor_type.cpp
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "engine/gguf/dequantize.h"
#include "engine/gguf/gguf_file.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/gguf/quantize.h"
#include "tests/support/error_norms.h"

namespace octo {
namespace {

const std::vector<TensorType> kSupported = supported_tensor_types();

std::string type_name(TensorType t) {
    return std::string(tensor_type_info(static_cast<uint32_t>(t))->name);
}

// "w.Q4_K" (appended rather than operator+, which trips a g++ 12 -Wrestrict false positive)
std::string tensor_name(TensorType t) {
    std::string name = "w.";
    name += type_name(t);
    return name;
}

GgufArray int_array(GgufType type, std::vector<int64_t> v) {
    GgufArray a;
    a.elem_type = type;
    a.ints = std::move(v);
    return a;
}

GgufArray nested(std::vector<GgufArray> inner) {
    GgufArray a;
    a.elem_type = GgufType::Array;
    a.arrays = std::move(inner);
    return a;
}

// Writes one key of every scalar type plus arrays (nested two and three deep).
void add_all_metadata(GgufWriter& w) {
    w.add_u8("u8", 255);
    w.add_i8("i8", -128);
    w.add_u16("u16", 65535);
    w.add_i16("i16", -32768);
    w.add_u32("u32", 4294967295u);
    w.add_i32("i32", std::numeric_limits<int32_t>::min());
    w.add_u64("u64", std::numeric_limits<uint64_t>::max());
    w.add_i64("i64", std::numeric_limits<int64_t>::min());
    w.add_f32("f32", 3.14159274f);
    w.add_f64("f64", -1e300);
    w.add_bool("bool_true", true);
    w.add_bool("bool_false", false);
    w.add_string("string", std::string("h\xc3\xa9llo\0world", 12));
    w.add_string("empty_string", "");
    w.add_array_strings("arr_str", {"a", "", "\xe2\x96\x81tok"});
    const float f32s[] = {0.5f, -1.25f, 1e-30f};
    w.add_array_f32("arr_f32", f32s);
    const int32_t i32s[] = {1, -2, std::numeric_limits<int32_t>::max()};
    w.add_array_i32("arr_i32", i32s);
    GgufArray u8s;
    u8s.elem_type = GgufType::UInt8;
    u8s.uints = {0, 7, 255};
    w.add_array("arr_u8", u8s);
    GgufArray u64s;
    u64s.elem_type = GgufType::UInt64;
    u64s.uints = {std::numeric_limits<uint64_t>::max()};
    w.add_array("arr_u64", u64s);
    GgufArray f64s;
    f64s.elem_type = GgufType::Float64;
    f64s.floats = {1e-300, -2.5};
    w.add_array("arr_f64", f64s);
    w.add_array("arr_bool", int_array(GgufType::Bool, {1, 0, 1}));
    w.add_array("arr_i16", int_array(GgufType::Int16, {-32768, 32767}));
    w.add_array("arr_empty", int_array(GgufType::Int64, {}));
    w.add_array("arr_nested", nested({int_array(GgufType::Int32, {1, 2}), int_array(GgufType::Int32, {})}));
    GgufArray strs;
    strs.elem_type = GgufType::String;
    strs.strings = {"x", "yz"};
    w.add_array("arr_nested3", nested({nested({strs}), nested({})}));
}

void check_all_metadata(const GgufFile& f) {
    const auto& kv = f.metadata();
    ASSERT_EQ(kv.size(), 25u);
    EXPECT_EQ(kv[0].first, "u8"); // file order is call order
    EXPECT_EQ(kv[24].first, "arr_nested3");

    auto scalar = [&](const char* key, GgufType type) -> const GgufValue& {
        const GgufValue* v = f.find(key);
        EXPECT_NE(v, nullptr) << key;
        static const GgufValue missing;
        if (v == nullptr) return missing;
        EXPECT_EQ(v->type, type) << key;
        return *v;
    };
    EXPECT_EQ(scalar("u8", GgufType::UInt8).u, 255u);
    EXPECT_EQ(scalar("i8", GgufType::Int8).i, -128);
    EXPECT_EQ(scalar("u16", GgufType::UInt16).u, 65535u);
    EXPECT_EQ(scalar("i16", GgufType::Int16).i, -32768);
    EXPECT_EQ(scalar("u32", GgufType::UInt32).u, 4294967295u);
    EXPECT_EQ(scalar("i32", GgufType::Int32).i, std::numeric_limits<int32_t>::min());
    EXPECT_EQ(scalar("u64", GgufType::UInt64).u, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(scalar("i64", GgufType::Int64).i, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(scalar("f32", GgufType::Float32).f, static_cast<double>(3.14159274f));
    EXPECT_EQ(scalar("f64", GgufType::Float64).f, -1e300);
    EXPECT_EQ(f.get_bool("bool_true").value(), true);
    EXPECT_EQ(f.get_bool("bool_false").value(), false);
    EXPECT_EQ(f.get_string("string").value(), std::string("h\xc3\xa9llo\0world", 12));
    EXPECT_EQ(f.get_string("empty_string").value(), "");

    auto array = [&](const char* key, GgufType elem) -> const GgufArray& {
        auto a = f.get_array(key);
        static const GgufArray missing;
        EXPECT_TRUE(a.ok()) << key;
        if (!a.ok()) return missing;
        EXPECT_EQ(a.value()->elem_type, elem) << key;
        return *a.value();
    };
    EXPECT_EQ(array("arr_str", GgufType::String).strings,
              (std::vector<std::string>{"a", "", "\xe2\x96\x81tok"}));
    EXPECT_EQ(array("arr_f32", GgufType::Float32).floats,
              (std::vector<double>{0.5, -1.25, static_cast<double>(1e-30f)}));
    EXPECT_EQ(array("arr_i32", GgufType::Int32).ints,
              (std::vector<int64_t>{1, -2, std::numeric_limits<int32_t>::max()}));
    EXPECT_EQ(array("arr_u8", GgufType::UInt8).uints, (std::vector<uint64_t>{0, 7, 255}));
    EXPECT_EQ(array("arr_u64", GgufType::UInt64).uints,
              (std::vector<uint64_t>{std::numeric_limits<uint64_t>::max()}));
    EXPECT_EQ(array("arr_f64", GgufType::Float64).floats, (std::vector<double>{1e-300, -2.5}));
    EXPECT_EQ(array("arr_bool", GgufType::Bool).ints, (std::vector<int64_t>{1, 0, 1}));
    EXPECT_EQ(array("arr_i16", GgufType::Int16).ints, (std::vector<int64_t>{-32768, 32767}));
    EXPECT_EQ(array("arr_empty", GgufType::Int64).size(), 0u);

    const GgufArray& n2 = array("arr_nested", GgufType::Array);
    ASSERT_EQ(n2.arrays.size(), 2u);
    EXPECT_EQ(n2.arrays[0].elem_type, GgufType::Int32);
    EXPECT_EQ(n2.arrays[0].ints, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(n2.arrays[1].size(), 0u);

    const GgufArray& n3 = array("arr_nested3", GgufType::Array);
    ASSERT_EQ(n3.arrays.size(), 2u);
    ASSERT_EQ(n3.arrays[0].arrays.size(), 1u);
    EXPECT_EQ(n3.arrays[0].arrays[0].elem_type, GgufType::String);
    EXPECT_EQ(n3.arrays[0].arrays[0].strings, (std::vector<std::string>{"x", "yz"}));
    EXPECT_EQ(n3.arrays[1].elem_type, GgufType::Array);
    EXPECT_EQ(n3.arrays[1].size(), 0u);
}

class GgufWriterVersion : public ::testing::TestWithParam<uint32_t> {};

TEST_P(GgufWriterVersion, MetadataOfEveryTypeRoundTrips) {
    GgufWriter w;
    w.set_version(GetParam());
    add_all_metadata(w);
    const auto bytes = w.to_bytes();
    auto f = GgufFile::parse(bytes);
    ASSERT_TRUE(f.ok()) << f.error().message;
    EXPECT_EQ(f->version(), GetParam());
    EXPECT_TRUE(f->tensors().empty());
    check_all_metadata(*f);
}

INSTANTIATE_TEST_SUITE_P(Versions, GgufWriterVersion, ::testing::Values(2u, 3u));

TEST(GgufWriter, HeaderBytes) {
    GgufWriter w;
    w.set_version(2);
    w.add_u8("k", 9);
    const auto b = w.to_bytes();
    // "GGUF" | u32 2 | u64 0 tensors | u64 1 kv | u64 1 "k" | u32 0 (u8) | 9
    const std::vector<uint8_t> want = {'G', 'G', 'U', 'F', 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                       1,   0,   0,   0,   0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                                       'k', 0,   0,   0,   0, 9};
    ASSERT_GE(b.size(), want.size());
    EXPECT_EQ(std::vector<uint8_t>(b.begin(), b.begin() + static_cast<long>(want.size())), want);
    EXPECT_EQ(b.size() % 32, 0u); // padded to the default alignment
}

// "t<k>", appended for the same reason as tensor_name.
std::string indexed_name(int k) {
    std::string name = "t";
    name += std::to_string(k);
    return name;
}

std::vector<float> ramp(size_t n) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = std::sin(0.37f * static_cast<float>(i)) * 2.0f;
    return v;
}

// Quantised tensors of every type: the stored bytes equal quantize_row's and decode close.
TEST(GgufWriter, TensorsOfEverySupportedType) {
    GgufWriter w;
    const auto values = ramp(256 * 3); // [3][256]
    for (TensorType t : kSupported) {
        ASSERT_TRUE(w.add_tensor_f32(tensor_name(t), {256, 3}, t, values.data()).ok());
    }
    const auto bytes = w.to_bytes();
    auto f = GgufFile::parse(bytes);
    ASSERT_TRUE(f.ok()) << f.error().message;
    ASSERT_EQ(f->tensors().size(), std::size(kSupported));
    for (TensorType t : kSupported) {
        SCOPED_TRACE(type_name(t));
        const GgufTensorInfo* info = f->find_tensor(tensor_name(t));
        ASSERT_NE(info, nullptr);
        EXPECT_EQ(info->raw_type, static_cast<uint32_t>(t));
        EXPECT_EQ(info->n_dims, 2u);
        EXPECT_EQ(info->ne[0], 256);
        EXPECT_EQ(info->ne[1], 3);
        const uint64_t row_bytes = *tensor_row_bytes(info->type, 256);
        ASSERT_EQ(info->n_bytes, 3 * row_bytes);
        EXPECT_EQ((info->data - bytes.data()) % 32, 0);
        std::vector<uint8_t> want(info->n_bytes);
        for (int r = 0; r < 3; ++r) quantize_row(t, values.data() + 256 * r, want.data() + r * row_bytes, 256);
        EXPECT_EQ(std::memcmp(info->data, want.data(), want.size()), 0);
        auto rows = dequantize_rows(*info, 1, 2);
        ASSERT_TRUE(rows.ok());
        const double bits = 8.0 * static_cast<double>(info->type.type_size) / info->type.block_size;
        if (bits >= 4.0) {
            for (size_t i = 0; i < rows->size(); ++i) EXPECT_NEAR((*rows)[i], values[256 + i], 0.3);
        } else { // 1-3.5 bits, grids of 8 values: close as a row, not value by value
            const std::vector<double> original(values.begin() + 256, values.end());
            EXPECT_LT(test::relative_l2(*rows, original), 0.7);
        }
    }
}

// Raw tensors of odd sizes under a custom alignment: every data offset lands on the alignment
// and the bytes come back unchanged.
TEST(GgufWriter, CustomAlignmentPlacesEveryTensor) {
    for (uint32_t alignment : {1u, 8u, 64u, 4096u}) {
        SCOPED_TRACE(alignment);
        GgufWriter w;
        w.add_string("general.architecture", "llama");
        w.set_alignment(alignment);
        std::vector<std::vector<uint8_t>> datas;
        for (int k = 0; k < 4; ++k) {
            std::vector<uint8_t> d(static_cast<size_t>(2 * (3 + 5 * k))); // F16, 3 + 5k values
            for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(31 * i + static_cast<size_t>(k));
            ASSERT_TRUE(w.add_tensor(indexed_name(k), {3 + 5 * k}, TensorType::F16, d).ok());
            datas.push_back(d);
        }
        const auto bytes = w.to_bytes();
        auto f = GgufFile::parse(bytes);
        ASSERT_TRUE(f.ok()) << f.error().message;
        EXPECT_EQ(f->alignment(), alignment);
        EXPECT_EQ(f->data_offset() % alignment, 0u);
        for (int k = 0; k < 4; ++k) {
            const GgufTensorInfo* t = f->find_tensor(indexed_name(k));
            ASSERT_NE(t, nullptr);
            EXPECT_EQ(t->offset % alignment, 0u);
            EXPECT_EQ(static_cast<uint64_t>(t->data - bytes.data()) % alignment, 0u);
            ASSERT_EQ(t->n_bytes, datas[k].size());
            EXPECT_EQ(std::memcmp(t->data, datas[k].data(), datas[k].size()), 0);
        }
    }
}

TEST(GgufWriter, SetAlignmentReplacesAnEarlierValue) {
    GgufWriter w;
    w.set_alignment(8);
    w.add_u32("x", 1);
    w.set_alignment(16);
    const auto bytes = w.to_bytes();
    auto f = GgufFile::parse(bytes);
    ASSERT_TRUE(f.ok()) << f.error().message;
    EXPECT_EQ(f->alignment(), 16u);
    ASSERT_EQ(f->metadata().size(), 2u);
    EXPECT_EQ(f->metadata()[0].first, "general.alignment");
}

// general.alignment written as an ordinary key is honoured too.
TEST(GgufWriter, AlignmentKeyAddedDirectly) {
    GgufWriter w;
    w.add_u32("general.alignment", 128);
    const std::vector<uint8_t> one(4, 0xab);
    ASSERT_TRUE(w.add_tensor("a", {1}, TensorType::F32, one).ok());
    ASSERT_TRUE(w.add_tensor("b", {1}, TensorType::F32, one).ok());
    const auto bytes = w.to_bytes();
    auto f = GgufFile::parse(bytes);
    ASSERT_TRUE(f.ok()) << f.error().message;
    EXPECT_EQ(f->find_tensor("b")->offset, 128u);
    EXPECT_EQ(f->data_offset() % 128, 0u);
}

TEST(GgufWriter, WriteFileThenOpenGivesAlignedPointers) {
    GgufWriter w;
    w.set_version(2);
    w.set_alignment(64);
    add_all_metadata(w);
    const auto values = ramp(64 * 2);
    ASSERT_TRUE(w.add_tensor_f32("q8", {64, 2}, TensorType::Q8_0, values.data()).ok());
    ASSERT_TRUE(w.add_tensor_f32("f32", {5, 1, 1, 2}, TensorType::F32, values.data()).ok());
    const auto path = std::filesystem::temp_directory_path() /
                      ("octo_writer_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".gguf");
    ASSERT_TRUE(w.write_file(path.string()).ok());
    {
        auto f = GgufFile::open(path.string());
        ASSERT_TRUE(f.ok()) << f.error().message;
        EXPECT_EQ(f->version(), 2u);
        EXPECT_EQ(f->file_size(), std::filesystem::file_size(path));
        for (const auto& t : f->tensors()) {
            EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data) % 64, 0u) << t.name;
        }
        const GgufTensorInfo* t = f->find_tensor("f32");
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->n_dims, 4u);
        EXPECT_EQ(t->ne[3], 2);
        auto rows = dequantize_rows(*t, 0, 2);
        ASSERT_TRUE(rows.ok());
        for (size_t i = 0; i < 10; ++i) EXPECT_EQ((*rows)[i], values[i]);
    }
    std::filesystem::remove(path);
    EXPECT_EQ(w.write_file("/nonexistent-dir/x.gguf").error().code, ErrorCode::Io);
}

TEST(GgufWriter, RejectsInconsistentTensors) {
    GgufWriter w;
    const std::vector<uint8_t> bytes(18);
    EXPECT_EQ(w.add_tensor("a", {32}, TensorType::Q4_0, std::span(bytes).first(17)).error().code,
              ErrorCode::InvalidArgument);
    EXPECT_EQ(w.add_tensor("b", {16}, TensorType::Q4_0, bytes).error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(w.add_tensor("c", {}, TensorType::F32, {}).error().code, ErrorCode::InvalidArgument);
    const std::vector<float> v(256);
    EXPECT_EQ(w.add_tensor_f32("d", {256}, TensorType::Q8_K, v.data()).error().code, ErrorCode::Unsupported);
    EXPECT_EQ(w.add_tensor_f32("e", {48}, TensorType::Q8_0, v.data()).error().code, ErrorCode::InvalidArgument);
    EXPECT_TRUE(w.add_tensor("f", {32, 1}, TensorType::Q4_0, bytes).ok());
}

// The writer can produce files the reader must refuse.
TEST(GgufWriter, WritesDeliberatelyOddFiles) {
    {
        GgufWriter w;
        w.add_u32("dup", 1);
        w.add_u32("dup", 2);
        const auto bytes = w.to_bytes();
        EXPECT_EQ(GgufFile::parse(bytes).error().code, ErrorCode::Format);
    }
    {
        GgufWriter w;
        w.add_tensor_raw("t", {4}, 12345, std::vector<uint8_t>(16));
        const auto bytes = w.to_bytes();
        EXPECT_EQ(GgufFile::parse(bytes).error().code, ErrorCode::Format);
    }
    {
        GgufWriter w;
        w.add_tensor_raw("t", {4}, static_cast<uint32_t>(TensorType::F32), std::vector<uint8_t>(8));
        auto bytes = w.to_bytes();
        bytes.resize(bytes.size() - 32); // drop the padded data: the tensor runs past the end
        EXPECT_EQ(GgufFile::parse(bytes).error().code, ErrorCode::Format);
    }
    {
        GgufWriter w;
        w.set_version(1);
        const auto bytes = w.to_bytes();
        EXPECT_FALSE(GgufFile::parse(bytes).ok());
    }
}

} // namespace
} // namespace octo
