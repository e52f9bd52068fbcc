// GGUF reader on real files from ../shared/refdata (facts from its README).
// Covers: gguf_file.cpp, gguf_value.cpp, mapped_bytes.cpp
#include <gtest/gtest.h>

#include "engine/gguf/gguf_file.h"
#include "engine/model/model_params.h"
#include "tests/support/shared_data.h"

namespace {

std::optional<std::string> refdata_file(const char* name) {
    auto dir = octo::test::refdata_dir();
    if (!dir) return std::nullopt;
    return (*dir / name).string();
}

TEST(GgufReader, Stories260KMetadataAndTensors) {
    auto path = refdata_file("stories260K.gguf");
    if (!path) GTEST_SKIP() << "../shared/refdata is absent";
    auto f = octo::GgufFile::open(*path);
    ASSERT_TRUE(f.ok()) << f.error().message;
    EXPECT_EQ(f->tensors().size(), 48u);
    EXPECT_EQ(f->get_string("general.architecture").value(), "llama");
    EXPECT_EQ(f->get_string("tokenizer.ggml.model").value(), "llama");
    auto tokens = f->get_array("tokenizer.ggml.tokens");
    ASSERT_TRUE(tokens.ok());
    ASSERT_EQ(tokens.value()->elem_type, octo::GgufType::String);
    EXPECT_EQ(tokens.value()->strings.size(), 512u);
    EXPECT_EQ(tokens.value()->strings[3], "<0x00>");
    for (const auto& t : f->tensors()) {
        EXPECT_EQ(t.type.name, "F32") << t.name;
        EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data) % 32, 0u) << t.name; // alignment honoured in the map
    }
    const auto* emb = f->find_tensor("token_embd.weight");
    ASSERT_NE(emb, nullptr);
    EXPECT_EQ(emb->n_dims, 2u);
    EXPECT_EQ(emb->ne[0], 64);
    EXPECT_EQ(emb->ne[1], 512);
    EXPECT_EQ(emb->n_bytes, 64u * 512u * 4u);

    auto p = octo::read_model_params(f.value());
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(p->n_layer, 5);
    EXPECT_EQ(p->n_head, 8);
    EXPECT_EQ(p->n_head_kv, 4);
    EXPECT_EQ(p->n_embd, 64);
    EXPECT_EQ(p->n_ff, 172);
    EXPECT_EQ(p->head_dim(), 8);
    EXPECT_EQ(p->n_rot, 8);
    EXPECT_EQ(p->context_length, 128);
    EXPECT_EQ(p->n_vocab, 512);
    EXPECT_DOUBLE_EQ(p->rope_freq_base, 10000.0);
    EXPECT_NEAR(p->rms_norm_eps, 1e-5, 1e-12);
}

TEST(GgufReader, Qwen2TinyHyperparameters) {
    auto path = refdata_file("qwen2-tiny-q4_k_m.gguf");
    if (!path) GTEST_SKIP() << "../shared/refdata is absent";
    auto f = octo::GgufFile::open(*path);
    ASSERT_TRUE(f.ok()) << f.error().message;
    auto p = octo::read_model_params(f.value());
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(p->architecture, "qwen2");
    EXPECT_EQ(p->n_embd, 256);
    EXPECT_EQ(p->n_layer, 4);
    EXPECT_EQ(p->n_head, 8);
    EXPECT_EQ(p->n_head_kv, 2);
    EXPECT_EQ(p->n_ff, 512);
    EXPECT_DOUBLE_EQ(p->rope_freq_base, 1e6);
    bool has_q4k = false, has_q6k = false;
    for (const auto& t : f->tensors()) {
        has_q4k |= t.type.name == "Q4_K";
        has_q6k |= t.type.name == "Q6_K";
    }
    EXPECT_TRUE(has_q4k);
    EXPECT_TRUE(has_q6k);
}

TEST(GgufReader, EveryVocabFileOpens) {
    auto dir = octo::test::refdata_dir();
    if (!dir) GTEST_SKIP() << "../shared/refdata is absent";
    int n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(*dir / "vocab")) {
        if (entry.path().extension() != ".gguf") continue;
        auto f = octo::GgufFile::open(entry.path().string());
        ASSERT_TRUE(f.ok()) << f.error().message;
        EXPECT_TRUE(f->tensors().empty()) << entry.path();
        EXPECT_TRUE(f->get_array("tokenizer.ggml.tokens").ok()) << entry.path();
        ++n;
    }
    EXPECT_EQ(n, 13); // llama.cpp's nine test vocabularies and four real ones (refdata README)
}

} // namespace
