// octoscope-cli tokenize on a hand-built SentencePiece-style vocabulary (ids worked out by hand).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/gguf/gguf_writer.h"
#include "tests/cli/cli_runner.h"
#include "engine/model/synthetic_model.h"

namespace {

using octo::test::run_cli;

// ids: 0 <unk>, 1 <s>, 2 </s>, 3..258 <0x00>..<0xFF>, 259 "▁", 260 "H", 261 "i", 262 "▁H", 263 "▁Hi".
std::string write_vocab() {
    std::vector<std::string> tokens = {"<unk>", "<s>", "</s>"};
    std::vector<float> scores = {0, 0, 0};
    std::vector<int32_t> types = {2, 3, 3};
    for (int b = 0; b < 256; ++b) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", b);
        tokens.push_back(name);
        scores.push_back(0);
        types.push_back(6);
    }
    for (auto [text, score] : {std::pair{"\xE2\x96\x81", -1.0f}, {"H", -2.0f}, {"i", -3.0f},
                               {"\xE2\x96\x81H", -4.0f}, {"\xE2\x96\x81Hi", -5.0f}}) {
        tokens.push_back(text);
        scores.push_back(score);
        types.push_back(1);
    }
    octo::GgufWriter w;
    w.add_string("general.architecture", "llama");
    octo::write_spm_vocab(w, tokens, scores, types);
    const std::string path = octo::test::temp_path("vocab.gguf");
    EXPECT_TRUE(w.write_file(path).ok());
    return path;
}

class CliTokenize : public ::testing::Test {
protected:
    void SetUp() override { vocab_ = write_vocab(); }
    void TearDown() override { std::filesystem::remove(vocab_); }
    std::string vocab_;
};

TEST_F(CliTokenize, IdsPiecesAndBytes) {
    auto run = run_cli({"tokenize", "--model", vocab_, "--text", "Hi \xC3\xA9", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    // "▁Hi▁é": ▁Hi, ▁, then é has no token and falls back to its bytes C3 A9.
    EXPECT_EQ(j["ids"], (nlohmann::json{263, 259, 3 + 0xC3, 3 + 0xA9}));
    EXPECT_EQ(j["pieces"], (nlohmann::json{" Hi", " ", "\xEF\xBF\xBD", "\xEF\xBF\xBD"}));
    EXPECT_EQ(j["piece_bytes"], (nlohmann::json{"204869", "20", "c3", "a9"}));
}

TEST_F(CliTokenize, BosOnlyWhenAsked) {
    auto plain = run_cli({"tokenize", "--model", vocab_, "--text", "Hi", "--json"});
    EXPECT_EQ(plain.json()["ids"], (nlohmann::json{263}));
    auto bos = run_cli({"tokenize", "--model", vocab_, "--text", "Hi", "--json", "--bos"});
    EXPECT_EQ(bos.json()["ids"], (nlohmann::json{1, 263}));
    EXPECT_EQ(bos.json()["pieces"][0], "<s>");
}

TEST_F(CliTokenize, ControlTokensParsedOnlyWhenAsked) {
    auto literal = run_cli({"tokenize", "--model", vocab_, "--text", "<s>", "--json"});
    ASSERT_EQ(literal.exit_status, 0) << literal.err;
    for (const auto& id : literal.json()["ids"]) EXPECT_NE(id, 1);
    auto parsed = run_cli({"tokenize", "--model", vocab_, "--text", "<s>", "--json", "--parse-special"});
    ASSERT_EQ(parsed.exit_status, 0) << parsed.err;
    EXPECT_EQ(parsed.json()["ids"][0], 1);
}

TEST_F(CliTokenize, TextFileIsReadByteForByte) {
    const std::string text_path = octo::test::temp_path("text.txt");
    { std::ofstream(text_path, std::ios::binary) << "Hi\n"; }
    auto run = run_cli({"tokenize", "--model", vocab_, "--text-file", text_path, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    EXPECT_EQ(run.json()["ids"], (nlohmann::json{263, 3 + 0x0A}));
    std::filesystem::remove(text_path);
}

} // namespace
