// The two-stage router's parts: the lexical embedding, centroids, feature rules (both
// languages, byte-offset spans, count caps, schema errors) and the router's decision, including
// the relabel-and-recompute round trip; the model embedding and its on-disk centroid cache.
// Covers: centroids.cpp, centroid_cache.cpp, feature_rules.cpp, lexical_embedding.cpp,
//   model_embedding.cpp, probe_set.cpp, engine/model/user_data.cpp
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/router/router.h"

namespace octo {
namespace {

TEST(LexicalEmbedding, NormalisesCaseDigitsAndSpaces) {
    EXPECT_EQ(LexicalEmbedding::ngram_counts("Apple 2023"), LexicalEmbedding::ngram_counts("apple   1999"));
    EXPECT_NE(LexicalEmbedding::ngram_counts("apple"), LexicalEmbedding::ngram_counts("apply"));
    // 3 code points of Chinese: 3 unigrams + 2 bigrams + 1 trigram.
    int total = 0;
    for (const auto& [bucket, count] : LexicalEmbedding::ngram_counts("苹果公")) total += count;
    EXPECT_EQ(total, 6);
    const std::vector<std::string> corpus = {"苹果公司的营收", "计算增长率", "what is 12% of 50"};
    LexicalEmbedding e; // n-grams only
    e.fit(corpus);
    const auto v = e.embed("苹果公司");
    EXPECT_EQ(v.size(), size_t(LexicalEmbedding::kDims));
    double norm = 0.0;
    for (float x : v) norm += double(x) * x;
    EXPECT_NEAR(norm, 1.0, 1e-5);
    EXPECT_NEAR(cosine(v, v), 1.0f, 1e-5f);
    EXPECT_GT(cosine(e.embed("苹果公司营收"), e.embed("苹果公司")), cosine(e.embed("计算增长率"), e.embed("苹果公司")));
    for (float x : e.embed("")) EXPECT_EQ(x, 0.0f);
}

TEST(Centroids, MeanOfUnitVectorsNormalised) {
    const std::vector<std::vector<float>> e = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const std::vector<int> labels = {0, 0, 3};
    const Centroids c = compute_centroids(e, labels);
    const float r = 1.0f / std::sqrt(2.0f);
    EXPECT_NEAR(c[0][0], r, 1e-6f);
    EXPECT_NEAR(c[0][1], r, 1e-6f);
    EXPECT_EQ(c[0][2], 0.0f);
    EXPECT_EQ(c[3], (std::vector<float>{0, 0, 1}));
    EXPECT_EQ(c[1], (std::vector<float>{0, 0, 0})); // no probes: zero centroid
    const auto sim = centroid_similarities(c, std::vector<float>{0, 0, 1});
    EXPECT_EQ(sim[3], 1.0f);
    EXPECT_EQ(sim[0], 0.0f);
}

const char* kRules = R"({"version": 1, "subsystems": {
  "rte-c": {"features": [
    {"id": "rte-c.digits", "description": {"en": "digits", "zh": "数字"}, "source": "article", "weight": 0.5,
     "measure": "count", "cap": 4, "patterns": ["\\d"]},
    {"id": "rte-c.compare", "description": {"en": "comparison", "zh": "比较"}, "source": "article", "weight": 0.5,
     "measure": "present", "patterns": ["增长", "more than"]}]},
  "rte-d": {"features": [
    {"id": "rte-d.connectives", "description": {"en": "if", "zh": "如果"}, "source": "article", "weight": 0.6,
     "measure": "count", "cap": 2, "patterns": ["如果", "\\bif\\b", "\\bthen\\b"]}]}
}})";

TEST(FeatureRules, ScoresBothLanguagesWithByteSpans) {
    auto rules = FeatureRules::parse(kRules, "test");
    ASSERT_TRUE(rules) << rules.error().message;
    EXPECT_EQ(rules->size(), 3u);
    EXPECT_DOUBLE_EQ(rules->max_scores()[2], 1.0);
    const std::string zh = "今年营收增长了12%";
    const FeatureScores s = rules->score(zh);
    // Two digits of a cap of 4 (0.5 × 0.5) + the comparison word (0.5).
    EXPECT_DOUBLE_EQ(s.score[2], 0.5 * 0.5 + 0.5);
    ASSERT_EQ(s.fired.size(), 2u);
    const FiredFeature& compare = s.fired[1];
    EXPECT_EQ(compare.id, "rte-c.compare");
    ASSERT_EQ(compare.spans.size(), 1u);
    EXPECT_EQ(zh.substr(compare.spans[0].start, compare.spans[0].end - compare.spans[0].start), "增长");
    EXPECT_EQ(compare.spans[0].start, 12u); // after "今年营收": 4 characters of 3 bytes
    const FeatureScores en = rules->score("If it rains THEN we stay, if not then we go: 1 2 3 4 5 6");
    EXPECT_DOUBLE_EQ(en.score[3], 0.6);  // 4 matches, capped at 2
    EXPECT_DOUBLE_EQ(en.score[2], 0.5);  // 6 digits, capped at 4
    EXPECT_DOUBLE_EQ(rules->score("如果下雨").score[3], 0.3);
    EXPECT_DOUBLE_EQ(rules->score("nothing here").score[2], 0.0);
}

TEST(FeatureRules, ValuesOfEveryFeatureInFileOrder) {
    auto rules = FeatureRules::parse(kRules, "test");
    ASSERT_TRUE(rules) << rules.error().message;
    // rte-c.digits (2 of a cap of 4), rte-c.compare (present), rte-d.connectives (none).
    EXPECT_EQ(rules->score("今年增长了12").values, (std::vector<double>{0.5, 1.0, 0.0}));
    EXPECT_EQ(rules->score("nothing").values, (std::vector<double>{0.0, 0.0, 0.0}));
}

TEST(LexicalEmbedding, ConceptDimensionsJoinWordsOfOneClassAcrossLanguages) {
    auto rules = std::make_shared<const FeatureRules>(FeatureRules::parse(kRules, "test").value());
    const std::vector<std::string> corpus = {"今年营收增长", "if so then go", "plain text"};
    LexicalEmbedding ngrams; // no concepts
    ngrams.fit(corpus);
    LexicalEmbedding with(rules, 0.5);
    with.fit(corpus);
    // "增长" and "more than" share no character n-gram but are one class (rte-c.compare).
    const std::string zh = "增长", en = "more than";
    EXPECT_EQ(cosine(ngrams.embed(zh), ngrams.embed(en)), 0.0f);
    const auto a = with.embed(zh), b = with.embed(en);
    ASSERT_EQ(a.size(), size_t(LexicalEmbedding::kDims) + 3);
    EXPECT_GT(cosine(a, b), 0.1f);
    double norm = 0.0;
    for (float x : a) norm += double(x) * x;
    EXPECT_NEAR(norm, 1.0, 1e-5);
    // The concept part: weight 0.5 × value 1 beside a unit n-gram part, so 0.5 / sqrt(1.25).
    EXPECT_NEAR(a[size_t(LexicalEmbedding::kDims) + 1], 0.5 / std::sqrt(1.25), 1e-6);
    // A larger weight pulls the two closer; weight 0 is the n-gram embedding.
    LexicalEmbedding strong(rules, 2.0);
    strong.fit(corpus);
    EXPECT_GT(cosine(strong.embed(zh), strong.embed(en)), cosine(a, b));
    LexicalEmbedding off(rules, 0.0);
    off.fit(corpus);
    EXPECT_EQ(cosine(off.embed(zh), off.embed(en)), 0.0f);
}

TEST(LexicalEmbedding, PrecomputedConceptScoresGiveTheSameVector) {
    auto rules = std::make_shared<const FeatureRules>(FeatureRules::parse(kRules, "test").value());
    const std::vector<std::string> corpus = {"今年营收增长", "if so then go", "plain text"};
    LexicalEmbedding e(rules, 0.5);
    e.fit(corpus);
    const std::string text = "如果增长 then 12";
    EXPECT_EQ(e.embed(text, rules->score(text)), e.embed(text));
    // The concept part comes from the scores passed in, not from scoring the text again.
    const auto other = e.embed(text, rules->score("plain text"));
    EXPECT_NE(other, e.embed(text));
    // "plain text" fires no feature: the concept part is zero and the rest is the n-gram embedding.
    LexicalEmbedding ngrams;
    ngrams.fit(corpus);
    const auto expected = ngrams.embed(text);
    ASSERT_EQ(other.size(), expected.size() + 3);
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), other.begin()));
    EXPECT_EQ(other[expected.size()] + other[expected.size() + 1] + other[expected.size() + 2], 0.0f);
}

TEST(FeatureRules, SchemaErrorsAreClear) {
    const auto error_of = [](const std::string& text) {
        auto r = FeatureRules::parse(text, "rules.json");
        return r ? std::string() : r.error().message;
    };
    EXPECT_NE(error_of("[]").find("rules.json: not a JSON object"), std::string::npos);
    EXPECT_NE(error_of(R"({"version": 2, "subsystems": {}})").find("version"), std::string::npos);
    EXPECT_NE(error_of(R"({"version": 1, "subsystems": {"rte-z": {"features": []}}})").find("unknown subsystem"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"version": 1, "subsystems": {"rte-a": {"features": [{"id": "x", "weight": 1,
        "measure": "present", "patterns": ["(unclosed"]}]}}})")
                  .find("feature x: pattern \"(unclosed\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"version": 1, "subsystems": {"rte-a": {"features": [{"id": "x", "weight": 1,
        "measure": "count", "patterns": ["a"]}]}}})")
                  .find("cap"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"version": 1, "subsystems": {"rte-a": {"features": [{"id": "x", "weight": -1,
        "measure": "present", "patterns": ["a"]}]}}})")
                  .find("weight"),
              std::string::npos);
}

std::vector<Probe> toy_probes() {
    std::vector<Probe> p;
    for (const char* t : {"What is 15% of 80?", "计算增长率：去年100今年120", "Convert 5 km to m", "12 乘以 7 等于多少"}) p.push_back({t, "", 2});
    for (const char* t : {"If it rains, then the road is wet. Is it wet?", "如果下雨，那么地面湿。", "Unless he comes, we stay.",
                          "只有努力才能成功吗？"}) {
        p.push_back({t, "", 3});
    }
    return p;
}

TEST(Router, DecidesWithEvidenceAndLearnsFromCorrections) {
    Router router = Router::fit(toy_probes(), FeatureRules::parse(kRules, "test").value());
    const RouteDecision d = router.route("今年营收比去年增长了多少百分比？");
    EXPECT_EQ(d.route, 2);
    ASSERT_EQ(d.top3.size(), 3u);
    EXPECT_GE(d.top3[0].stage1, d.top3[1].stage1);
    double total = 0.0;
    for (double c : d.composition) total += c;
    EXPECT_NEAR(total, 1.0, 1e-9);
    EXPECT_GT(d.composition[2], d.composition[3]);
    EXPECT_FALSE(d.features.empty());

    // A prompt stage 1 sends to rte-d; the user says it is rte-a, several times: the route follows.
    const std::string prompt = "Who founded the company Zebrafish Labs";
    EXPECT_NE(router.route(prompt).route, 0);
    for (int i = 0; i < 3; ++i) router.add_probe(Probe{prompt, "en", 0});
    EXPECT_EQ(router.n_probes(), toy_probes().size() + 3);
    EXPECT_EQ(router.route(prompt).route, 0);
    EXPECT_EQ(router.route(prompt).stage1_route, 0);
}

} // namespace
} // namespace octo

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/core/sha256.h"
#include "engine/model/user_data.h"
#include "engine/router/centroid_cache.h"
#include "engine/router/model_embedding.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

TEST(ModelEmbedding, MeanPooledHiddenStateOfTheModel) {
    SyntheticModelSpec spec;
    spec.n_layer = 3;
    const test::LoadedModel m = test::load_synthetic(spec);
    auto backend = CpuBackend::create({1, {}}).value();
    const Tokenizer tok = Tokenizer::create(vocab_from_gguf(m.model->file()).value()).value();
    auto e = ModelEmbedding::create(*m.model, *backend, tok).value();
    EXPECT_EQ(e->layer(), 1);
    EXPECT_STREQ(e->name(), "model");
    const auto a = e->embed("What is 5 + 7?");
    ASSERT_EQ(a.size(), static_cast<size_t>(m.model->params().n_embd));
    EXPECT_NEAR(cosine(a, a), 1.0f, 1e-5f);
    EXPECT_EQ(e->embed("What is 5 + 7?"), a); // deterministic
    EXPECT_LT(cosine(a, e->embed("if it rains then stay")), 0.9999f);
    EXPECT_FALSE(ModelEmbedding::create(*m.model, *backend, tok, 3)); // past the last layer
    // The router runs on it: centroids from probes, a decision with three candidates.
    Router router = Router::fit(toy_probes(), FeatureRules::parse(kRules, "test").value(), std::move(e));
    EXPECT_STREQ(router.embedding_name(), "model");
    EXPECT_EQ(router.route("What is 12% of 80?").top3.size(), 3u);
}

// A synthetic model written to a file and loaded from it (only a file has a SHA-256 to key the
// cache by), with $XDG_DATA_HOME in a fresh temporary folder.
class CentroidCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() / ("octoscope-centroids-" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        ASSERT_EQ(setenv("XDG_DATA_HOME", (dir_ / "data").c_str(), 1), 0);
        SyntheticModelSpec spec;
        spec.n_layer = 3;
        const auto bytes = make_synthetic_model(spec).value();
        model_path_ = (dir_ / "m.gguf").string();
        std::ofstream(model_path_, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        model_ = Model::load(model_path_).value();
        tokenizer_ = std::make_unique<Tokenizer>(Tokenizer::create(vocab_from_gguf(model_->file()).value()).value());
        backend_ = CpuBackend::create({1, {}}).value();
    }
    void TearDown() override {
        unsetenv("XDG_DATA_HOME");
        std::filesystem::remove_all(dir_);
    }

    Router build(std::span<const Probe> probes, int64_t layer = -1, bool cache = true) {
        auto e = ModelEmbedding::create(*model_, *backend_, *tokenizer_, layer, cache);
        EXPECT_TRUE(e) << e.error().message;
        return Router::fit(probes, FeatureRules::parse(kRules, "test").value(), std::move(e.value()));
    }

    std::filesystem::path dir_;
    std::string model_path_;
    std::unique_ptr<Model> model_;
    std::unique_ptr<Tokenizer> tokenizer_;
    std::unique_ptr<CpuBackend> backend_;
};

void expect_same_decisions(const Router& a, const Router& b) {
    for (const char* prompt : {"What is 12% of 80?", "If it rains then we stay", "Who founded Zebrafish Labs"}) {
        const RouteDecision x = a.route(prompt), y = b.route(prompt);
        EXPECT_EQ(x.route, y.route) << prompt;
        EXPECT_EQ(x.similarity, y.similarity) << prompt; // bit-identical centroids
        EXPECT_EQ(x.composition, y.composition) << prompt;
    }
}

TEST_F(CentroidCacheTest, SecondBuildReadsTheCentroidsAndDecidesTheSame) {
    const std::vector<Probe> probes = toy_probes();
    const Router first = build(probes);
    EXPECT_FALSE(first.centroids_cached());
    const Router second = build(probes);
    EXPECT_TRUE(second.centroids_cached());
    expect_same_decisions(first, second);
    // Keyed by the file's SHA-256, through the model index.
    const std::string sha = sha256_file(model_path_).value();
    EXPECT_EQ(indexed_model_sha256(*model_), sha);
    EXPECT_TRUE(std::filesystem::exists(centroid_cache_dir() / ("model-v1-" + sha + "-layer1-reference.json")));
    // --no-cache: computed, and the cache is neither read nor needed.
    EXPECT_FALSE(build(probes, -1, false).centroids_cached());
}

TEST_F(CentroidCacheTest, AnotherProbeSetOrLayerMisses) {
    std::vector<Probe> probes = toy_probes();
    ASSERT_FALSE(build(probes).centroids_cached());
    EXPECT_FALSE(build(probes, 0).centroids_cached()); // another layer
    EXPECT_TRUE(build(probes, 0).centroids_cached());
    EXPECT_TRUE(build(probes).centroids_cached()); // each layer has its own file
    // Another precision is another embedding: its own file (the synthetic llama model's default is reference).
    auto exact = ModelEmbedding::create(*model_, *backend_, *tokenizer_, -1, true, Precision::Exact);
    ASSERT_TRUE(exact) << exact.error().message;
    EXPECT_EQ(exact.value()->precision(), Precision::Exact);
    EXPECT_NE(exact.value()->cache_id().find("-layer1-exact"), std::string::npos) << exact.value()->cache_id();
    EXPECT_FALSE(Router::fit(probes, FeatureRules::parse(kRules, "test").value(), std::move(exact.value())).centroids_cached());

    // A user's correction changes the probe set: recomputed, then cached for that set.
    Router corrected = build(probes);
    corrected.add_probe(Probe{"Who founded Zebrafish Labs", "en", 0});
    EXPECT_FALSE(corrected.centroids_cached());
    probes.push_back(Probe{"Who founded Zebrafish Labs", "en", 0});
    const Router again = build(probes);
    EXPECT_TRUE(again.centroids_cached());
    expect_same_decisions(corrected, again);
    // A relabelled probe is another probe set too.
    probes.back().label = 1;
    EXPECT_FALSE(build(probes).centroids_cached());
    EXPECT_NE(probe_set_digest(probes), probe_set_digest(toy_probes()));
}

TEST_F(CentroidCacheTest, CorruptOrForeignFileIsRecomputedAndRewritten) {
    const std::vector<Probe> probes = toy_probes();
    const Router original = build(probes);
    const auto file = centroid_cache_dir() / ("model-v1-" + sha256_file(model_path_).value() + "-layer1-reference.json");
    ASSERT_TRUE(std::filesystem::exists(file));
    std::ifstream in(file);
    nlohmann::json good = nlohmann::json::parse(in);
    in.close();
    nlohmann::json short_row = good, other_version = good;
    short_row["centroids"][3].erase(std::size_t{0});
    other_version["version"] = kCentroidCacheVersion + 1;
    for (const std::string& bad : {std::string("{\"version\": 1, \"centroids\": [[0.5, "), std::string("garbage"),
                                   short_row.dump(), other_version.dump()}) {
        std::ofstream(file, std::ios::trunc) << bad;
        const Router recomputed = build(probes);
        EXPECT_FALSE(recomputed.centroids_cached()) << bad.substr(0, 40);
        expect_same_decisions(original, recomputed);
        std::ifstream rewritten(file);
        EXPECT_EQ(nlohmann::json::parse(rewritten), good); // the good file is back
        EXPECT_TRUE(build(probes).centroids_cached());
    }
}

TEST_F(CentroidCacheTest, ModelWithoutFileIsNotCached) {
    const test::LoadedModel m = test::load_synthetic(SyntheticModelSpec{});
    EXPECT_EQ(ModelEmbedding::create(*m.model, *backend_, *tokenizer_).value()->cache_id(), "");
    EXPECT_EQ(ModelEmbedding::create(*model_, *backend_, *tokenizer_, -1, false).value()->cache_id(), "");
    EXPECT_EQ(LexicalEmbedding().cache_id(), "");
    EXPECT_FALSE(std::filesystem::exists(centroid_cache_dir()));
}

} // namespace
} // namespace octo
