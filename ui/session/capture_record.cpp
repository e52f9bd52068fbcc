#include "ui/session/capture_record.h"

#include <QObject>
#include <QStringList>

namespace octo::ui {

RunSpec capture_settings_of(const RunRecord& run) {
    RunSpec s = run.capture ? run.capture->settings : run.settings;
    s.precision = run.precision; // the one taken, not "the default": a replay repeats it
    return s;
}

QString unrepeatable_settings(const RunSpec& s, int64_t model_n_ctx) {
    if (s.n_ctx > 0 && s.n_ctx != model_n_ctx) return QObject::tr("a context of %1 tokens").arg(s.n_ctx);
    return {};
}

Capture capture_of_record(const RunRecord& run, const CaptureContext& context) {
    Capture c;
    c.model = context.model;
    c.app_version = context.app_version;
    c.backend = context.backend;
    c.device = context.device;
    c.settings = capture_settings_of(run);
    c.head_map = context.head_map;
    c.prompt_text = run.prompt_text.toStdString();
    c.route = context.route;
    c.findings = context.findings;
    GenerateResult& g = c.run.generation;
    for (size_t i = 0; i < run.tokens.size(); ++i) {
        const RunToken& t = run.tokens[i];
        if (i < run.n_prompt) {
            c.prompt_tokens.push_back({t.id, t.bytes});
            g.prompt_probes.push_back(t.probe);
            c.run.prompt_metrics.push_back(t.metrics);
            continue;
        }
        g.tokens.push_back(TokenEvent{t.id, t.bytes, t.visible_text, t.logprobs.value_or(TokenLogprobs{}), t.ms, t.probe});
        g.text += t.visible_text;
        c.run.token_metrics.push_back(t.metrics);
    }
    c.run.default_metric = run.default_metric;
    if (run.finished) {
        const host_event::RunFinished& f = *run.finished;
        g.stop_reason = f.stop_reason;
        g.prefill_ms = f.prefill_ms;
        g.decode_ms = f.decode_ms;
        g.n_decoded = f.n_decoded;
        g.reused_tokens = f.reused_tokens;
        g.evaluated_tokens = f.evaluated_tokens;
        c.run.kv = f.kv;
        c.run.kv_blocks = f.kv_blocks;
        c.kv_history = f.kv_history;
    }
    for (const auto& [index, note] : run.notes) c.notes[index] = note.toStdString();
    return c;
}

RunRecord record_of_capture(const Capture& c, const QString& path) {
    RunRecord r;
    auto origin = std::make_shared<CaptureOrigin>();
    origin->path = path;
    origin->model = c.model;
    origin->app_version = c.app_version;
    origin->backend = c.backend;
    origin->device = c.device;
    origin->settings = c.settings;
    origin->head_map = c.head_map;
    origin->route = c.route;
    origin->findings = c.findings;
    r.capture = std::move(origin);
    r.settings = c.settings;
    r.precision = c.settings.precision.value_or(Precision::Exact);
    r.prompt_text = QString::fromStdString(c.prompt_text);
    const GenerateResult& g = c.run.generation;
    for (size_t i = 0; i < c.prompt_tokens.size(); ++i) {
        RunToken t{c.prompt_tokens[i].id, c.prompt_tokens[i].bytes};
        if (i < g.prompt_probes.size()) t.probe = g.prompt_probes[i];
        if (i < c.run.prompt_metrics.size()) t.metrics = c.run.prompt_metrics[i];
        r.tokens.push_back(std::move(t));
    }
    r.n_prompt = c.prompt_tokens.size();
    for (size_t i = 0; i < g.tokens.size(); ++i) {
        const TokenEvent& e = g.tokens[i];
        r.tokens.push_back(RunToken{e.id, e.bytes, true, e.logprobs, e.ms, e.probe,
                                    i < c.run.token_metrics.size() ? c.run.token_metrics[i] : TokenMetrics{}, e.visible_text});
    }
    r.state = g.stop_reason == StopReason::Cancelled ? RunState::Cancelled : RunState::Finished;
    host_event::RunFinished f;
    f.run_id = 0;
    f.stop_reason = g.stop_reason;
    f.prefill_ms = g.prefill_ms;
    f.decode_ms = g.decode_ms;
    f.n_decoded = g.n_decoded;
    f.reused_tokens = g.reused_tokens;
    f.evaluated_tokens = g.evaluated_tokens;
    f.kv = c.run.kv;
    f.kv_history = c.kv_history;
    f.kv_blocks = c.run.kv_blocks;
    f.default_metric = c.run.default_metric;
    r.finished = std::move(f);
    r.default_metric = c.run.default_metric;
    ModelInfo m;
    m.path = c.model.path;
    m.name = c.model.name;
    m.architecture = c.model.architecture;
    m.n_layer = c.model.n_layer;
    m.n_head = c.model.n_head;
    m.n_params = c.model.n_params;
    m.n_ctx = c.model.n_ctx;
    m.has_router = c.model.router_groups > 0;
    m.router_groups = c.model.router_groups;
    m.default_metric = c.run.default_metric;
    m.default_precision = default_precision(c.model.architecture);
    m.backend = c.backend;
    m.head_map = c.head_map;
    m.kv_blocks = c.run.kv.blocks_total;
    m.kv_block_size = c.run.kv.block_size;
    r.model = std::move(m);
    for (const auto& [index, note] : c.notes) r.notes[index] = QString::fromStdString(note);
    return r;
}

} // namespace octo::ui
