// Tokenizer test vectors (../shared/refdata/vocab, see its README): llama.cpp's own
// vocab files from its models/ folder and four real vocabularies (Llama 3, Qwen 3,
// Gemma 3, DeepSeek V3) whose expected ids come from llama.cpp c392e50. Every input of
// every vocab must tokenize to exactly the reference ids (no BOS/EOS, special tokens not
// parsed). Each vocab is one named case (RefVocab/TokenizerVectors.AllInputsMatchReferenceIds/
// <name>); a case skips when ../shared is absent and fails when the folder is there but
// its file is not. A file in the folder without a case fails EveryVocabFileHasACase.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
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

struct VocabCase {
    std::string_view name; // the test's name
    std::string_view file;
    std::string_view model; // tokenizer.ggml.model
    std::string_view pre;   // tokenizer.ggml.pre
    size_t n_inputs;
};

constexpr VocabCase kVocabCases[] = {
    // llama.cpp's models/ folder
    {"llama_spm", "ggml-vocab-llama-spm.gguf", "llama", "default", 46},
    {"phi_3", "ggml-vocab-phi-3.gguf", "llama", "default", 46},
    {"gpt_2", "ggml-vocab-gpt-2.gguf", "gpt2", "gpt-2", 46},
    {"deepseek_llm", "ggml-vocab-deepseek-llm.gguf", "gpt2", "deepseek-llm", 46},
    {"deepseek_coder", "ggml-vocab-deepseek-coder.gguf", "gpt2", "deepseek-coder", 46},
    {"falcon", "ggml-vocab-falcon.gguf", "gpt2", "falcon", 46},
    {"mpt", "ggml-vocab-mpt.gguf", "gpt2", "mpt", 46},
    {"starcoder", "ggml-vocab-starcoder.gguf", "gpt2", "starcoder", 46},
    {"refact", "ggml-vocab-refact.gguf", "gpt2", "refact", 46},
    // real vocabularies, ids from llama.cpp c392e50
    {"real_llama3", "ggml-vocab-llama3.gguf", "gpt2", "llama-bpe", 46},
    {"real_qwen3", "ggml-vocab-qwen3.gguf", "gpt2", "qwen2", 46},
    {"real_gemma3", "ggml-vocab-gemma3.gguf", "llama", "default", 46},
    {"real_deepseek_v3", "ggml-vocab-deepseek-v3.gguf", "gpt2", "deepseek-v3", 46},
};

void PrintTo(const VocabCase& c, std::ostream* os) { *os << c.file; }

class TokenizerVectors : public ::testing::TestWithParam<VocabCase> {};

TEST_P(TokenizerVectors, AllInputsMatchReferenceIds) {
    const VocabCase& c = GetParam();
    const auto ref = test::refdata_dir();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    const fs::path gguf = *ref / "vocab" / c.file;
    ASSERT_TRUE(fs::exists(gguf)) << gguf << " is missing";

    auto file = GgufFile::open(gguf.string());
    ASSERT_TRUE(file.ok()) << gguf << ": " << file.error().message;
    auto vocab = vocab_from_gguf(*file);
    ASSERT_TRUE(vocab.ok()) << gguf << ": " << vocab.error().message;
    EXPECT_EQ(vocab->model, c.model);
    EXPECT_EQ(vocab->pre, c.pre);
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    ASSERT_TRUE(tokenizer.ok()) << gguf << ": " << tokenizer.error().message;
    EXPECT_FALSE(tokenizer->pretokenizer_is_fallback()) << c.file;

    const auto inputs = read_inputs(gguf.string() + ".inp");
    const auto expected = read_outputs(gguf.string() + ".out");
    ASSERT_EQ(inputs.size(), c.n_inputs) << gguf;
    ASSERT_EQ(expected.size(), c.n_inputs) << gguf;

    size_t matched = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        auto ids = tokenizer->encode(inputs[i], /*add_special=*/false, /*parse_special=*/false);
        ASSERT_TRUE(ids.ok()) << c.file << " input " << i << ": " << ids.error().message;
        if (*ids == expected[i]) {
            ++matched;
        } else {
            ADD_FAILURE() << c.file << " input " << i << " \"" << escaped(inputs[i]) << "\"\n"
                          << "  expected " << format_ids(expected[i]) << "\n"
                          << "  got      " << format_ids(*ids);
        }
    }
    RecordProperty("matched", std::to_string(matched) + "/" + std::to_string(inputs.size()));
    EXPECT_EQ(matched, inputs.size()) << c.file;
}

std::string test_name(const ::testing::TestParamInfo<VocabCase>& info) { return std::string(info.param.name); }

INSTANTIATE_TEST_SUITE_P(RefVocab, TokenizerVectors, ::testing::ValuesIn(kVocabCases), test_name);

// A vocab file added to the folder must get a case above, not go untested.
TEST(TokenizerVectorsFolder, EveryVocabFileHasACase) {
    const auto ref = test::refdata_dir();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    std::error_code ec;
    size_t n_files = 0;
    for (const auto& entry : fs::directory_iterator(*ref / "vocab", ec)) {
        const fs::path p = entry.path();
        if (p.extension() != ".gguf" || !fs::exists(p.string() + ".inp")) continue;
        ++n_files;
        const std::string name = p.filename().string();
        const bool listed = std::any_of(std::begin(kVocabCases), std::end(kVocabCases),
                                        [&](const VocabCase& c) { return c.file == name; });
        EXPECT_TRUE(listed) << name << " has no test case in test_tokenizer_vectors.cpp";
    }
    EXPECT_FALSE(ec) << ec.message();
    EXPECT_EQ(n_files, std::size(kVocabCases));
}

} // namespace
} // namespace octo
