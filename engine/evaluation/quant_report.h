// The quantisation report (`octoscope-cli quant-report`, the workbench's Run → Quantisation
// Report…, docs/advisor.md "Across models"): the same prompts on two files of one model — say
// Q8_0 as A and Q4_K_M as B — and where the two part. For each prompt both models answer on
// their own (greedy, same settings), then:
//   - the first step where their generated tokens differ (none: the same answer);
//   - B fed A's answer token by token (teacher forcing): KL(p_A ‖ p_B) per step and whether the
//     most probable tokens agree (model_divergence.h);
//   - how far each subsystem's mean norm share over the answer moved (B − A);
//   - for a mixture of experts, how often the same experts were chosen where the context is the
//     same (the prompt, and the answers until they part).
// The summary pools every step of every prompt (mean and largest KL, agreement) and ranks the
// subsystems by their mean movement. The two models must share a vocabulary.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/backend/backend.h"
#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/evaluation/model_divergence.h"
#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/subsystem_grouping.h"
#include "engine/kv/kv_store.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

// One of the two models as the report runs it: the caller's objects, alive during the call.
struct ReportModel {
    const Model& model;
    Backend& backend;
    const Tokenizer& tokenizer;
    const HeadMap& map;
    KvStore& kv;
    std::string name; // how the report names it (its file)
};

struct QuantReportOptions {
    int64_t max_tokens = 32;                    // each answer's length at most
    std::optional<Precision> precision = std::nullopt; // both models' (nullopt: each model's default)
    bool chat = false;                          // prompts through the model's chat template
    const std::atomic<bool>* cancel = nullptr;
    // After each prompt: prompts done, of total.
    std::function<void(size_t done, size_t total)> progress = nullptr;
};

struct QuantReportItem {
    std::string prompt;
    std::string answer_a, answer_b; // each model's own answer
    size_t tokens_a = 0, tokens_b = 0;
    std::optional<size_t> first_token_divergence; // the first step whose tokens differ; none: the same answer
    ModelDivergence divergence;                   // B fed A's answer
    std::optional<SubsystemValues> share_delta;   // mean norm share over the answer, B − A
    std::optional<double> expert_overlap;         // a mixture of experts: RunComparison::mean_expert_overlap
};

struct QuantReport {
    std::string model_a, model_b;
    std::vector<QuantReportItem> items;
    // Over every teacher-forced step of every prompt.
    size_t steps = 0;
    double mean_kl = 0.0;
    double max_kl = 0.0;
    std::optional<size_t> max_kl_item; // the prompt and step of the largest KL
    int64_t max_kl_step = -1;
    double top_agreement = 1.0;
    size_t same_answers = 0;                         // prompts both answered with the same tokens
    std::optional<SubsystemValues> mean_share_delta; // over the prompts that have one
    std::vector<int> groups_moved;                   // subsystems by |mean_share_delta|, largest first
    std::optional<double> mean_expert_overlap;       // over the prompts that have one (mixtures of experts)
};

// Errors: InvalidArgument (no prompts, an empty prompt, vocabularies that differ), Cancelled, and
// the runs' own (a prompt longer than the context names its number).
Result<QuantReport> quant_report(const ReportModel& a, const ReportModel& b, std::span<const std::string> prompts,
                                 const QuantReportOptions& options = {});

// The report as `quant-report --json` writes it (docs/cli.md).
nlohmann::json quant_report_json(const QuantReport& report);

// Prompts from a text file's contents: one a line, blank lines and lines starting with '#' left
// out, "\n" in a line standing for a line break.
std::vector<std::string> parse_prompt_lines(const std::string& text);

} // namespace octo
