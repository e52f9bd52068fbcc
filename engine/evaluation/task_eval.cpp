#include "engine/evaluation/task_eval.h"

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/generation/generator.h"
#include "engine/generation/prompt_builder.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/instrumentation/metrics.h"
#include "engine/kv/kv_store.h"

namespace octo {

namespace {

Error line_error(const std::string& path, size_t line, const std::string& what) {
    return make_error(ErrorCode::Format, path + ":" + std::to_string(line) + ": " + what);
}

// Index of the subsystem with the largest gate share (ties: the lowest).
int top_subsystem(const SubsystemValues& v) {
    return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

} // namespace

Result<std::vector<TaskItem>> read_task_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(ErrorCode::Io, path + ": cannot open the task file");
    std::vector<TaskItem> items;
    std::string line;
    for (size_t n = 1; std::getline(in, line); ++n) {
        if (line.empty()) continue;
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) return line_error(path, n, "not a JSON object");
        TaskItem item;
        for (const char* key : {"prompt", "answer", "subsystem"}) {
            if (!j.contains(key) || !j[key].is_string()) return line_error(path, n, std::string("missing string \"") + key + "\"");
        }
        item.prompt = j["prompt"].get<std::string>();
        item.answer = j["answer"].get<std::string>();
        const auto s = subsystem_index(j["subsystem"].get<std::string>());
        if (!s) return line_error(path, n, "unknown subsystem \"" + j["subsystem"].get<std::string>() + "\"");
        item.subsystem = *s;
        if (j.contains("lang") && j["lang"].is_string()) item.lang = j["lang"].get<std::string>();
        if (j.contains("heldout_phrasing") && j["heldout_phrasing"].is_boolean()) {
            item.heldout_phrasing = j["heldout_phrasing"].get<bool>();
        }
        items.push_back(std::move(item));
    }
    if (items.empty()) return make_error(ErrorCode::Format, path + ": no task items");
    return items;
}

Result<TaskEvalResult> evaluate_tasks(const Model& model, Backend& backend, const Tokenizer& tokenizer,
                                      const HeadMap& map, std::span<const TaskItem> items,
                                      const TaskEvalOptions& options) {
    auto kv = KvStore::create(backend, model.params(), kv_pool_for_context(model.n_ctx()));
    if (!kv) return kv.error();
    SessionOptions o;
    o.kv = kv.value().get();
    o.cancel = options.cancel;
    o.precision = options.precision;
    o.ablation = ablate_subsystems(map, options.disabled, AblationMode::Zero);
    auto session = Session::create(model, backend, o);
    if (!session) return session.error();
    Session& s = *session.value();
    const int64_t groups = model.weights().n_router_groups;

    TaskEvalResult r;
    r.has_router = model.weights().has_router();
    r.precision = s.precision();
    for (size_t i = 0; i < items.size(); ++i) {
        const TaskItem& item = items[i];
        PromptSpec spec;
        spec.prompt = item.prompt;
        auto prompt = build_prompt(model.file(), tokenizer, spec);
        if (!prompt) return prompt.error();
        const std::vector<int32_t>* ids = &prompt->ids;
        GenerateRequest g;
        g.prompt_ids = *ids;
        g.max_tokens = options.max_tokens;
        g.cancel = options.cancel;
        auto out = generate(s, tokenizer, g);
        if (!out) return out.error();
        if (out->stop_reason == StopReason::Cancelled) return make_error(ErrorCode::Cancelled, "evaluation was cancelled");
        const bool ok = out->stop_reason == StopReason::EndOfGeneration && out->text == item.answer;
        for (TaskEvalCounts* c : {&r.overall, &r.per_subsystem[static_cast<size_t>(item.subsystem)]}) {
            c->items += 1;
            c->correct += ok ? 1 : 0;
        }
        if (r.has_router) { // teacher-forced: the gold answer's tokens as inputs
            auto answer = tokenizer.encode(item.answer, false, false);
            if (!answer) return answer.error();
            std::vector<int32_t> forced = *ids;
            forced.insert(forced.end(), answer->begin(), answer->end());
            const int64_t reused = s.start(forced);
            auto logits = s.eval(std::span<const int32_t>(forced).subspan(static_cast<size_t>(reused)));
            if (!logits) return logits.error();
            std::vector<TokenProbe> probes(s.reused_probes().begin(), s.reused_probes().end()); // [forced]
            probes.insert(probes.end(), s.probes().begin(), s.probes().end());
            for (size_t k = 0; k < answer->size(); ++k) {
                const TokenProbe& p = probes[forced.size() - answer->size() + k];
                auto share = gate_share(map, p.gates, groups);
                if (!share) return share.error();
                const bool hit = top_subsystem(share.value()) == item.subsystem;
                for (TaskEvalCounts* c : {&r.router_tokens, item.heldout_phrasing ? &r.router_tokens_heldout : nullptr}) {
                    if (!c) continue;
                    c->items += 1;
                    c->correct += hit ? 1 : 0;
                }
            }
        }
        if (options.progress) options.progress(i + 1, items.size());
    }
    return r;
}

} // namespace octo
