// Head-map calibration: the balanced assignment against brute force, the calibrated map from
// profiles that carry a planted signal, separation against its null, and the precedence of
// head maps (file > GGUF metadata > calibrated > default).
// Covers: balanced_assignment.cpp, engine/instrumentation/calibrated_maps.cpp
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include <unistd.h>

#include "engine/gguf/gguf_writer.h"
#include "engine/instrumentation/calibrated_maps.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/model/synthetic_model.h"
#include "engine/router/balanced_assignment.h"
#include "engine/router/head_calibration.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

TEST(BalancedAssignment, OptimalAgainstBruteForce) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> dist(-2.0, 2.0);
    for (int trial = 0; trial < 5; ++trial) {
        std::vector<double> affinity(8 * 8);
        for (double& a : affinity) a = dist(rng);
        const std::vector<int> got = assign_heads_balanced(affinity, 8);
        std::vector<int> perm(8);
        std::iota(perm.begin(), perm.end(), 0);
        double best = -1e300;
        do {
            double total = 0.0;
            for (int h = 0; h < 8; ++h) total += affinity[static_cast<size_t>(h * 8 + perm[static_cast<size_t>(h)])];
            best = std::max(best, total);
        } while (std::next_permutation(perm.begin(), perm.end()));
        double total = 0.0;
        std::vector<int> sorted = got;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7})); // one head each
        for (int h = 0; h < 8; ++h) total += affinity[static_cast<size_t>(h * 8 + got[static_cast<size_t>(h)])];
        EXPECT_NEAR(total, best, 1e-9);
    }
}

TEST(BalancedAssignment, CountsFollowTheDefaultMapWhenHIsNotDivisibleBy8) {
    std::vector<double> affinity(12 * 8, 0.0);
    for (int h = 0; h < 12; ++h) affinity[static_cast<size_t>(h * 8 + 7)] = 5.0; // every head prefers rte-h
    const std::vector<int> got = assign_heads_balanced(affinity, 12);
    std::array<int, 8> count{};
    for (int s : got) count[static_cast<size_t>(s)] += 1;
    EXPECT_EQ(count, (std::array<int, 8>{2, 2, 2, 2, 1, 1, 1, 1}));
}

// Head h of layer l answers to subsystem (h + l) % 8 with extra norm; calibration recovers that
// map and its separation beats the map of shuffled labels — for the octet's 2 × 8 heads and for
// the shapes of real families (Gemma 2 2B: 26 × 8, Qwen 3 / Llama 8B-class: 36 × 32).
void recovers_a_planted_map(int64_t n_layer, int64_t n_head) {
    std::mt19937 rng(11);
    std::normal_distribution<float> noise(0.0f, 0.3f);
    const auto make = [&](int n_per_class, std::vector<std::vector<float>>& profiles, std::vector<int>& labels) {
        for (int s = 0; s < 8; ++s) {
            for (int i = 0; i < n_per_class; ++i) {
                std::vector<float> p(static_cast<size_t>(n_layer * n_head));
                for (int64_t l = 0; l < n_layer; ++l) {
                    for (int64_t h = 0; h < n_head; ++h) {
                        p[static_cast<size_t>(l * n_head + h)] = 1.0f + noise(rng) + ((h + l) % 8 == s ? 1.0f : 0.0f);
                    }
                }
                profiles.push_back(std::move(p));
                labels.push_back(s);
            }
        }
    };
    std::vector<std::vector<float>> train, dev;
    std::vector<int> train_labels, dev_labels;
    make(20, train, train_labels);
    make(10, dev, dev_labels);
    const HeadMap map = assign_from_profiles(train, train_labels, n_layer, n_head);
    EXPECT_EQ(map.source(), HeadMapSource::Calibrated);
    for (int64_t l = 0; l < n_layer; ++l) {
        for (int64_t h = 0; h < n_head; ++h) ASSERT_EQ(map.subsystem_of(l, h), (h + l) % 8) << l << " " << h;
    }
    const double separation = separation_score(map, train, train_labels, dev, dev_labels);
    EXPECT_GT(separation, 0.9);
    std::vector<int> shuffled = train_labels;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(3));
    const HeadMap null_map = assign_from_profiles(train, shuffled, n_layer, n_head);
    EXPECT_LT(separation_score(null_map, train, shuffled, dev, dev_labels), 0.5);
}

TEST(HeadCalibration, RecoversAPlantedMapAndBeatsItsNull) {
    for (const auto& [n_layer, n_head] : {std::pair<int64_t, int64_t>{2, 8}, {26, 8}, {36, 32}}) {
        SCOPED_TRACE(std::to_string(n_layer) + " layers x " + std::to_string(n_head) + " heads");
        recovers_a_planted_map(n_layer, n_head);
    }
}

TEST(HeadCalibration, MapsAreEarnedOnlyAboveBothNulls) {
    EXPECT_TRUE(map_earned(0.48, 0.08, 0.34)) << "octet's heads: 0.483 against 0.076 and 0.337";
    EXPECT_FALSE(map_earned(0.20, 0.12, 0.21)) << "random-weight olmoe's experts beat shuffled labels, not token identity";
    EXPECT_FALSE(map_earned(0.30, 0.12, std::nullopt)) << "calibrated before the token-identity null existed";
    EXPECT_FALSE(map_earned(0.12, 0.01, 0.01)) << "not above chance";
    EXPECT_FALSE(map_earned(0.30, 0.26, 0.10)) << "within the margin of shuffled labels";
}

// The token-identity null sees what surface tokens alone give: probes whose classes use different
// words separate under it; probes whose classes share their words do not.
TEST(HeadCalibration, TokenIdentityNullFollowsTheProbesWords) {
    const test::LoadedModel base = test::load_synthetic({});
    ASSERT_TRUE(base.model);
    auto vocab = vocab_from_gguf(base.model->file());
    ASSERT_TRUE(vocab) << vocab.error().message;
    auto tok = Tokenizer::create(std::move(vocab.value()));
    ASSERT_TRUE(tok) << tok.error().message;
    const char* words[8] = {"apple", "river", "stone", "cloud", "green", "tiger", "piano", "smoke"};
    auto probes_of = [&](bool distinct, int per_class, int offset) {
        std::vector<Probe> out;
        for (int s = 0; s < 8; ++s) {
            for (int i = 0; i < per_class; ++i) {
                Probe p;
                p.label = s;
                const int w = distinct ? s : (i + offset + s) % 8;
                p.text = std::string(words[w]) + " " + words[(w + 3) % 8] + " " + std::to_string(i % 3);
                out.push_back(p);
            }
        }
        return out;
    };
    for (const bool distinct : {true, false}) {
        const std::vector<Probe> train = probes_of(distinct, 16, 0), dev = probes_of(distinct, 8, 5);
        auto train_p = token_identity_profiles(*base.model, tok.value(), train, 8, 2, 1);
        auto dev_p = token_identity_profiles(*base.model, tok.value(), dev, 8, 2, 1);
        ASSERT_EQ(train_p.size(), train.size());
        ASSERT_EQ(train_p[0].size(), static_cast<size_t>(base.model->params().n_layer * 8));
        EXPECT_EQ(train_p, token_identity_profiles(*base.model, tok.value(), train, 8, 2, 1)) << "a function of the tokens and the seed";
        std::vector<int> train_labels, dev_labels;
        for (const Probe& p : train) train_labels.push_back(p.label);
        for (const Probe& p : dev) dev_labels.push_back(p.label);
        const HeadMap map = assign_from_profiles(train_p, train_labels, base.model->params().n_layer, 8);
        const double separation = separation_score(map, train_p, train_labels, dev_p, dev_labels);
        if (distinct) EXPECT_GT(separation, 0.5) << "each class has its own words";
        else EXPECT_LT(separation, 0.35) << "the classes share their words";
    }
}

// A model file whose GGUF may carry its own head map.
std::string write_model(const std::filesystem::path& path, bool with_map) {
    SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    const test::LoadedModel base = test::load_synthetic(spec);
    std::vector<uint8_t> bytes = base.bytes;
    if (with_map) {
        GgufWriter w;
        for (const auto& [key, value] : base.model->file().metadata()) w.add_value(key, value);
        nlohmann::json layers = nlohmann::json::array();
        for (int l = 0; l < 2; ++l) layers.push_back({"rte-h", "rte-g", "rte-f", "rte-e", "rte-d", "rte-c", "rte-b", "rte-a"});
        w.add_string(kHeadMapKey, nlohmann::json({{"version", 1}, {"layers", layers}}).dump());
        for (const GgufTensorInfo& t : base.model->file().tensors()) {
            EXPECT_TRUE(w.add_tensor(t.name, std::vector<int64_t>(t.ne, t.ne + t.n_dims), t.type.type,
                                     std::vector<uint8_t>(t.data, t.data + t.n_bytes)));
        }
        bytes = w.to_bytes();
    }
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path.string();
}


TEST(HeadMapPrecedence, FileThenGgufThenCalibratedThenDefault) {
    const auto dir = std::filesystem::temp_directory_path() / ("octoscope-precedence-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    ASSERT_EQ(setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1), 0);
    const std::string plain = write_model(dir / "plain.gguf", false);
    const std::string own = write_model(dir / "own.gguf", true);
    auto plain_model = Model::load(plain).value();
    auto own_model = Model::load(own).value();
    EXPECT_EQ(resolve_head_map(*plain_model).value().source(), HeadMapSource::Default);

    // Calibrated maps for both files (a reversed default map stands in for a measured one).
    nlohmann::json layers = nlohmann::json::array();
    for (int l = 0; l < 2; ++l) layers.push_back({"rte-b", "rte-a", "rte-d", "rte-c", "rte-f", "rte-e", "rte-h", "rte-g"});
    const HeadMap calibrated = HeadMap::from_json({{"version", 1}, {"layers", layers}}, 2, 8, HeadMapSource::Calibrated).value();
    ASSERT_TRUE(save_calibrated_map(*plain_model, plain, calibrated, {{"separation", 0.5}}));
    ASSERT_TRUE(save_calibrated_map(*own_model, own, calibrated, {{"separation", 0.5}}));
    const HeadMap found = resolve_head_map(*plain_model).value();
    EXPECT_EQ(found.source(), HeadMapSource::Calibrated);
    EXPECT_EQ(found.subsystem_of(0, 0), 1);
    EXPECT_EQ(resolve_head_map(*own_model).value().source(), HeadMapSource::Gguf); // the model's own wins
    EXPECT_EQ(resolve_head_map(*own_model).value().subsystem_of(0, 0), 7);
    const std::string file = (dir / "map.json").string();
    std::ofstream(file) << HeadMap::make_default(2, 8).to_json().dump();
    EXPECT_EQ(resolve_head_map(*own_model, file).value().source(), HeadMapSource::File); // a file wins over all
    unsetenv("XDG_DATA_HOME");
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace octo
