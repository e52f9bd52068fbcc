// The quantisation report (engine/evaluation/quant_report.h) on synthetic models: a model against
// a second copy of itself parts nowhere (KL 0, the same answers, no subsystem moved); against a
// Q4_0 copy every teacher-forced step has a KL above 0, and the summary is the pool of the items'
// own steps, recomputed here. Refusals: no prompts, an empty prompt, another vocabulary, a cancel.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/evaluation/quant_report.h"
#include "engine/host/model_setup.h"
#include "engine/model/synthetic_model.h"

namespace octo {
namespace {

OpenedModel open(TensorType type, int64_t n_vocab = 0) {
    SyntheticModelSpec spec;
    spec.weight_type = type;
    spec.context_length = 96;
    spec.seed = 3;
    if (n_vocab > 0) spec.n_vocab = n_vocab;
    auto image = std::make_shared<const std::vector<uint8_t>>(make_synthetic_model(spec).value());
    return std::move(open_model_image(image, "m.gguf", {.backend = "cpu", .threads = 1}).value());
}

ReportModel side(OpenedModel& m, std::string name) {
    return ReportModel{*m.model, *m.backend, *m.tokenizer, m.map(), *m.kv, std::move(name)};
}

const std::vector<std::string> kPrompts = {"abc", "hello there", "x y z"};

TEST(QuantReport, ACopyOfItselfPartsNowhere) {
    OpenedModel a = open(TensorType::F32), b = open(TensorType::F32);
    std::vector<size_t> progress;
    auto r = quant_report(side(a, "a.gguf"), side(b, "b.gguf"), kPrompts,
                          {.max_tokens = 6, .precision = Precision::Exact, .progress = [&](size_t done, size_t total) {
                               EXPECT_EQ(total, kPrompts.size());
                               progress.push_back(done);
                           }});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(progress, (std::vector<size_t>{1, 2, 3}));
    ASSERT_EQ(r->items.size(), kPrompts.size());
    EXPECT_EQ(r->same_answers, kPrompts.size());
    EXPECT_EQ(r->model_a, "a.gguf");
    EXPECT_EQ(r->model_b, "b.gguf");
    size_t steps = 0;
    for (const QuantReportItem& item : r->items) {
        EXPECT_FALSE(item.first_token_divergence);
        EXPECT_EQ(item.answer_a, item.answer_b);
        EXPECT_EQ(item.divergence.steps.size(), item.tokens_a);
        steps += item.tokens_a;
        for (const StepDivergence& s : item.divergence.steps) EXPECT_EQ(s.kl, 0.0);
        ASSERT_TRUE(item.share_delta);
        for (const float d : *item.share_delta) EXPECT_EQ(d, 0.0f);
    }
    EXPECT_EQ(r->steps, steps);
    EXPECT_GT(steps, 0u);
    EXPECT_EQ(r->mean_kl, 0.0);
    EXPECT_EQ(r->top_agreement, 1.0);
}

TEST(QuantReport, AQuantisedCopyPartsAndTheSummaryPoolsTheSteps) {
    OpenedModel a = open(TensorType::F32), b = open(TensorType::Q4_0);
    auto r = quant_report(side(a, "f32"), side(b, "q4_0"), kPrompts, {.max_tokens = 8, .precision = Precision::Exact});
    ASSERT_TRUE(r) << r.error().message;
    double sum = 0.0, max = -1.0;
    size_t steps = 0, agree = 0, same = 0, max_item = 0;
    int64_t max_step = -1;
    SubsystemValues delta{};
    for (size_t i = 0; i < r->items.size(); ++i) {
        const QuantReportItem& item = r->items[i];
        if (!item.first_token_divergence) ++same;
        for (size_t s = 0; s < item.divergence.steps.size(); ++s) {
            const StepDivergence& st = item.divergence.steps[s];
            EXPECT_GT(st.kl, 0.0);
            sum += st.kl;
            ++steps;
            agree += st.top_a == st.top_b ? 1 : 0;
            if (st.kl > max) {
                max = st.kl;
                max_item = i;
                max_step = static_cast<int64_t>(s);
            }
        }
        ASSERT_TRUE(item.share_delta);
        for (size_t g = 0; g < delta.size(); ++g) delta[g] += (*item.share_delta)[g] / static_cast<float>(r->items.size());
    }
    EXPECT_EQ(r->steps, steps);
    EXPECT_NEAR(r->mean_kl, sum / static_cast<double>(steps), 1e-12);
    EXPECT_EQ(r->max_kl, max);
    EXPECT_EQ(r->max_kl_item, max_item);
    EXPECT_EQ(r->max_kl_step, max_step);
    EXPECT_DOUBLE_EQ(r->top_agreement, static_cast<double>(agree) / static_cast<double>(steps));
    EXPECT_EQ(r->same_answers, same);
    ASSERT_TRUE(r->mean_share_delta);
    ASSERT_EQ(r->groups_moved.size(), 8u);
    for (size_t g = 0; g < 8; ++g) EXPECT_NEAR((*r->mean_share_delta)[g], delta[g], 1e-6);
    for (size_t i = 1; i < 8; ++i) {
        EXPECT_GE(std::abs((*r->mean_share_delta)[static_cast<size_t>(r->groups_moved[i - 1])]),
                  std::abs((*r->mean_share_delta)[static_cast<size_t>(r->groups_moved[i])]));
    }
    const nlohmann::json j = quant_report_json(r.value());
    EXPECT_EQ(j["prompts"], kPrompts.size());
    EXPECT_EQ(j["items"][0]["kl"].size(), r->items[0].divergence.steps.size());
    EXPECT_EQ(j["groups_moved"][0]["subsystem"], std::string(subsystem_id(r->groups_moved[0])));
}

TEST(QuantReport, RefusesWhatItCannotCompare) {
    OpenedModel a = open(TensorType::F32), b = open(TensorType::Q8_0), other = open(TensorType::F32, 60);
    const std::vector<std::string> none, blank = {"abc", ""};
    auto empty = quant_report(side(a, "a"), side(b, "b"), none);
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().code, ErrorCode::InvalidArgument);
    auto with_blank = quant_report(side(a, "a"), side(b, "b"), blank);
    ASSERT_FALSE(with_blank);
    EXPECT_NE(with_blank.error().message.find("prompt 2"), std::string::npos) << with_blank.error().message;
    auto vocab = quant_report(side(a, "a"), side(other, "other"), kPrompts);
    ASSERT_FALSE(vocab);
    EXPECT_NE(vocab.error().message.find("vocabularies differ"), std::string::npos);
    std::atomic<bool> cancel{true};
    auto cancelled = quant_report(side(a, "a"), side(b, "b"), kPrompts, {.cancel = &cancel});
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().code, ErrorCode::Cancelled);
}

TEST(QuantReport, PromptLines) {
    EXPECT_EQ(parse_prompt_lines("# a comment\nfirst\n\n  \nsecond\\nline two\r\nthird"),
              (std::vector<std::string>{"first", "second\nline two", "third"}));
    EXPECT_TRUE(parse_prompt_lines("").empty());
    EXPECT_TRUE(parse_prompt_lines("# only\n\n").empty());
}

} // namespace
} // namespace octo
