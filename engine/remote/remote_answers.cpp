#include "engine/remote/remote_answers.h"

#include "engine/core/json_fields.h"
#include "engine/remote/remote_trace.h"

namespace octo::remote {

namespace {

using nlohmann::json;

std::optional<SubsystemValues> values_of(const json& object, const char* key) {
    if (!object.is_object()) return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_array() || it->size() != kSubsystemCount) return std::nullopt;
    SubsystemValues v{};
    for (size_t s = 0; s < v.size(); ++s) {
        if (!(*it)[s].is_number()) return std::nullopt;
        v[s] = (*it)[s].get<float>();
    }
    return v;
}

std::vector<RemoteRequest> requests_for(const RemoteAnswerer& answerer, const std::vector<RunSpec>& asked) {
    std::vector<RemoteRequest> out;
    out.reserve(asked.size());
    for (const RunSpec& a : asked) out.push_back(answer_request(answerer, a.prompt, a.disabled, a.max_tokens));
    return out;
}

} // namespace

RemoteRequest answer_request(const RemoteAnswerer& answerer, const std::string& prompt,
                             const std::array<bool, kSubsystemCount>& disabled, int64_t max_tokens) {
    RemoteRequest r;
    r.chat = true;
    r.messages.push_back({ChatRole::User, prompt});
    r.model = answerer.model;
    r.max_tokens = max_tokens;
    r.top_logprobs = 0;
    if (answerer.octoscope) r.octoscope = {{"disable", disabled_ids(disabled)}};
    return r;
}

ClaimAnswer claim_answer(const RemoteResult& result) {
    ClaimAnswer a;
    a.text = result.text;
    a.ended = result.finish_reason == "stop";
    for (const RemoteToken& t : result.tokens) {
        a.tokens.push_back(t.text);
        a.token_ids.push_back(t.id.value_or(-1));
        a.shares.push_back(values_of(t.octoscope, "subsystems"));
        // What the parts contributed: the experts metric where the server has an expert map, else norm share.
        const json& metrics = json_member(t.octoscope, "metrics");
        auto contribution = values_of(metrics, "experts");
        a.contributions.push_back(contribution ? contribution : values_of(metrics, "norm_share"));
        a.is_eog.push_back(false);
    }
    // An Octoscope server reports the end-of-generation token that stopped the answer as its last
    // token record (other servers send no record of it).
    if (json_string_or(result.octoscope, "stop_reason") == "end_of_generation" &&
        !a.is_eog.empty() && !result.tokens.back().octoscope.is_null()) {
        a.is_eog.back() = true;
    }
    a.first_token_ms = result.ttft_ms;
    a.total_ms = result.total_ms;
    if (result.usage) a.prompt_tokens = result.usage->prompt_tokens;
    a.reused_tokens = json_integer_or(json_member(result.octoscope, "kv"), "reused_tokens", a.reused_tokens);
    return a;
}

void use_remote_answers(ClaimLabOptions& options, const RemoteAnswerer& answerer) {
    options.answer_source = [&answerer](const RunSpec& asked) -> Result<ClaimAnswer> {
        auto r = answerer.client->complete(answer_request(answerer, asked.prompt, asked.disabled, asked.max_tokens), {},
                                           answerer.batch.cancel);
        if (!r) return r.error();
        return claim_answer(r.value());
    };
    options.answer_batch = [&answerer](const std::vector<RunSpec>& asked) {
        std::vector<Result<ClaimAnswer>> out;
        auto all = complete_all(*answerer.client, requests_for(answerer, asked), answerer.batch);
        if (!all) {
            out.assign(asked.size(), Result<ClaimAnswer>(all.error()));
            return out;
        }
        for (Result<RemoteResult>& r : all.value()) {
            if (r) {
                out.emplace_back(claim_answer(r.value()));
            } else {
                out.emplace_back(r.error());
            }
        }
        return out;
    };
}

Result<TaskEvalResult> evaluate_tasks_remote(const RemoteAnswerer& answerer, std::span<const TaskItem> items,
                                             const std::array<bool, kSubsystemCount>& disabled, int64_t max_tokens) {
    std::vector<RemoteRequest> requests;
    requests.reserve(items.size());
    for (const TaskItem& item : items) requests.push_back(answer_request(answerer, item.prompt, disabled, max_tokens));
    auto answers = complete_all(*answerer.client, requests, answerer.batch);
    if (!answers) return answers.error();
    TaskEvalResult out;
    for (size_t i = 0; i < items.size(); ++i) {
        const Result<RemoteResult>& r = answers.value()[i];
        if (!r) return r.error();
        const bool ok = r->finish_reason == "stop" && r->text == items[i].answer;
        TaskEvalCounts& per = out.per_subsystem[static_cast<size_t>(items[i].subsystem)];
        for (TaskEvalCounts* c : {&out.overall, &per}) {
            c->items += 1;
            c->correct += ok ? 1 : 0;
        }
    }
    return out;
}

} // namespace octo::remote
