// Head → subsystem map: defaults for several head counts, the JSON file round trip, every
// validation error, and grouping per-head values into normalised subsystem shares.
// Covers: head_map_json.cpp, subsystem.cpp, subsystem_grouping.cpp
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/subsystem_grouping.h"

namespace octo {
namespace {

// One layer of a map as letters: "abcdefgh" means head k is rte-(a+k).
std::string row_letters(const HeadMap& map, int64_t layer) {
    std::string row;
    for (int64_t h = 0; h < map.n_head(); ++h) row.push_back(static_cast<char>('a' + map.subsystem_of(layer, h)));
    return row;
}

using Counts = std::array<int64_t, kSubsystemCount>;

TEST(HeadMapIds, IdsAndIndices) {
    EXPECT_EQ(subsystem_id(0), "rte-a");
    EXPECT_EQ(subsystem_id(7), "rte-h");
    EXPECT_EQ(subsystem_index("rte-c"), 2);
    EXPECT_EQ(subsystem_index("rte-i"), std::nullopt);
    EXPECT_EQ(subsystem_index("RTE-A"), std::nullopt);
}

TEST(HeadMapDefault, EightHeadsHeadKIsSubsystemK) {
    const HeadMap map = HeadMap::make_default(3, 8);
    for (int64_t l = 0; l < 3; ++l) EXPECT_EQ(row_letters(map, l), "abcdefgh");
    EXPECT_EQ(map.head_counts(), (Counts{3, 3, 3, 3, 3, 3, 3, 3}));
    EXPECT_EQ(map.heads_of(5, 2), (std::vector<int64_t>{5}));
    EXPECT_TRUE(map.empty_subsystems().empty());
    EXPECT_EQ(map.source(), HeadMapSource::Default);
}

TEST(HeadMapDefault, TwelveHeadsFirstFourSubsystemsGetTheExtraHead) {
    const HeadMap map = HeadMap::make_default(2, 12);
    EXPECT_EQ(row_letters(map, 0), "aabbccddefgh");
    EXPECT_EQ(row_letters(map, 1), "aabbccddefgh");
    EXPECT_EQ(map.heads_of(0, 1), (std::vector<int64_t>{0, 1}));
    EXPECT_EQ(map.heads_of(3, 0), (std::vector<int64_t>{6, 7}));
    EXPECT_EQ(map.heads_of(4, 0), (std::vector<int64_t>{8}));
    EXPECT_EQ(map.heads_of(7, 1), (std::vector<int64_t>{11}));
    EXPECT_EQ(map.head_counts(), (Counts{4, 4, 4, 4, 2, 2, 2, 2}));
    EXPECT_TRUE(map.empty_subsystems().empty());
}

TEST(HeadMapDefault, SixteenHeadsTwoEach) {
    const HeadMap map = HeadMap::make_default(1, 16);
    EXPECT_EQ(row_letters(map, 0), "aabbccddeeffgghh");
    EXPECT_EQ(map.heads_of(6, 0), (std::vector<int64_t>{12, 13}));
    EXPECT_EQ(map.head_counts(), (Counts{2, 2, 2, 2, 2, 2, 2, 2}));
}

TEST(HeadMapDefault, SixHeadsLeaveTheLastTwoSubsystemsEmpty) {
    const HeadMap map = HeadMap::make_default(4, 6);
    EXPECT_EQ(row_letters(map, 3), "abcdef");
    EXPECT_EQ(map.head_counts(), (Counts{4, 4, 4, 4, 4, 4, 0, 0}));
    EXPECT_EQ(map.empty_subsystems(), (std::vector<int>{6, 7}));
    EXPECT_TRUE(map.is_empty(7));
    EXPECT_FALSE(map.is_empty(5));
    EXPECT_TRUE(map.heads_of(6, 0).empty());
}

TEST(HeadMapDefault, ThirtyTwoHeadsFourEach) {
    const HeadMap map = HeadMap::make_default(2, 32);
    EXPECT_EQ(row_letters(map, 1), "aaaabbbbccccddddeeeeffffgggghhhh");
    EXPECT_EQ(map.heads_of(7, 0), (std::vector<int64_t>{28, 29, 30, 31}));
    EXPECT_EQ(map.head_counts(), (Counts{8, 8, 8, 8, 8, 8, 8, 8}));
}

class HeadMapFile : public ::testing::Test {
protected:
    void TearDown() override { std::remove(path_.c_str()); }
    std::string write(const std::string& text) {
        std::ofstream(path_, std::ios::binary) << text;
        return path_;
    }
    // One file per test, so tests run in parallel processes do not share it.
    std::string path_ = ::testing::TempDir() + "octoscope_head_map_" +
                        ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json";
};

TEST_F(HeadMapFile, LoadsAndSerialisesBack) {
    const std::string text = R"({"version": 1, "layers": [["rte-h", "rte-a", "rte-a"], ["rte-c", "rte-c", "rte-b"]]})";
    Result<HeadMap> map = HeadMap::load_file(write(text), 2, 3);
    ASSERT_TRUE(map.ok()) << map.error().message;
    EXPECT_EQ(row_letters(*map, 0), "haa");
    EXPECT_EQ(row_letters(*map, 1), "ccb");
    EXPECT_EQ(map->head_counts(), (Counts{2, 1, 2, 0, 0, 0, 0, 1}));
    EXPECT_EQ(map->empty_subsystems(), (std::vector<int>{3, 4, 5, 6}));
    EXPECT_EQ(map->source(), HeadMapSource::File);
    EXPECT_EQ(map->path(), path_);
    EXPECT_EQ(map->to_json(), nlohmann::json::parse(text));
    EXPECT_EQ(map->describe(), (nlohmann::json{{"source", "file"}, {"path", path_}}));

    Result<HeadMap> again = HeadMap::parse(map->to_json().dump(), 2, 3, HeadMapSource::Calibrated);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(row_letters(*again, 0), "haa");
    EXPECT_EQ(row_letters(*again, 1), "ccb");
    EXPECT_EQ(again->describe(), (nlohmann::json{{"source", "calibrated"}, {"path", nullptr}}));
}

TEST_F(HeadMapFile, DefaultMapRoundTripsThroughJson) {
    const HeadMap map = HeadMap::make_default(2, 12);
    const nlohmann::json doc = map.to_json();
    EXPECT_EQ(doc["layers"][1][2], "rte-b");
    EXPECT_EQ(doc["layers"][1][8], "rte-e");
    Result<HeadMap> back = HeadMap::from_json(doc, 2, 12, HeadMapSource::Gguf);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(row_letters(*back, 1), "aabbccddefgh");
    EXPECT_EQ(std::string(head_map_source_name(back->source())), "gguf");
    EXPECT_EQ(map.describe(), (nlohmann::json{{"source", "default"}, {"path", nullptr}}));
}

TEST_F(HeadMapFile, UnreadableFileIsAnIoError) {
    Result<HeadMap> map = HeadMap::load_file(path_ + ".missing", 2, 3);
    ASSERT_FALSE(map.ok());
    EXPECT_EQ(map.error().code, ErrorCode::Io);
    EXPECT_EQ(map.error().message, "head map " + path_ + ".missing: cannot open the file");
}

TEST_F(HeadMapFile, ErrorsNameTheFile) {
    Result<HeadMap> map = HeadMap::load_file(write(R"({"version": 2, "layers": []})"), 2, 3);
    ASSERT_FALSE(map.ok());
    EXPECT_EQ(map.error().message, "head map " + path_ + ": unsupported version 2 (expected 1)");
}

struct BadMap {
    const char* text;
    ErrorCode code;
    const char* message;
};

class HeadMapValidation : public ::testing::TestWithParam<BadMap> {};

TEST_P(HeadMapValidation, RejectsWithASpecificMessage) {
    Result<HeadMap> map = HeadMap::parse(GetParam().text, 2, 3, HeadMapSource::File);
    ASSERT_FALSE(map.ok());
    EXPECT_EQ(map.error().code, GetParam().code);
    EXPECT_EQ(map.error().message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    HeadMap, HeadMapValidation,
    ::testing::Values(
        BadMap{R"({"version": 1, "layers": [)", ErrorCode::Format,
               "head map: not valid JSON: parse error at line 1, column 27: syntax error while parsing value - "
               "unexpected end of input; expected '[', '{', or a literal"},
        BadMap{R"([1, 2])", ErrorCode::Format, "head map: expected a JSON object, got array"},
        BadMap{R"({"version": 1, "layers": [], "heads": 3})", ErrorCode::Format,
               R"(head map: unknown key "heads" (allowed: "version", "layers"))"},
        BadMap{R"({"layers": []})", ErrorCode::Format, "head map: missing \"version\""},
        BadMap{R"({"version": 2, "layers": []})", ErrorCode::Format, "head map: unsupported version 2 (expected 1)"},
        BadMap{R"({"version": "1", "layers": []})", ErrorCode::Format,
               "head map: unsupported version \"1\" (expected 1)"},
        BadMap{R"({"version": 1})", ErrorCode::Format, "head map: missing \"layers\""},
        BadMap{R"({"version": 1, "layers": {}})", ErrorCode::Format, "head map: \"layers\" must be an array, got object"},
        BadMap{R"({"version": 1, "layers": [["rte-a", "rte-b", "rte-c"]]})", ErrorCode::InvalidArgument,
               "head map: has 1 layers, the model has 2"},
        BadMap{R"({"version": 1, "layers": [["rte-a", "rte-b", "rte-c"], "rte-a"]})", ErrorCode::Format,
               "head map: layer 1: expected an array of subsystem ids, got string"},
        BadMap{R"({"version": 1, "layers": [["rte-a", "rte-b", "rte-c"], ["rte-a", "rte-b"]]})",
               ErrorCode::InvalidArgument, "head map: layer 1 has 2 heads, the model has 3 per layer"},
        BadMap{R"({"version": 1, "layers": [["rte-a", "rte-b", "rte-c"], ["rte-a", "rte-b", "rte-i"]]})",
               ErrorCode::Format, "head map: layer 1, head 2: unknown subsystem id \"rte-i\" (expected rte-a … rte-h)"},
        BadMap{R"({"version": 1, "layers": [["rte-a", 3, "rte-c"], ["rte-a", "rte-b", "rte-c"]]})",
               ErrorCode::Format, "head map: layer 0, head 1: expected a subsystem id string, got number"}));

// Map of 1 layer x 12 heads: a a b b c c d d e f g h.
TEST(HeadMapGrouping, MeanPerHeadThenNormalised) {
    const HeadMap map = HeadMap::make_default(1, 12);
    const std::vector<float> v = {1, 3, 2, 2, 0, 0, 4, 8, 5, 1, 0, 2};
    // means: a 2, b 2, c 0, d 6, e 5, f 1, g 0, h 2; sum 18
    Result<SubsystemValues> means = group_mean_per_head(map, v);
    ASSERT_TRUE(means.ok());
    EXPECT_EQ(*means, (SubsystemValues{2, 2, 0, 6, 5, 1, 0, 2}));
    Result<SubsystemValues> shares = subsystem_shares(map, v);
    ASSERT_TRUE(shares.ok());
    const std::array<double, 8> expected = {2.0 / 18, 2.0 / 18, 0, 6.0 / 18, 5.0 / 18, 1.0 / 18, 0, 2.0 / 18};
    for (size_t s = 0; s < 8; ++s) EXPECT_NEAR((*shares)[s], expected[s], 1e-7) << s;
}

TEST(HeadMapGrouping, MeanRunsOverAllLayers) {
    const HeadMap map = HeadMap::make_default(2, 8);
    const std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8, /* layer 1 */ 3, 3, 3, 3, 3, 3, 3, 3};
    Result<SubsystemValues> means = group_mean_per_head(map, v);
    ASSERT_TRUE(means.ok());
    EXPECT_EQ(*means, (SubsystemValues{2, 2.5f, 3, 3.5f, 4, 4.5f, 5, 5.5f}));
    Result<SubsystemValues> shares = subsystem_shares(map, v); // sum of means 30
    ASSERT_TRUE(shares.ok());
    EXPECT_NEAR((*shares)[0], 2.0 / 30, 1e-7);
    EXPECT_NEAR((*shares)[7], 5.5 / 30, 1e-7);
}

TEST(HeadMapGrouping, EmptySubsystemsReportZero) {
    const HeadMap map = HeadMap::make_default(1, 6);
    Result<SubsystemValues> shares = subsystem_shares(map, std::vector<float>{1, 1, 1, 1, 1, 5});
    ASSERT_TRUE(shares.ok());
    const std::array<double, 8> expected = {0.1, 0.1, 0.1, 0.1, 0.1, 0.5, 0, 0};
    for (size_t s = 0; s < 8; ++s) EXPECT_NEAR((*shares)[s], expected[s], 1e-7) << s;
}

TEST(HeadMapGrouping, AllZeroIsUniformOverNonEmptySubsystems) {
    Result<SubsystemValues> six = subsystem_shares(HeadMap::make_default(1, 6), std::vector<float>(6, 0.0f));
    ASSERT_TRUE(six.ok());
    const float sixth = 1.0f / 6.0f;
    EXPECT_EQ(*six, (SubsystemValues{sixth, sixth, sixth, sixth, sixth, sixth, 0, 0}));
    Result<SubsystemValues> eight = subsystem_shares(HeadMap::make_default(2, 8), std::vector<float>(16, 0.0f));
    ASSERT_TRUE(eight.ok());
    EXPECT_EQ(*eight, (SubsystemValues{0.125f, 0.125f, 0.125f, 0.125f, 0.125f, 0.125f, 0.125f, 0.125f}));
}

TEST(HeadMapGrouping, SignedValuesGroupButDoNotNormalise) {
    const HeadMap map = HeadMap::make_default(1, 8);
    const std::vector<float> v = {-1, 2, 0, 0, 0, 0, 0, 0};
    Result<SubsystemValues> means = group_mean_per_head(map, v);
    ASSERT_TRUE(means.ok());
    EXPECT_EQ((*means)[0], -1.0f);
    Result<SubsystemValues> shares = subsystem_shares(map, v);
    ASSERT_FALSE(shares.ok());
    EXPECT_EQ(shares.error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(shares.error().message, "per-head value at layer 0, head 0 is -1.000000 (must be finite and >= 0)");
}

TEST(HeadMapGrouping, NonFiniteAndWrongSizeAreErrors) {
    const HeadMap map = HeadMap::make_default(2, 8);
    std::vector<float> v(16, 1.0f);
    v[10] = std::numeric_limits<float>::quiet_NaN();
    Result<SubsystemValues> nan = subsystem_shares(map, v);
    ASSERT_FALSE(nan.ok());
    EXPECT_EQ(nan.error().message.rfind("per-head value at layer 1, head 2 is ", 0), 0u) << nan.error().message;
    Result<SubsystemValues> small = group_mean_per_head(map, std::vector<float>(15, 1.0f));
    ASSERT_FALSE(small.ok());
    EXPECT_EQ(small.error().message, "per-head values: got 15, expected 2 layers x 8 heads");
}

} // namespace
} // namespace octo
