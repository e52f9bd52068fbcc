// vocab_from_gguf(): reading tokenizer.ggml.* from vocab-only GGUF files (written
// here with GgufWriter, and the reference vocab files), defaults and errors.
// Covers: vocab_gguf.cpp
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/gguf/gguf_file.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/shared_data.h"

namespace octo {
namespace {

// A vocab-only "gpt2" file: 4 tokens, one merge, no tensors.
GgufWriter small_bpe_file() {
    GgufWriter w;
    w.add_string("general.architecture", "gpt2");
    w.add_string("tokenizer.ggml.model", "gpt2");
    w.add_string("tokenizer.ggml.pre", "gpt-2");
    w.add_array_strings("tokenizer.ggml.tokens", {"a", "b", "ab", "<|im_end|>"});
    const std::vector<int32_t> types = {1, 1, 1, 1};
    w.add_array_i32("tokenizer.ggml.token_type", types);
    w.add_array_strings("tokenizer.ggml.merges", {"a b"});
    w.add_u32("tokenizer.ggml.eos_token_id", 3);
    return w;
}

Result<Vocab> read_vocab(const GgufWriter& w, std::vector<uint8_t>& bytes) {
    bytes = w.to_bytes();
    auto file = GgufFile::parse(bytes);
    if (!file) return file.error();
    return vocab_from_gguf(*file);
}

TEST(VocabFromGguf, VocabOnlyFile) {
    std::vector<uint8_t> bytes;
    auto vocab = read_vocab(small_bpe_file(), bytes);
    ASSERT_TRUE(vocab.ok()) << vocab.error().message;
    EXPECT_EQ(vocab->model, "gpt2");
    EXPECT_EQ(vocab->pre, "gpt-2");
    EXPECT_EQ(vocab->size(), 4);
    EXPECT_EQ(vocab->eos_id, 3);
    EXPECT_EQ(vocab->bos_id, -1);
    EXPECT_FALSE(vocab->add_bos); // gpt-2 default
    EXPECT_EQ(vocab->eot_id, 3);  // <|im_end|> found by its text
    EXPECT_EQ(vocab->type(3), TokenType::Control);
    EXPECT_EQ(vocab->eog_ids, std::vector<int32_t>{3});

    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    ASSERT_TRUE(tokenizer.ok());
    auto ids = tokenizer->encode("ab<|im_end|>", false, true);
    ASSERT_TRUE(ids.ok());
    EXPECT_EQ(*ids, (std::vector<int32_t>{2, 3}));
}

TEST(VocabFromGguf, FlagsFromKeys) {
    GgufWriter w = small_bpe_file();
    w.add_u32("tokenizer.ggml.bos_token_id", 0);
    w.add_bool("tokenizer.ggml.add_bos_token", true);
    w.add_bool("tokenizer.ggml.add_eos_token", true);
    std::vector<uint8_t> bytes;
    auto vocab = read_vocab(w, bytes);
    ASSERT_TRUE(vocab.ok()) << vocab.error().message;
    EXPECT_TRUE(vocab->add_bos);
    EXPECT_TRUE(vocab->add_eos);
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    ASSERT_TRUE(tokenizer.ok());
    EXPECT_EQ(*tokenizer->encode("ab", true, false), (std::vector<int32_t>{0, 2, 3}));
}

TEST(VocabFromGguf, SpecialIdOutOfRangeNamesKeyAndId) {
    GgufWriter w = small_bpe_file();
    w.add_u32("tokenizer.ggml.padding_token_id", 77);
    std::vector<uint8_t> bytes;
    auto vocab = read_vocab(w, bytes);
    ASSERT_FALSE(vocab.ok());
    EXPECT_EQ(vocab.error().code, ErrorCode::Tokenizer);
    EXPECT_NE(vocab.error().message.find("tokenizer.ggml.padding_token_id"), std::string::npos);
    EXPECT_NE(vocab.error().message.find("77"), std::string::npos);
}

// Found by fuzzing: special-token detection marked "<|im_end|>" (id 3) as control in a
// token_type array of 2 entries. The arrays are validated before anything indexes them.
TEST(VocabFromGguf, ShortTokenTypeArrayIsAnErrorBeforeDetection) {
    GgufWriter w;
    w.add_string("general.architecture", "gpt2");
    w.add_string("tokenizer.ggml.model", "gpt2");
    w.add_string("tokenizer.ggml.pre", "gpt-2");
    w.add_array_strings("tokenizer.ggml.tokens", {"a", "b", "ab", "<|im_end|>"});
    const std::vector<int32_t> types = {1, 1};
    w.add_array_i32("tokenizer.ggml.token_type", types);
    w.add_array_strings("tokenizer.ggml.merges", {"a b"});
    std::vector<uint8_t> bytes;
    auto vocab = read_vocab(w, bytes);
    ASSERT_FALSE(vocab.ok());
    EXPECT_NE(vocab.error().message.find("token_type has 2 entries"), std::string::npos) << vocab.error().message;
}

TEST(VocabFromGguf, U32MinusOneMeansNoSuchToken) {
    // llama.cpp's converters write an absent id as u32 4294967295 (stories260K's separator).
    GgufWriter w = small_bpe_file();
    w.add_u32("tokenizer.ggml.seperator_token_id", 0xFFFFFFFFu);
    w.add_i32("tokenizer.ggml.padding_token_id", -1);
    std::vector<uint8_t> bytes;
    auto vocab = read_vocab(w, bytes);
    ASSERT_TRUE(vocab.ok()) << vocab.error().message;
    EXPECT_EQ(vocab->sep_id, -1);
    EXPECT_EQ(vocab->pad_id, -1);
}

TEST(VocabFromGguf, Errors) {
    std::vector<uint8_t> bytes;
    {
        GgufWriter w;
        w.add_string("general.architecture", "llama");
        auto vocab = read_vocab(w, bytes);
        ASSERT_FALSE(vocab.ok());
        EXPECT_EQ(vocab.error().code, ErrorCode::Tokenizer);
    }
    {
        GgufWriter bad;
        bad.add_string("tokenizer.ggml.model", "gpt2");
        bad.add_array_strings("tokenizer.ggml.tokens", {"a", "b"});
        bad.add_array_strings("tokenizer.ggml.merges", {"a c"});
        auto vocab = read_vocab(bad, bytes);
        ASSERT_FALSE(vocab.ok());
        EXPECT_NE(vocab.error().message.find("'a c'"), std::string::npos) << vocab.error().message;
    }
    {
        // An unknown pre-tokenizer loads (the tokenizer falls back, test_tokenizer.cpp).
        GgufWriter w;
        w.add_string("tokenizer.ggml.model", "gpt2");
        w.add_string("tokenizer.ggml.pre", "unheard-of");
        w.add_array_strings("tokenizer.ggml.tokens", {"a"});
        w.add_array_strings("tokenizer.ggml.merges", {});
        auto vocab = read_vocab(w, bytes);
        ASSERT_TRUE(vocab.ok()) << vocab.error().message;
        EXPECT_EQ(vocab->pre, "unheard-of");
        auto tokenizer = Tokenizer::create(std::move(vocab.value()));
        ASSERT_TRUE(tokenizer.ok()) << tokenizer.error().message;
        EXPECT_TRUE(tokenizer->pretokenizer_is_fallback());
    }
    {
        GgufWriter w;
        w.add_string("tokenizer.ggml.model", "bert");
        w.add_array_strings("tokenizer.ggml.tokens", {"a"});
        auto vocab = read_vocab(w, bytes);
        ASSERT_FALSE(vocab.ok());
        EXPECT_EQ(vocab.error().code, ErrorCode::Tokenizer);
        EXPECT_NE(vocab.error().message.find("tokenizer.ggml.model is 'bert' (WordPiece"), std::string::npos)
            << vocab.error().message;
    }
    {
        GgufWriter w;
        w.add_string("tokenizer.ggml.model", "llama");
        w.add_array_strings("tokenizer.ggml.tokens", {"<unk>", "<s>", "</s>"});
        const std::vector<float> scores = {0.0f, 0.0f};
        w.add_array_f32("tokenizer.ggml.scores", scores);
        auto vocab = read_vocab(w, bytes);
        ASSERT_FALSE(vocab.ok());
        EXPECT_NE(vocab.error().message.find("tokenizer.ggml.scores"), std::string::npos);
    }
}

TEST(VocabFromGguf, ReferenceLlamaSpmDefaults) {
    const auto ref = test::refdata_dir();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    auto file = GgufFile::open((*ref / "vocab" / "ggml-vocab-llama-spm.gguf").string());
    ASSERT_TRUE(file.ok()) << file.error().message;
    EXPECT_TRUE(file->tensors().empty());
    auto vocab = vocab_from_gguf(*file);
    ASSERT_TRUE(vocab.ok()) << vocab.error().message;
    EXPECT_EQ(vocab->model, "llama");
    EXPECT_EQ(vocab->size(), 32000);
    EXPECT_EQ(vocab->bos_id, 1);
    EXPECT_EQ(vocab->eos_id, 2);
    EXPECT_EQ(vocab->unk_id, 0);
    EXPECT_TRUE(vocab->add_bos);
    EXPECT_TRUE(vocab->add_space_prefix);

    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    ASSERT_TRUE(tokenizer.ok());
    EXPECT_TRUE(tokenizer->is_eog(2));
    EXPECT_TRUE(tokenizer->is_control(1));
    const std::string text = "Hello world! \xF0\x9F\xA6\x99 \xE6\x88\x91\xE6\x83\xB3 \xC3\xA9\xCC\x81";
    auto ids = tokenizer->encode(text, true, false);
    ASSERT_TRUE(ids.ok());
    EXPECT_EQ(ids->front(), 1);
    EXPECT_EQ(tokenizer->decode(*ids), text);
}

} // namespace
} // namespace octo
