// The claims lab's models: the loaded one as the lab measures it, and a further file opened onto
// the loaded model's backend with the same set-up (tokenizer, head map, KV pool).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/host/claim_variant.h"
#include "engine/host/model_setup.h"
#include "engine/model/synthetic_model.h"
#include "tests/support/test_temp.h"

namespace octo {
namespace {

std::string synthetic_file(const std::string& name) {
    SyntheticModelSpec spec;
    spec.n_layer = 2;
    return test::write_temp_file(name, make_synthetic_model(spec).value());
}

Result<OpenedModel> open_loaded() {
    OpenOptions o;
    o.backend = "cpu";
    o.threads = 1;
    o.n_ctx = 48;
    return open_model(synthetic_file("loaded.gguf"), o);
}

TEST(ClaimVariant, TheLoadedModelAsTheLabMeasuresIt) {
    Result<OpenedModel> opened = open_loaded();
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    const ClaimModel m = claim_model_of(*opened, *opened->backend, "loaded (x.gguf)");
    EXPECT_EQ(m.model, opened->model.get());
    EXPECT_EQ(m.backend, opened->backend.get());
    EXPECT_EQ(m.tokenizer, opened->tokenizer.get());
    EXPECT_EQ(m.map, &opened->map());
    EXPECT_EQ(m.kv, opened->kv.get());
    EXPECT_EQ(m.name, "loaded (x.gguf)");
    EXPECT_FALSE(m.server);

    Result<ClaimVariant> variant = open_claim_variant(synthetic_file("variant.gguf"), *opened->backend);
    ASSERT_TRUE(variant.ok()) << variant.error().message;
    EXPECT_NE(variant->owner, nullptr);
    EXPECT_EQ(variant->model.backend, opened->backend.get()) << "runs on the loaded model's backend";
    ASSERT_NE(variant->model.model, nullptr);
    EXPECT_NE(variant->model.model, opened->model.get());
    EXPECT_NE(variant->model.tokenizer, nullptr);
    EXPECT_NE(variant->model.map, nullptr);
    EXPECT_NE(variant->model.kv, nullptr);
    const auto* owned = static_cast<const OpenedModel*>(variant->owner.get());
    EXPECT_EQ(variant->model.model, owned->model.get()) << "the owner keeps the variant's model alive";
    EXPECT_EQ(variant->model.name, owned->info.name);
    EXPECT_FALSE(variant->model.name.empty());
}

TEST(ClaimVariant, AMissingFileIsAnError) {
    Result<OpenedModel> opened = open_loaded();
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    Result<ClaimVariant> variant = open_claim_variant(test::test_temp_path("missing.gguf"), *opened->backend);
    ASSERT_FALSE(variant.ok());
    EXPECT_EQ(variant.error().code, ErrorCode::Io) << variant.error().message;
}

} // namespace
} // namespace octo
