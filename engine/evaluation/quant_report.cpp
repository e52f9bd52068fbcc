#include "engine/evaluation/quant_report.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <nlohmann/json.hpp>

#include "engine/advisor/run_comparison.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"

namespace octo {

namespace {

struct Answer {
    std::vector<int32_t> prompt_ids;
    InstrumentedResult result;
};

Result<Answer> answer(const ReportModel& m, const RunSpec& spec, const std::atomic<bool>* cancel) {
    auto prompt = build_prompt(m.model.file(), m.tokenizer, spec);
    if (!prompt) return prompt.error();
    const RunInputs inputs{.prompt_ids = prompt->ids, .expert_map = nullptr, .cancel = cancel};
    auto run = run_instrumented(m.model, m.backend, m.tokenizer, m.map, m.kv, spec, inputs);
    if (!run) return run.error();
    return Answer{std::move(prompt->ids), std::move(run.value())};
}

std::vector<int32_t> ids_of(const GenerateResult& g) {
    std::vector<int32_t> ids;
    ids.reserve(g.tokens.size());
    for (const TokenEvent& e : g.tokens) ids.push_back(e.id);
    return ids;
}

Result<QuantReportItem> report_item(const ReportModel& a, const ReportModel& b, const std::string& prompt,
                                    const QuantReportOptions& options) {
    RunSpec spec;
    spec.prompt = prompt;
    spec.chat = options.chat;
    spec.max_tokens = options.max_tokens;
    spec.precision = options.precision;
    spec.record_attention = false;
    auto on_a = answer(a, spec, options.cancel);
    if (!on_a) return on_a.error();
    auto on_b = answer(b, spec, options.cancel);
    if (!on_b) return on_b.error();
    const GenerateResult& ga = on_a->result.generation;
    const GenerateResult& gb = on_b->result.generation;
    const auto routed = [](const Model& m) { return m.params().n_expert > 0 ? m.params().n_layer : int64_t{0}; };
    const RunComparison c = compare_runs(compared_run(ga, on_a->result.token_metrics, Metric::NormShare, routed(a.model)),
                                         compared_run(gb, on_b->result.token_metrics, Metric::NormShare, routed(b.model)));
    auto divergence = model_divergence(a.model, a.backend, b.model, b.backend, on_a->prompt_ids, ids_of(ga), options.precision,
                                       options.cancel);
    if (!divergence) return divergence.error();
    QuantReportItem item;
    item.prompt = prompt;
    item.answer_a = ga.text;
    item.answer_b = gb.text;
    item.tokens_a = ga.tokens.size();
    item.tokens_b = gb.tokens.size();
    item.first_token_divergence = c.first_divergence;
    item.divergence = std::move(divergence.value());
    item.share_delta = c.share_delta;
    item.expert_overlap = c.mean_expert_overlap;
    return item;
}

void summarise(QuantReport& r) {
    size_t agree = 0, with_delta = 0, with_overlap = 0;
    double overlap = 0.0;
    SubsystemValues delta_sum{};
    double kl_sum = 0.0;
    for (size_t i = 0; i < r.items.size(); ++i) {
        const QuantReportItem& item = r.items[i];
        if (!item.first_token_divergence) ++r.same_answers;
        for (size_t s = 0; s < item.divergence.steps.size(); ++s) {
            const StepDivergence& step = item.divergence.steps[s];
            ++r.steps;
            kl_sum += step.kl;
            if (step.top_a == step.top_b) ++agree;
            if (!r.max_kl_item || step.kl > r.max_kl) {
                r.max_kl = step.kl;
                r.max_kl_item = i;
                r.max_kl_step = static_cast<int64_t>(s);
            }
        }
        if (item.expert_overlap) {
            ++with_overlap;
            overlap += *item.expert_overlap;
        }
        if (item.share_delta) {
            ++with_delta;
            for (size_t g = 0; g < delta_sum.size(); ++g) delta_sum[g] += (*item.share_delta)[g];
        }
    }
    if (r.steps > 0) {
        r.mean_kl = kl_sum / static_cast<double>(r.steps);
        r.top_agreement = static_cast<double>(agree) / static_cast<double>(r.steps);
    }
    if (with_overlap > 0) r.mean_expert_overlap = overlap / static_cast<double>(with_overlap);
    if (with_delta == 0) return;
    for (float& v : delta_sum) v /= static_cast<float>(with_delta);
    r.mean_share_delta = delta_sum;
    r.groups_moved.resize(kSubsystemCount);
    std::iota(r.groups_moved.begin(), r.groups_moved.end(), 0);
    std::stable_sort(r.groups_moved.begin(), r.groups_moved.end(), [&](int x, int y) {
        return std::abs(delta_sum[static_cast<size_t>(x)]) > std::abs(delta_sum[static_cast<size_t>(y)]);
    });
}

nlohmann::json optional_index(const std::optional<size_t>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

} // namespace

Result<QuantReport> quant_report(const ReportModel& a, const ReportModel& b, std::span<const std::string> prompts,
                                 const QuantReportOptions& options) {
    if (prompts.empty()) return make_error(ErrorCode::InvalidArgument, "the report needs at least one prompt");
    for (size_t i = 0; i < prompts.size(); ++i) {
        if (prompts[i].empty()) return make_error(ErrorCode::InvalidArgument, "prompt " + std::to_string(i + 1) + " is empty");
    }
    if (!same_vocabulary(a.tokenizer, b.tokenizer)) {
        return make_error(ErrorCode::InvalidArgument,
                          "the two models' vocabularies differ: a quantisation report compares two files of one model");
    }
    QuantReport r;
    r.model_a = a.name;
    r.model_b = b.name;
    for (size_t i = 0; i < prompts.size(); ++i) {
        if (options.cancel && options.cancel->load()) return make_error(ErrorCode::Cancelled, "the report was cancelled");
        auto item = report_item(a, b, prompts[i], options);
        if (!item) {
            Error e = item.error();
            if (e.code != ErrorCode::Cancelled) e.message = "prompt " + std::to_string(i + 1) + ": " + e.message;
            return e;
        }
        r.items.push_back(std::move(item.value()));
        if (options.progress) options.progress(i + 1, prompts.size());
    }
    summarise(r);
    return r;
}

nlohmann::json quant_report_json(const QuantReport& r) {
    nlohmann::json items = nlohmann::json::array();
    for (const QuantReportItem& item : r.items) {
        nlohmann::json kl = nlohmann::json::array();
        for (const StepDivergence& s : item.divergence.steps) kl.push_back(s.kl);
        items.push_back({{"prompt", item.prompt},
                         {"answer_a", item.answer_a},
                         {"answer_b", item.answer_b},
                         {"tokens_a", item.tokens_a},
                         {"tokens_b", item.tokens_b},
                         {"first_token_divergence", optional_index(item.first_token_divergence)},
                         {"kl", kl},
                         {"mean_kl", item.divergence.mean_kl},
                         {"max_kl", item.divergence.max_kl},
                         {"top_agreement", item.divergence.top_agreement},
                         {"first_top_disagreement", item.divergence.first_top_disagreement
                                                        ? nlohmann::json(*item.divergence.first_top_disagreement)
                                                        : nlohmann::json(nullptr)},
                         {"subsystems_delta", item.share_delta ? nlohmann::json(*item.share_delta) : nlohmann::json(nullptr)},
                         {"expert_overlap", item.expert_overlap ? nlohmann::json(*item.expert_overlap) : nlohmann::json(nullptr)}});
    }
    nlohmann::json moved = nlohmann::json::array();
    for (const int g : r.groups_moved) {
        moved.push_back({{"subsystem", std::string(subsystem_id(g))}, {"delta", (*r.mean_share_delta)[static_cast<size_t>(g)]}});
    }
    return {{"model_a", r.model_a},
            {"model_b", r.model_b},
            {"prompts", r.items.size()},
            {"same_answers", r.same_answers},
            {"steps", r.steps},
            {"mean_kl", r.mean_kl},
            {"max_kl", r.max_kl},
            {"max_kl_prompt", optional_index(r.max_kl_item)},
            {"max_kl_step", r.max_kl_step < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.max_kl_step)},
            {"top_agreement", r.top_agreement},
            {"groups_moved", moved},
            {"mean_expert_overlap", r.mean_expert_overlap ? nlohmann::json(*r.mean_expert_overlap) : nlohmann::json(nullptr)},
            {"items", items}};
}

std::vector<std::string> parse_prompt_lines(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const size_t first = line.find_first_not_of(" \t");
        if (first != std::string::npos && line[first] != '#') {
            std::string prompt;
            for (size_t i = 0; i < line.size(); ++i) {
                if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == 'n') {
                    prompt += '\n';
                    ++i;
                } else {
                    prompt += line[i];
                }
            }
            out.push_back(std::move(prompt));
        }
        start = end + 1;
    }
    return out;
}

} // namespace octo
