#include "ui/reports/run_export.h"

#include <nlohmann/json.hpp>

#include "engine/instrumentation/subsystem.h"
#include "ui/session/run_record.h"

namespace octo::ui {

namespace {

QByteArray csv_field(const QString& s) {
    QString q = s;
    q.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return ("\"" + q + "\"").toUtf8();
}

} // namespace

QByteArray run_to_json(const RunRecord& run) {
    nlohmann::json tokens = nlohmann::json::array();
    for (const TraceToken& t : run.tokens()) {
        nlohmann::json j = {{"id", t.id},
                            {"text", QString::fromUtf8(t.bytes.data(), static_cast<qsizetype>(t.bytes.size())).toStdString()},
                            {"generated", t.generated},
                            {"metrics", metrics_json(t.metrics)},
                            {"head_norms", t.probe.head_norms}};
        if (t.generated) {
            j["ms"] = t.ms;
            if (t.logprobs) j["logprob"] = t.logprobs->logprob;
        }
        if (!t.probe.dla.empty()) j["dla"] = t.probe.dla;
        if (!t.probe.gates.empty()) j["gates"] = t.probe.gates;
        tokens.push_back(std::move(j));
    }
    nlohmann::json disabled = nlohmann::json::array();
    for (int s = 0; s < kSubsystemCount; ++s) {
        if (run.trace.spec.disabled[static_cast<size_t>(s)]) disabled.push_back(subsystem_id(s));
    }
    nlohmann::json out = {{"run", run.id},
                          {"prompt", run.trace.spec.prompt},
                          {"prompt_text", run.prompt_text().toStdString()},
                          {"seed", run.trace.spec.sampling.seed},
                          {"temperature", run.trace.spec.sampling.temperature},
                          {"max_tokens", run.trace.spec.max_tokens},
                          {"disabled", disabled},
                          {"ablation", ablation_mode_name(run.trace.spec.ablation_mode)},
                          {"n_prompt", run.n_prompt()},
                          {"tokens", tokens}};
    if (run.trace.outcome) {
        const auto& f = *run.trace.outcome;
        nlohmann::json history = nlohmann::json::array();
        for (const KvPoolSample& s : f.kv_history) history.push_back({s.step, s.blocks_used, s.blocks_cached, s.blocks_free, s.blocks_shared});
        out["stop_reason"] = stop_reason_name(f.stop_reason);
        out["timing"] = {{"prefill_ms", f.prefill_ms}, {"decode_ms", f.decode_ms}, {"n_decoded", f.n_decoded}};
        out["kv"] = {{"blocks_total", f.kv.blocks_total}, {"blocks_used", f.kv.blocks_used},
                     {"reused_tokens", f.reused_tokens}, {"evaluated_tokens", f.evaluated_tokens},
                     {"history_step_used_cached_free_shared", history}};
    }
    return QByteArray::fromStdString(out.dump(2));
}

QByteArray run_to_csv(const RunRecord& run) {
    QByteArray out = "index,kind,id,text,logprob,ms";
    for (int s = 0; s < kSubsystemCount; ++s) out += "," + QByteArray(subsystem_id(s).data(), static_cast<qsizetype>(subsystem_id(s).size()));
    out += "\n";
    for (size_t i = 0; i < run.tokens().size(); ++i) {
        const TraceToken& t = run.tokens()[i];
        out += QByteArray::number(static_cast<qulonglong>(i)) + (t.generated ? ",generated," : ",prompt,") + QByteArray::number(t.id) + ",";
        out += csv_field(QString::fromUtf8(t.bytes.data(), static_cast<qsizetype>(t.bytes.size()))) + ",";
        out += (t.logprobs ? QByteArray::number(t.logprobs->logprob, 'g', 8) : QByteArray()) + ",";
        out += (t.generated ? QByteArray::number(t.ms, 'f', 3) : QByteArray());
        const auto& v = t.metrics.get(run.trace.default_metric);
        for (int s = 0; s < kSubsystemCount; ++s) out += "," + (v ? QByteArray::number((*v)[static_cast<size_t>(s)], 'g', 6) : QByteArray());
        out += "\n";
    }
    return out;
}

} // namespace octo::ui
