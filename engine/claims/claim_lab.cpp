#include "engine/claims/claim_lab.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "engine/advisor/apply_rewrite.h"
#include "engine/capture/run_spec_json.h"
#include "engine/claims/claim_protocols.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"
#include "engine/generation/run_spec.h"
#include "engine/instrumentation/calibrated_maps.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/sampling/prng.h"

namespace octo {

namespace {

// The seed's permutation of [0, n) (Fisher–Yates over splitmix64).
std::vector<size_t> shuffled(size_t n, uint64_t seed) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    uint64_t state = seed;
    for (size_t i = n; i > 1; --i) {
        const size_t j = static_cast<size_t>(splitmix64_next(state) % i);
        std::swap(order[i - 1], order[j]);
    }
    return order;
}

// The first `per_subsystem` elements of each listed subsystem, in the seed's shuffled order.
template <class T, class LabelOf>
std::vector<const T*> first_per_subsystem(const std::vector<T>& all, const std::vector<int>& subsystems, int64_t per_subsystem,
                                          uint64_t seed, LabelOf label_of) {
    std::vector<const T*> out;
    const std::vector<size_t> order = shuffled(all.size(), seed);
    for (const int s : subsystems) {
        int64_t taken = 0;
        for (const size_t i : order) {
            if (taken == per_subsystem) break;
            if (label_of(all[i]) != s) continue;
            out.push_back(&all[i]);
            ++taken;
        }
    }
    return out;
}

// The first number in `text` ("1,200" → "1200", "-3.50" → "-3.5"); empty when there is none.
std::string first_number(const std::string& text) {
    size_t i = 0;
    while (i < text.size() && !std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == text.size()) return {};
    std::string digits;
    if (i > 0 && text[i - 1] == '-') digits.push_back('-');
    bool point = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits.push_back(c);
        } else if (c == ',' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
            continue;
        } else if (c == '.' && !point && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
            point = true;
            digits.push_back(c);
        } else {
            break;
        }
    }
    if (point) {
        while (digits.back() == '0') digits.pop_back();
        if (digits.back() == '.') digits.pop_back();
    }
    return digits;
}

} // namespace

Result<ClaimData> load_claim_data(const std::string& resource_dir) {
    const std::filesystem::path dir(resource_dir);
    ClaimData d;
    d.resource_dir = resource_dir;
    auto items = read_task_file((dir / "octet" / "octet_test.jsonl").string());
    if (!items) return items.error();
    d.items = std::move(items.value());
    auto probes = read_probe_file((dir / "probes" / "probes_dev.jsonl").string());
    if (!probes) return probes.error();
    d.dev_probes = std::move(probes.value());
    return d;
}

bool answer_correct(const ClaimAnswer& answer, const TaskItem& item, AnswerMatch match) {
    if (match == AnswerMatch::Exact) return answer.ended && answer.text == item.answer;
    const std::string expected = first_number(item.answer);
    return !expected.empty() && first_number(answer.text) == expected;
}

ClaimLab::ClaimLab(ClaimModel model, ClaimData data, ClaimLabOptions options)
    : model_(std::move(model)), data_(std::move(data)), options_(std::move(options)) {
    metric_ = model_.model ? default_metric(*model_.model) : Metric::NormShare;
    if (model_.map && model_.map->source() == HeadMapSource::Default && model_.expert_map) metric_ = Metric::Experts;
}

std::string ClaimLab::internals_missing() const {
    if (!model_.server || model_.server->octoscope) return {};
    return "this needs a local model or an Octoscope server: " + model_.server->engine +
           " is another OpenAI-compatible server, which gives outputs only (no subsystem shares, switches or KV pool)";
}

bool ClaimLab::has_subsystems(std::string* why) const {
    if (const std::string missing = internals_missing(); !missing.empty()) {
        if (why) *why = missing;
        return false;
    }
    if (!model_.server && metric_ == Metric::Experts && !model_.expert_map->specialises()) {
        if (why) {
            *why = "this model's calibrated expert map does not beat its nulls (shuffled labels and token identity alone, "
                   "which random weights reach) by " + fmt(kMapMargin, 2) + ", so its experts do not specialise by subsystem on the "
                   "probes and subsystem shares mean nothing here (octoscope-cli calibrate --experts, docs/moe.md)";
        }
        return false;
    }
    if (!model_.server && model_.map->source() == HeadMapSource::Calibrated) {
        const nlohmann::json report = calibration_report(model_.map->path());
        const auto number = [&](const char* key) -> std::optional<double> {
            if (!report.is_object() || !report.contains(key) || !report[key].is_number()) return std::nullopt;
            return report[key].get<double>();
        };
        if (!map_earned(number("separation").value_or(0.0), number("null_separation").value_or(1.0), number("token_null_separation"))) {
            if (why) {
                *why = "this model's calibrated head map does not beat its nulls (shuffled labels and token identity alone, "
                       "which random weights reach) by " + fmt(kMapMargin, 2) + " — or was calibrated before the token-identity null "
                       "existed (recalibrate: octoscope-cli calibrate) — so subsystem shares and switches mean nothing here";
            }
            return false;
        }
        return true;
    }
    const bool earned = model_.server ? model_.server->map_source != "default"
                                      : model_.map->source() != HeadMapSource::Default || model_.expert_map;
    if (earned) return true;
    if (why) {
        *why = "this model has no head map that was trained in or calibrated (only the default head k → rte-k "
               "assignment, which no measurement earned), so subsystem shares and switches mean nothing here; "
               "calibrate one (octoscope-cli calibrate, docs/instrumentation.md)";
    }
    return false;
}

std::string ClaimLab::map_name() const {
    if (model_.server) {
        return model_.server->octoscope ? "the server's head map (" + model_.server->map_source + ")"
                                        : "none (the server gives outputs only)";
    }
    if (metric_ == Metric::Experts) return "calibrated expert map";
    switch (model_.map->source()) {
    case HeadMapSource::Default: return "default head map (uncalibrated)";
    case HeadMapSource::File: return "head map file " + model_.map->path();
    case HeadMapSource::Gguf: return "head map stored in the GGUF file";
    case HeadMapSource::Calibrated: return "calibrated head map";
    }
    return "head map";
}

int64_t ClaimLab::items_per_subsystem(const Claim& claim, int64_t fallback) const {
    if (options_.items > 0) return options_.items;
    if (claim.params.contains("items") && claim.params["items"].is_number_integer() && claim.params["items"].get<int64_t>() > 0) {
        return claim.params["items"].get<int64_t>();
    }
    return fallback;
}

std::vector<const TaskItem*> ClaimLab::select_items(const std::vector<int>& subsystems, int64_t per_subsystem) const {
    return first_per_subsystem(data_.items, subsystems, per_subsystem, options_.seed, [](const TaskItem& t) { return t.subsystem; });
}

std::vector<const Probe*> ClaimLab::select_probes(int64_t per_subsystem) const {
    std::vector<int> all;
    for (int s = 0; s < kSubsystemCount; ++s) all.push_back(s);
    return first_per_subsystem(data_.dev_probes, all, per_subsystem, options_.seed, [](const Probe& p) { return p.label; });
}

RunSpec claim_question(std::string prompt, int64_t max_tokens, const std::array<bool, kSubsystemCount>& disabled) {
    RunSpec q;
    q.prompt = std::move(prompt);
    q.max_tokens = max_tokens;
    q.disabled = disabled;
    q.record_attention = false;
    return q;
}

// The whole question, in its serialised form: two questions share an answer only when every
// setting is the same.
std::string ClaimLab::cache_key(const RunSpec& question) {
    const std::vector<uint8_t> cbor = nlohmann::json::to_cbor(run_spec_json(question, ByteStrings::Binary));
    return std::string(cbor.begin(), cbor.end());
}

Status ClaimLab::prefetch(const std::vector<RunSpec>& questions) {
    if (!options_.answer_batch) return Ok{};
    if (cancelled()) return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
    std::vector<RunSpec> missing;
    std::vector<std::string> keys;
    for (const RunSpec& r : questions) {
        std::string key = cache_key(r);
        if (answers_.contains(key) || std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        missing.push_back(r);
        keys.push_back(std::move(key));
    }
    if (missing.empty()) return Ok{};
    std::vector<Result<ClaimAnswer>> given = options_.answer_batch(missing);
    if (given.size() != missing.size()) return make_error(ErrorCode::InvalidArgument, "the answer batch returned a wrong count");
    for (size_t i = 0; i < given.size(); ++i) {
        if (!given[i]) return given[i].error();
        answers_[keys[i]] = std::make_unique<ClaimAnswer>(std::move(given[i].value()));
    }
    return Ok{};
}

Result<const ClaimAnswer*> ClaimLab::answer(const RunSpec& question, bool cached) {
    const std::string key = cache_key(question);
    if (cached) {
        if (auto it = answers_.find(key); it != answers_.end()) return it->second.get();
    }
    if (cancelled()) return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
    if (options_.answer_source) {
        auto given = options_.answer_source(question);
        if (!given) return given.error();
        auto a = std::make_unique<ClaimAnswer>(std::move(given.value()));
        const ClaimAnswer* out = a.get();
        answers_[cached ? key : key + "\x1f" + std::to_string(answers_.size())] = std::move(a);
        return out;
    }

    RunSpec spec = question;
    spec.chat = options_.chat;
    spec.switch_target = metric_ == Metric::Experts ? SwitchTarget::Experts : SwitchTarget::Heads;
    const Tokenizer& tok = *model_.tokenizer;
    auto prompt = build_prompt(model_.model->file(), tok, spec);
    if (!prompt) return prompt.error();
    const RunInputs inputs{.prompt_ids = prompt->ids, .expert_map = model_.expert_map, .cancel = options_.cancel};
    auto run = run_instrumented(*model_.model, *model_.backend, tok, *model_.map, *model_.kv, spec, inputs);
    if (!run) return run.error();
    if (run->generation.stop_reason == StopReason::Cancelled) {
        return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
    }
    auto a = std::make_unique<ClaimAnswer>();
    const GenerateResult& g = run->generation;
    a->text = g.text;
    a->ended = g.stop_reason == StopReason::EndOfGeneration;
    a->last_prompt_token = prompt->ids.empty() ? std::string() : tok.token_bytes(prompt->ids.back());
    a->prompt_tokens = static_cast<int64_t>(prompt->ids.size());
    a->reused_tokens = g.reused_tokens;
    for (size_t i = 0; i < g.tokens.size(); ++i) {
        a->tokens.push_back(g.tokens[i].bytes);
        a->token_ids.push_back(g.tokens[i].id);
        a->is_eog.push_back(tok.is_eog(g.tokens[i].id));
        a->shares.push_back(i < run->token_metrics.size() ? run->token_metrics[i].get(metric_) : std::nullopt);
        a->contributions.push_back(i < run->token_metrics.size() ? run->token_metrics[i].get(contribution_metric()) : std::nullopt);
        a->total_ms += g.tokens[i].ms;
    }
    a->first_token_ms = g.tokens.empty() ? 0.0 : g.tokens.front().ms;
    const ClaimAnswer* out = a.get();
    answers_[cached ? key : key + "\x1f" + std::to_string(answers_.size())] = std::move(a);
    return out;
}

Result<const Router*> ClaimLab::router() {
    if (!router_) {
        auto r = Router::from_resources(data_.resource_dir);
        if (!r) return r.error();
        router_ = std::make_unique<Router>(std::move(r.value()));
    }
    return router_.get();
}

BootstrapOptions ClaimLab::bootstrap_options(const Claim& claim) const {
    return BootstrapOptions{.resamples = options_.resamples, .seed = claim_seed(options_.seed, claim.id)};
}

bool ClaimLab::step(int64_t done, int64_t total) const {
    if (options_.progress) options_.progress(done + progress_part_ * total, total * progress_parts_);
    return !cancelled();
}

bool ClaimLab::cancelled() const {
    return options_.cancel && options_.cancel->load(std::memory_order_relaxed);
}

Result<ClaimResult> ClaimLab::run(const Claim& claim) {
    if (!claim.measurable()) {
        ClaimResult listed;
        listed.id = claim.id;
        listed.verdict = Verdict::NotMeasurableHere;
        listed.reason = claim.not_measurable_here.en;
        return listed;
    }
    answers_.clear();
    if (model_.kv) model_.kv->pool().forget_cached(); // nothing computed for another claim is reused
    const ProtocolInfo* protocol = find_protocol(claim.protocol);
    if (!protocol) return make_error(ErrorCode::InvalidArgument, "unknown protocol \"" + claim.protocol + "\"");
    progress_parts_ = claim.control_margin ? 2 : 1;
    auto result = protocol->run(*this, claim);
    answers_.clear();
    if (!result) return result.error();
    if (claim.control_margin && result->estimate) {
        run_control(claim, *protocol, *result);
        if (cancelled()) return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
    }
    result->id = claim.id;
    if (result->estimate && result->reason.empty() && !(result->estimate->ci95.hi > result->estimate->ci95.lo)) {
        result->reason = "every unit gave the same value, so no interval can be sized from these data";
    }
    if (result->estimate && !result->reason.empty()) {
        result->verdict = Verdict::Uninformative;
    } else if (result->estimate && result->estimate->n < kMinUnitsForVerdict) {
        result->verdict = Verdict::Inconclusive;
        result->details["too_few_units"] = true;
    } else if (result->estimate) {
        result->verdict = judge(result->estimate->ci95, claim.test, claim.threshold);
        // A map-reading claim holds only beyond its shuffled-map control.
        if (result->verdict == Verdict::Holds && result->control && !result->control->beaten) result->verdict = Verdict::Inconclusive;
    } else {
        result->verdict = Verdict::NotMeasurable;
    }
    if (result->estimate) {
        // The decision's one-sided p (for an inconclusive result, the nearer of the two sides),
        // which run_claims corrects with Holm's step-down across the run.
        const Estimate& e = *result->estimate;
        result->test.p = result->verdict == Verdict::DoesNotHold ? one_sided_p(e, claim.test, claim.threshold, false)
                         : result->verdict == Verdict::Holds    ? one_sided_p(e, claim.test, claim.threshold, true)
                                                                : std::min(one_sided_p(e, claim.test, claim.threshold, true),
                                                                           one_sided_p(e, claim.test, claim.threshold, false));
        if (claim.article_figure.is_number()) {
            const double figure = claim.article_figure.get<double>();
            result->test.figure_in_interval = e.ci95.lo <= figure && figure <= e.ci95.hi;
        }
    }
    return result;
}

Result<HeadMap> shuffled_head_map(const HeadMap& map, uint64_t seed) {
    nlohmann::json doc = map.to_json();
    uint64_t state = seed;
    for (auto& layer : doc["layers"]) {
        for (size_t i = layer.size(); i > 1; --i) std::swap(layer[i - 1], layer[static_cast<size_t>(splitmix64_next(state) % i)]);
    }
    return HeadMap::from_json(doc, map.n_layer(), map.n_head(), map.source(), map.path());
}

void ClaimLab::run_control(const Claim& claim, const ProtocolInfo& protocol, ClaimResult& result) {
    ControlResult control;
    control.margin = *claim.control_margin;
    const auto finish = [&] {
        if (control.estimate) {
            const Interval& m = result.estimate->ci95;
            const Interval& c = control.estimate->ci95;
            const bool upward = claim.test == ThresholdTest::Above || claim.test == ThresholdTest::AtLeast;
            control.beaten = upward ? m.lo - c.hi > control.margin : c.lo - m.hi > control.margin;
        }
        result.control = std::move(control);
    };
    if (model_.server || !model_.map) {
        control.reason = "the shuffled-map control needs a local model: a server's map cannot be shuffled";
        return finish();
    }
    const uint64_t seed = claim_seed(options_.seed, claim.id + "/control");
    // The labels the lab reads shares and switches through: the expert map's under the experts metric.
    const bool experts = metric_ == Metric::Experts && model_.expert_map;
    auto map = shuffled_head_map(experts ? model_.expert_map->map : *model_.map, seed);
    if (!map) {
        control.reason = map.error().message;
        return finish();
    }
    std::optional<HeadMap> shuffled;
    std::optional<ExpertMap> shuffled_experts;
    ClaimModel m = model_;
    if (experts) {
        shuffled_experts = *model_.expert_map;
        shuffled_experts->map = std::move(map.value());
        m.expert_map = &*shuffled_experts;
    } else {
        shuffled.emplace(std::move(map.value()));
        m.map = &*shuffled;
    }
    if (model_.kv) model_.kv->pool().forget_cached();
    ClaimLab lab(m, data_, options_);
    lab.progress_part_ = 1;
    lab.progress_parts_ = 2;
    auto r = protocol.run(lab, claim);
    if (!r) {
        control.reason = r.error().message;
    } else if (!r->estimate) {
        control.reason = r->reason;
    } else {
        control.estimate = r->estimate;
    }
    finish();
}

Result<std::vector<int>> subsystem_list_param(const nlohmann::json& params, const char* key) {
    std::vector<int> out;
    if (!params.contains(key)) {
        for (int s = 0; s < kSubsystemCount; ++s) out.push_back(s);
        return out;
    }
    const nlohmann::json& list = params[key];
    if (!list.is_array()) return make_error(ErrorCode::Format, std::string("\"") + key + "\" must be a list of subsystem ids");
    for (const auto& v : list) {
        const auto s = v.is_string() ? subsystem_index(v.get<std::string>()) : std::nullopt;
        if (!s) return make_error(ErrorCode::Format, std::string("\"") + key + "\" holds an unknown subsystem");
        out.push_back(*s);
    }
    return out;
}

std::string fill_template(const nlohmann::json& tmpl, const TaskItem& item) {
    const bool zh = item.lang.empty() ? contains_cjk(item.prompt) : item.lang == "zh";
    const char* lang = zh ? "zh" : "en";
    std::string text = tmpl.contains(lang) && tmpl[lang].is_string() ? tmpl[lang].get<std::string>() : std::string("{prompt}");
    const size_t at = text.find("{prompt}");
    if (at == std::string::npos) return text;
    return text.replace(at, 8, item.prompt);
}

} // namespace octo
