#include "ui/session/capture_record.h"

#include <QObject>

#include "engine/model/architecture.h"

namespace octo::ui {

QString unrepeatable_settings(const RunSpec& s, int64_t model_n_ctx) {
    if (s.n_ctx > 0 && s.n_ctx != model_n_ctx) return QObject::tr("a context of %1 tokens").arg(s.n_ctx);
    return {};
}

Capture capture_of_record(const RunRecord& run, const CaptureContext& context) {
    Capture c;
    static_cast<CaptureContext&>(c) = context;
    c.trace = run.trace;
    for (const auto& [index, note] : run.notes) c.notes[index] = note.toStdString();
    c.lenses = run.lenses;
    return c;
}

RunRecord record_of_capture(const Capture& c, const QString& path) {
    RunRecord r;
    auto origin = std::make_shared<CaptureOrigin>();
    static_cast<CaptureContext&>(*origin) = c;
    origin->path = path;
    r.capture = std::move(origin);
    r.trace = c.trace;
    r.engine = c.engine;
    const bool cancelled = c.trace.outcome && c.trace.outcome->stop_reason == StopReason::Cancelled;
    r.state = cancelled ? RunState::Cancelled : RunState::Finished;
    ModelInfo m;
    static_cast<ModelDescription&>(m) = c.model;
    m.has_router = c.model.router_groups > 0;
    if (const ArchitectureInfo* a = find_architecture(c.model.architecture)) m.shared_expert = m.n_expert > 0 && a->shared_expert;
    m.default_metric = c.trace.default_metric;
    m.default_precision = default_precision(c.model.architecture);
    m.backend = c.backend;
    m.head_map = c.head_map;
    if (c.trace.outcome) {
        m.kv_blocks = c.trace.outcome->kv.blocks_total;
        m.kv_block_size = c.trace.outcome->kv.block_size;
    }
    r.model = std::move(m);
    for (const auto& [index, note] : c.notes) r.notes[index] = QString::fromStdString(note);
    r.lenses = c.lenses;
    return r;
}

} // namespace octo::ui
