// A second file opened beside the loaded model (the quantisation report's model B): it runs on
// A's backend with A's context and KV cache types, and a file that cannot be opened is an error
// naming it, with A untouched.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/host/model_beside.h"
#include "engine/host/model_setup.h"
#include "engine/model/synthetic_model.h"
#include "tests/support/test_temp.h"

namespace octo {
namespace {

std::string synthetic_file(const std::string& name, uint32_t seed) {
    SyntheticModelSpec spec;
    spec.n_layer = 2;
    spec.seed = seed;
    return test::write_temp_file(name, make_synthetic_model(spec).value());
}

OpenedModel open_a(const std::string& path) {
    OpenOptions o;
    o.backend = "cpu";
    o.threads = 1;
    o.n_ctx = 48;
    Result<OpenedModel> a = open_model(path, o);
    EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message);
    return std::move(a).value();
}

TEST(ModelBeside, RunsOnTheLoadedModelsBackendWithItsContextAndCache) {
    OpenedModel a = open_a(synthetic_file("a.gguf", 1));
    const std::string b_path = synthetic_file("b.gguf", 2);
    Result<OpenedModel> b = open_beside(a, b_path);
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(b->backend, nullptr) << "B has no backend of its own";
    ASSERT_NE(b->kv, nullptr);
    EXPECT_EQ(b->info.n_ctx, a.info.n_ctx);
    EXPECT_EQ(b->info.kv_types, a.info.kv_types);
    EXPECT_EQ(b->info.path, b_path);

    const ReportModel report = report_model_of(*b, *a.backend);
    EXPECT_EQ(&report.model, b->model.get());
    EXPECT_EQ(&report.backend, a.backend.get());
    EXPECT_EQ(&report.kv, b->kv.get());
    EXPECT_NE(report.name.find("b.gguf"), std::string::npos) << report.name;
}

TEST(ModelBeside, AFileThatCannotBeOpenedIsAnErrorNamingIt) {
    OpenedModel a = open_a(synthetic_file("a.gguf", 1));
    const std::string missing = test::test_temp_path("missing.gguf");
    Result<OpenedModel> b = open_beside(a, missing);
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().message.find("missing.gguf"), std::string::npos) << b.error().message;
    EXPECT_NE(a.model, nullptr) << "the loaded model stays open";
}

} // namespace
} // namespace octo
