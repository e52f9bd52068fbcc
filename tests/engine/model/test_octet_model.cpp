// The shipped built-in model resources/octet/octet.gguf (docs/octet.md): its metadata and head
// map, the engine's tokenizer against the trainer's tokenization of the whole test split, the
// forward pass and router gates against the trainer's torch reference, and accuracy through
// the engine on 50 test items — with rte-c switched off, arithmetic must fail while entity
// items still pass. The 4- and 16-group variants (resources/octet/variants/) against their own
// torch references.
// Covers: engine/evaluation/task_eval.cpp, engine/instrumentation/head_map_source.cpp
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/evaluation/task_eval.h"
#include "engine/generation/prompt_builder.h"
#include "engine/inference/session.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/instrumentation/metrics.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/error_norms.h"

namespace octo {
namespace {

const std::filesystem::path kDir = std::filesystem::path(OCTOSCOPE_SOURCE_DIR) / "resources" / "octet";

// The accuracy floor of the 50-item sample (every 48th test item): the engine answers 38 of them
// exactly on this machine (docs/octet.md); the floor leaves 4 items of margin for other CPUs'
// kernel paths, whose float rounding may flip a borderline answer.
constexpr double kSampleAccuracyFloor = 0.68;

class OctetModel : public testing::Test {
protected:
    static void SetUpTestSuite() {
        auto m = Model::load((kDir / "octet.gguf").string());
        ASSERT_TRUE(m) << m.error().message;
        model_ = m->release();
        auto vocab = vocab_from_gguf(model_->file());
        ASSERT_TRUE(vocab) << vocab.error().message;
        tokenizer_ = new Tokenizer(std::move(Tokenizer::create(std::move(vocab.value())).value()));
        backend_ = CpuBackend::create({2, {}}).value().release();
    }
    static void TearDownTestSuite() {
        delete backend_;
        delete tokenizer_;
        delete model_;
    }
    static std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& path) {
        std::ifstream in(path);
        std::vector<nlohmann::json> lines;
        for (std::string line; std::getline(in, line);) {
            if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
        }
        return lines;
    }

    static Model* model_;
    static Tokenizer* tokenizer_;
    static CpuBackend* backend_;
};
Model* OctetModel::model_ = nullptr;
Tokenizer* OctetModel::tokenizer_ = nullptr;
CpuBackend* OctetModel::backend_ = nullptr;

TEST_F(OctetModel, MetadataAndHeadMap) {
    const ModelParams& p = model_->params();
    EXPECT_EQ(p.architecture, "octet");
    EXPECT_EQ(p.n_layer, 16);
    EXPECT_EQ(p.n_head, 8);
    EXPECT_EQ(p.n_router_groups, 8);
    EXPECT_LE(std::filesystem::file_size(kDir / "octet.gguf"), 25u * 1000 * 1000);
    auto map = resolve_head_map(*model_);
    ASSERT_TRUE(map) << map.error().message;
    EXPECT_EQ(map->source(), HeadMapSource::Gguf);
    for (int64_t l = 0; l < 16; ++l) {
        for (int64_t h = 0; h < 8; ++h) EXPECT_EQ(map->subsystem_of(l, h), h) << "layer " << l << " head " << h;
    }
    auto ids = model_->file().get_array("octoscope.subsystem_ids");
    ASSERT_TRUE(ids);
    EXPECT_EQ(ids.value()->size(), 8u);
    EXPECT_EQ(model_->file().get_string(kPromptTemplateKey).value(), "{prompt}<|answer|>");
}

TEST_F(OctetModel, TokenizerReproducesTheTrainerOnTheWholeTestSplit) {
    const auto items = read_jsonl(kDir / "octet_test.jsonl");
    const auto tokens = read_jsonl(kDir / "octet_test_tokens.jsonl");
    ASSERT_EQ(items.size(), tokens.size());
    ASSERT_GE(items.size(), 2000u);
    size_t mismatches = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        for (const char* field : {"prompt", "answer"}) {
            auto got = tokenizer_->encode(items[i][field].get<std::string>(), false, false);
            ASSERT_TRUE(got) << got.error().message;
            const auto want = tokens[i][std::string(field) + "_ids"].get<std::vector<int32_t>>();
            if (got.value() != want && ++mismatches <= 5) ADD_FAILURE() << "item " << i << " " << field;
        }
    }
    EXPECT_EQ(mismatches, 0u);
}

TEST_F(OctetModel, ForwardPassAndGatesMatchTheTorchReference) {
    std::ifstream in(kDir / "octet_reference.json");
    const nlohmann::json ref = nlohmann::json::parse(in);
    ASSERT_GE(ref["items"].size(), 3u);
    for (const auto& item : ref["items"]) {
        PromptSpec spec;
        spec.prompt = item["prompt"].get<std::string>();
        auto prompt = build_prompt(model_->file(), *tokenizer_, spec);
        ASSERT_TRUE(prompt) << prompt.error().message;
        EXPECT_EQ(prompt->ids, item["ids"].get<std::vector<int32_t>>());
        auto session = Session::create(*model_, *backend_).value();
        auto logits = session->eval(prompt->ids);
        ASSERT_TRUE(logits);
        const auto want = item["last_logits"].get<std::vector<float>>();
        EXPECT_LT(test::relative_l2(std::vector<float>(logits->begin(), logits->end()), want), 2e-3) << spec.prompt;
        EXPECT_EQ(std::max_element(logits->begin(), logits->end()) - logits->begin(), item["argmax"].get<int>());
        const auto gates = item["gate_mean"].get<std::vector<std::vector<float>>>();
        ASSERT_EQ(gates.size(), prompt->ids.size());
        for (size_t t = 0; t < gates.size(); ++t) {
            const std::vector<float>& g = session->probes()[t].gates; // [16][8]
            for (size_t k = 0; k < 8; ++k) {
                double mean = 0.0;
                for (size_t l = 0; l < 16; ++l) mean += g[l * 8 + k];
                EXPECT_NEAR(mean / 16.0, gates[t][k], 2e-3) << "position " << t << " group " << k;
            }
        }
    }
}

TEST_F(OctetModel, AccuracyAndAblationThroughTheEngine) {
    auto all = read_task_file((kDir / "octet_test.jsonl").string());
    ASSERT_TRUE(all) << all.error().message;
    std::vector<TaskItem> sample; // 50 items spread over the split (fixed: every 48th)
    for (size_t i = 0; i < all->size() && sample.size() < 50; i += 48) sample.push_back((*all)[i]);
    const HeadMap map = resolve_head_map(*model_).value();
    auto base = evaluate_tasks(*model_, *backend_, *tokenizer_, map, sample, {});
    ASSERT_TRUE(base) << base.error().message;
    const double accuracy = double(base->overall.correct) / double(base->overall.items);
    std::cout << "[ octet ] 50-item sample: " << base->overall.correct << "/50 exact\n";
    EXPECT_GE(accuracy, kSampleAccuracyFloor);

    std::vector<TaskItem> numbers, entities;
    for (const TaskItem& t : *all) {
        if (t.subsystem == 2 && numbers.size() < 20) numbers.push_back(t);
        if (t.subsystem == 0 && entities.size() < 20) entities.push_back(t);
    }
    TaskEvalOptions off_c;
    off_c.disabled[2] = true;
    auto c = evaluate_tasks(*model_, *backend_, *tokenizer_, map, numbers, off_c);
    ASSERT_TRUE(c);
    EXPECT_LE(c->overall.correct, 2) << "rte-c items must fail with rte-c disabled";
    auto a = evaluate_tasks(*model_, *backend_, *tokenizer_, map, entities, off_c);
    auto a_on = evaluate_tasks(*model_, *backend_, *tokenizer_, map, entities, {});
    ASSERT_TRUE(a && a_on);
    EXPECT_GE(a->overall.correct, a_on->overall.correct * 3 / 4) << "most rte-a items still pass with rte-c off";
    EXPECT_GE(a->overall.correct, 10);
}

// The "why 8" variants (octet trained with 4 and 16 router groups, resources/octet/variants/): the
// engine runs them as they are, matching their trainer's torch reference like octet itself.
TEST(OctetVariants, ForwardPassAndGatesMatchTheirTorchReferences) {
    auto backend = std::move(CpuBackend::create({2, {}}).value());
    for (const int groups : {4, 16}) {
        const std::string stem = "octet-g" + std::to_string(groups);
        auto model = Model::load((kDir / "variants" / (stem + ".gguf")).string());
        ASSERT_TRUE(model) << model.error().message;
        const Model& m = *model.value();
        ASSERT_EQ(m.weights().n_router_groups, groups);
        const auto n_layer = static_cast<size_t>(m.params().n_layer);
        auto tokenizer = Tokenizer::create(vocab_from_gguf(m.file()).value()).value();
        std::ifstream in(kDir / "variants" / (stem + "_reference.json"));
        const nlohmann::json ref = nlohmann::json::parse(in);
        ASSERT_GE(ref["items"].size(), 3u);
        for (const auto& item : ref["items"]) {
            PromptSpec spec;
            spec.prompt = item["prompt"].get<std::string>();
            auto prompt = build_prompt(m.file(), tokenizer, spec);
            ASSERT_TRUE(prompt) << prompt.error().message;
            EXPECT_EQ(prompt->ids, item["ids"].get<std::vector<int32_t>>());
            auto session = Session::create(m, *backend).value();
            auto logits = session->eval(prompt->ids);
            ASSERT_TRUE(logits);
            const auto want = item["last_logits"].get<std::vector<float>>();
            EXPECT_LT(test::relative_l2(std::vector<float>(logits->begin(), logits->end()), want), 2e-3) << stem << ": " << spec.prompt;
            EXPECT_EQ(std::max_element(logits->begin(), logits->end()) - logits->begin(), item["argmax"].get<int>()) << stem;
            const auto gates = item["gate_mean"].get<std::vector<std::vector<float>>>();
            ASSERT_EQ(gates.size(), prompt->ids.size());
            for (size_t t = 0; t < gates.size(); ++t) {
                const std::vector<float>& g = session->probes()[t].gates; // [n_layer][groups]
                ASSERT_EQ(g.size(), n_layer * static_cast<size_t>(groups));
                for (size_t k = 0; k < static_cast<size_t>(groups); ++k) {
                    double mean = 0.0;
                    for (size_t l = 0; l < n_layer; ++l) mean += g[l * static_cast<size_t>(groups) + k];
                    EXPECT_NEAR(mean / static_cast<double>(n_layer), gates[t][k], 2e-3) << stem << " position " << t << " group " << k;
                }
            }
        }
    }
}

} // namespace
} // namespace octo
