// The claims lab: runs the article's claims (claim_catalog.h) as experiments on the model that is
// loaded, each through its protocol (claim_protocols.h), and reports every result with its
// interval and verdict (docs/claims.md).
//
// Every generation goes through one RunSpec (generation/run_spec.h) — the same description the
// workbench and the CLI run — greedily, with the model's own prompt template. Item selection is
// a function of the seed alone and each claim starts from an empty prefix cache, so a claim's
// result depends only on the model, the claim, the item count and the seed: `--claim ID` alone
// gives the value the full run gives (times are measured, so the latency claim varies a little).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/claims/claim_catalog.h"
#include "engine/claims/claim_statistics.h"
#include "engine/evaluation/task_eval.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/router/probe_set.h"
#include "engine/router/router.h"

namespace octo {

struct ProtocolInfo;

// One series of a result, as a table (the report writes each as CSV).
struct ClaimTable {
    std::string name; // file stem: "<claim id>-<name>.csv"
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
};

// How a verdict was reached beyond its interval (docs/claims.md, "Verdict").
struct VerdictTest {
    double p = 1.0;       // one-sided p of the decision: holds (beyond the threshold) or does not hold (short of it)
    int64_t family = 1;   // decisions in Holm's correction: the claims of the run that have an estimate
    double level = kAlpha / 2.0; // what p was compared with after Holm's step-down
    bool survived = true; // false: holds / does not hold at 95 % alone, inconclusive after the correction
    std::optional<bool> figure_in_interval; // the article's figure (when a number) lies in the 95 % interval
};

// The claim measured again on the same model with its subsystem map shuffled (Claim::control_margin).
struct ControlResult {
    std::optional<Estimate> estimate; // absent: the control could not run (`reason`)
    double margin = 0.0;              // what the measured interval must clear the control's by
    bool beaten = false;              // measured interval beyond the control's by more than `margin`
    std::string reason;
};

struct ClaimResult {
    std::string id;
    Verdict verdict = Verdict::NotMeasurable;
    std::optional<Estimate> estimate; // absent when not measurable
    std::string method;               // how it was measured (one paragraph, English)
    std::string reason;               // why there is no verdict: not measurable (no estimate), or, beside an
                                      // estimate, why the data are uninformative (verdict Uninformative)
    nlohmann::json details = nlohmann::json::object(); // the protocol's extra figures; "plot" is what the workbench draws
    std::vector<ClaimTable> tables;
    VerdictTest test;
    std::optional<ControlResult> control; // claims with a control: "holds" needs it beaten
};

// A remote engine the answers come from (ClaimLabOptions::answer_batch / answer_source).
struct ClaimServer {
    std::string engine;        // its URL, without credentials
    bool octoscope = false;    // an Octoscope server: its extension carries shares and switches
    std::string map_source;    // an Octoscope server's head map ("default", "gguf", "calibrated", "file")
};

// The loaded model, as the lab runs it. Pointers: the caller's objects, alive during the run.
// With `server`, only `name` is needed (and `map` may be null).
struct ClaimModel {
    const Model* model = nullptr;
    Backend* backend = nullptr;
    const Tokenizer* tokenizer = nullptr;
    const HeadMap* map = nullptr;
    const ExpertMap* expert_map = nullptr; // a mixture of experts' calibrated map (or null)
    KvStore* kv = nullptr;
    std::string name; // how reports name the model
    std::optional<ClaimServer> server = std::nullopt; // answers from a server, not from `model`
};

// A further model the lab opened (the head-groups protocol's octet variants) on the loaded
// model's backend; `owner` keeps what `model` points to alive.
struct ClaimVariant {
    ClaimModel model;
    std::shared_ptr<void> owner;
};

// What the protocols measure on: the resources' task items and router probes.
struct ClaimData {
    std::string resource_dir;     // for the router (Router::from_resources)
    std::vector<TaskItem> items;  // octet/octet_test.jsonl
    std::vector<Probe> dev_probes; // probes/probes_dev.jsonl (the router's held-out split)
};
Result<ClaimData> load_claim_data(const std::string& resource_dir);


// One greedy answer with what the protocols read from it.
struct ClaimAnswer {
    std::string text;
    bool ended = false;                    // stopped at an end-of-generation token
    std::string last_prompt_token;         // the prompt's last token, as bytes
    std::vector<std::string> tokens;       // every generated token's bytes, the stopping one included
    std::vector<int32_t> token_ids;
    std::vector<std::optional<SubsystemValues>> shares; // [tokens] the lab's metric, of the position that chose the token
    // [tokens] what the subsystems' parts really contributed: the heads' norm share (the experts
    // metric under an expert map). Unlike router gates, it falls to 0 for switched-off heads.
    std::vector<std::optional<SubsystemValues>> contributions;
    std::vector<bool> is_eog;              // [tokens]
    double first_token_ms = 0.0;           // time to first token
    double total_ms = 0.0;                 // the whole answer
    int64_t prompt_tokens = 0;
    int64_t reused_tokens = 0;             // prompt tokens taken from the KV pool's prefix cache
};

// A protocol's question as a run: `prompt`, greedy, at most `max_tokens`, with `disabled`
// subsystems switched off and no attention recorded. The lab adds its own settings (chat mode,
// what the switches turn off) when it runs it.
RunSpec claim_question(std::string prompt, int64_t max_tokens, const std::array<bool, kSubsystemCount>& disabled = {});

struct ClaimLabOptions {
    uint64_t seed = 1;
    int64_t items = 0;    // items per subsystem for every claim; 0: each claim's own "items"
    int resamples = 2000; // bootstrap resamples
    bool chat = false;    // wrap prompts in the model's chat template
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int64_t done, int64_t total)> progress; // within the running claim
    // Where answers come from instead of the model (tests: hand-made runs whose statistics are
    // known). With it, ClaimModel needs only `map` (and `name`).
    std::function<Result<ClaimAnswer>(const RunSpec& question)> answer_source;
    // Many answers at once (a remote engine with several requests in flight): one result per
    // request, in order. ClaimLab::prefetch uses it; answer() still asks answer_source one by one.
    std::function<std::vector<Result<ClaimAnswer>>(const std::vector<RunSpec>& questions)> answer_batch;
    // Opens a further model file onto `backend`, set up as every model is (the host's
    // open_claim_variant, engine/host/claim_variant.h); unset: claims that compare models with
    // other files are not measurable.
    std::function<Result<ClaimVariant>(const std::string& path, Backend& backend)> open_model;
};

// Whether an answer counts as right: the exact answer text (ended by end-of-generation), or
// for "number" the first number in the answer equals the expected one.
enum class AnswerMatch { Exact, Number };
bool answer_correct(const ClaimAnswer& answer, const TaskItem& item, AnswerMatch match);

class ClaimLab {
public:
    ClaimLab(ClaimModel model, ClaimData data, ClaimLabOptions options);

    // Runs one claim. Errors: the engine's; ErrorCode::Cancelled when the cancel flag was set.
    Result<ClaimResult> run(const Claim& claim);

    // For protocols.
    const ClaimModel& model() const { return model_; }
    const ClaimData& data() const { return data_; }
    const ClaimLabOptions& options() const { return options_; }
    // Whether subsystem shares mean something here: a head map that was trained in or calibrated
    // (not the default head k → subsystem k), or a calibrated expert map. Otherwise `why` says so.
    bool has_subsystems(std::string* why = nullptr) const;
    Metric metric() const { return metric_; }     // what shares are read by
    // What ClaimAnswer::contributions are read by: norm share, or the experts metric under an expert map.
    Metric contribution_metric() const { return metric_ == Metric::Experts ? Metric::Experts : Metric::NormShare; }
    std::string map_name() const;                 // "head map from the GGUF file", …
    // Items per subsystem: the run's --items, else the claim's params "items", else `fallback`.
    int64_t items_per_subsystem(const Claim& claim, int64_t fallback) const;
    // The first `per_subsystem` items of each listed subsystem in the seed's shuffled order.
    std::vector<const TaskItem*> select_items(const std::vector<int>& subsystems, int64_t per_subsystem) const;
    // The same for the router's dev probes.
    std::vector<const Probe*> select_probes(int64_t per_subsystem) const;
    // Asks answer_batch for those of `requests` not cached yet and caches them, so that the
    // protocol's answer() calls that follow find them (a no-op without answer_batch). Errors: the
    // first failed request's (Cancelled when the run was cancelled).
    Status prefetch(const std::vector<RunSpec>& questions);
    // Why a measurement needs the model's internals here, or "" when it can have them. A
    // non-Octoscope server gives only outputs.
    std::string internals_missing() const;
    // Runs (or takes from this claim's cache when `cached`) a greedy answer.
    Result<const ClaimAnswer*> answer(const RunSpec& question, bool cached = true);
    Result<const Router*> router();
    BootstrapOptions bootstrap_options(const Claim& claim) const;
    // Progress inside the running claim; false when cancelled.
    bool step(int64_t done, int64_t total) const;
    bool cancelled() const;

private:
    // Runs `claim`'s protocol again on the model with its map shuffled; fills result.control.
    void run_control(const Claim& claim, const ProtocolInfo& protocol, ClaimResult& result);
    int progress_part_ = 0;  // this lab's part of the running claim's progress (a control runs the second)
    int progress_parts_ = 1;
    ClaimModel model_;
    ClaimData data_;
    ClaimLabOptions options_;
    Metric metric_ = Metric::NormShare;
    std::map<std::string, std::unique_ptr<ClaimAnswer>> answers_; // this claim's runs
    static std::string cache_key(const RunSpec& question);
    std::unique_ptr<Router> router_;
};

// `map` with each layer's subsystem labels permuted (the seed's Fisher–Yates): the same number of
// heads per subsystem and layer, but no head keeps its meaning — the control a map-reading claim
// must beat. Source and path are kept.
Result<HeadMap> shuffled_head_map(const HeadMap& map, uint64_t seed);

// Parses a subsystem list parameter (["rte-c", …]); every subsystem when absent.
Result<std::vector<int>> subsystem_list_param(const nlohmann::json& params, const char* key);
// A template parameter {"en": "… {prompt} …", "zh": "…"}; the item's language picks the text.
std::string fill_template(const nlohmann::json& tmpl, const TaskItem& item);

} // namespace octo
