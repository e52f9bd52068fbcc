// Exact-match evaluation over a JSONL task file (the format of resources/octet/octet_test.jsonl:
// one object per line with "prompt", "answer", "subsystem" (rte-a … rte-h), "lang",
// "heldout_phrasing"), run through the engine with greedy decoding — the figures of
// docs/octet.md come from here, never from the trainer.
//
// Per item: the prompt goes through build_prompt (prompt_builder.h: the model's prompt template,
// BOS), and is greedily continued until an
// end-of-generation token; the decoded text must equal "answer" exactly. For a model with a
// router, the gates are also checked teacher-forced: on every position whose input is an answer
// token, the subsystem with the highest layer-mean gate must be the item's.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/instrumentation/head_map.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

struct TaskItem {
    std::string prompt;
    std::string answer;
    int subsystem = 0; // 0..7, rte-a first
    std::string lang;
    bool heldout_phrasing = false;
};

// Reads a JSONL task file; errors name the line (1-based) and the problem.
Result<std::vector<TaskItem>> read_task_file(const std::string& path);

struct TaskEvalOptions {
    std::array<bool, kSubsystemCount> disabled = {}; // zero-ablated subsystems
    int64_t max_tokens = 64;                         // per answer
    std::optional<Precision> precision = std::nullopt;              // nullopt: the model's default
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(size_t done, size_t total)> progress; // after each item (optional)
};

struct TaskEvalCounts {
    int64_t items = 0;
    int64_t correct = 0;
};

struct TaskEvalResult {
    TaskEvalCounts overall;
    std::array<TaskEvalCounts, kSubsystemCount> per_subsystem = {};
    bool has_router = false;
    Precision precision = Precision::Exact; // the precision the answers were computed at
    TaskEvalCounts router_tokens;         // answer tokens whose top gate is the item's subsystem
    TaskEvalCounts router_tokens_heldout; // the same on held-out-phrasing items
};

Result<TaskEvalResult> evaluate_tasks(const Model& model, Backend& backend, const Tokenizer& tokenizer,
                                      const HeadMap& map, std::span<const TaskItem> items,
                                      const TaskEvalOptions& options);

} // namespace octo
