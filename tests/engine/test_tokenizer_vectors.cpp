// Tokenizer test vectors from llama.cpp's models/ folder (../shared/refdata/vocab):
// every input of every vocab must tokenize to exactly the reference ids
// (no BOS/EOS, special tokens not parsed).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/gguf/gguf_file.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/shared_data.h"

namespace octo {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// `.inp`: inputs, each followed by "\n__ggml_vocab_test__\n".
std::vector<std::string> read_inputs(const fs::path& path) {
    const std::string all = read_all(path);
    const std::string separator = "\n__ggml_vocab_test__\n";
    std::vector<std::string> inputs;
    size_t begin = 0;
    for (size_t at = all.find(separator); at != std::string::npos; at = all.find(separator, begin)) {
        inputs.push_back(all.substr(begin, at - begin));
        begin = at + separator.size();
    }
    return inputs;
}

// `.out`: one line of space-separated ids per input.
std::vector<std::vector<int32_t>> read_outputs(const fs::path& path) {
    std::ifstream in(path);
    std::vector<std::vector<int32_t>> outputs;
    for (std::string line; std::getline(in, line);) {
        std::istringstream ss(line);
        std::vector<int32_t> ids;
        for (int32_t id = 0; ss >> id;) ids.push_back(id);
        outputs.push_back(std::move(ids));
    }
    return outputs;
}

std::string format_ids(const std::vector<int32_t>& ids) {
    std::string out = "[";
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i) out += ' ';
        out += std::to_string(ids[i]);
    }
    return out + "]";
}

std::string escaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else {
            out += c;
        }
    }
    return out;
}

std::vector<std::string> vocab_names() {
    std::vector<std::string> names;
    const auto ref = test::refdata_dir();
    if (!ref) return names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(*ref / "vocab", ec)) {
        const fs::path p = entry.path();
        if (p.extension() != ".gguf") continue;
        if (!fs::exists(p.string() + ".inp") || !fs::exists(p.string() + ".out")) continue;
        names.push_back(p.filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

class TokenizerVectors : public ::testing::TestWithParam<std::string> {};

TEST_P(TokenizerVectors, AllInputsMatchReferenceIds) {
    const auto ref = test::refdata_dir();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    const fs::path gguf = *ref / "vocab" / GetParam();

    auto file = GgufFile::open(gguf.string());
    ASSERT_TRUE(file.ok()) << gguf << ": " << file.error().message;
    auto vocab = vocab_from_gguf(*file);
    ASSERT_TRUE(vocab.ok()) << gguf << ": " << vocab.error().message;
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    ASSERT_TRUE(tokenizer.ok()) << gguf << ": " << tokenizer.error().message;

    const auto inputs = read_inputs(gguf.string() + ".inp");
    const auto expected = read_outputs(gguf.string() + ".out");
    ASSERT_EQ(inputs.size(), expected.size()) << gguf;
    ASSERT_FALSE(inputs.empty()) << gguf;

    size_t matched = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        auto ids = tokenizer->encode(inputs[i], /*add_special=*/false, /*parse_special=*/false);
        ASSERT_TRUE(ids.ok()) << GetParam() << " input " << i << ": " << ids.error().message;
        if (*ids == expected[i]) {
            ++matched;
        } else {
            ADD_FAILURE() << GetParam() << " input " << i << " \"" << escaped(inputs[i]) << "\"\n"
                          << "  expected " << format_ids(expected[i]) << "\n"
                          << "  got      " << format_ids(*ids);
        }
    }
    RecordProperty("matched", std::to_string(matched) + "/" + std::to_string(inputs.size()));
    EXPECT_EQ(matched, inputs.size()) << GetParam();
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param;
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(RefVocab, TokenizerVectors, ::testing::ValuesIn(vocab_names()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TokenizerVectors);

} // namespace
} // namespace octo
