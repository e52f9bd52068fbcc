#include "ui/session/session_state.h"

#include <QJsonArray>

#include "ui/support/engine_labels.h"

namespace octo::ui {

namespace {

constexpr auto& kMetrics = kAllMetrics;

// Reads the fields of one JSON object, remembering the first one that is missing or mistyped.
class Reader {
public:
    explicit Reader(const QJsonObject& o) : o_(o) {}
    QJsonValue field(const char* name, QJsonValue::Type type) {
        const QJsonValue v = o_.value(QLatin1String(name));
        if (v.type() != type && missing_.isEmpty()) missing_ = QString::fromLatin1(name);
        return v;
    }
    QString string(const char* name) { return field(name, QJsonValue::String).toString(); }
    double number(const char* name) { return field(name, QJsonValue::Double).toDouble(); }
    bool boolean(const char* name) { return field(name, QJsonValue::Bool).toBool(); }
    const QString& missing() const { return missing_; }

private:
    const QJsonObject& o_;
    QString missing_;
};

} // namespace

QJsonObject session_to_json(const SessionState& state) {
    const RunSpec& s = state.settings;
    QJsonArray disabled;
    for (bool d : s.disabled) disabled.append(d);
    return QJsonObject{
        {"model", state.model_path},
        {"prompt", QString::fromStdString(s.prompt)},
        {"chat", s.chat},
        {"system", QString::fromStdString(s.system)},
        {"max_tokens", static_cast<double>(s.max_tokens)},
        {"temperature", static_cast<double>(s.sampling.temperature)},
        {"seed", static_cast<double>(s.sampling.seed)},
        {"top_p", static_cast<double>(s.sampling.top_p)},
        {"top_k", static_cast<double>(s.sampling.top_k)},
        {"dla", s.dla},
        {"record_attention", s.record_attention},
        {"disabled", disabled},
        {"ablation", QString::fromUtf8(ablation_mode_name(s.ablation_mode))},
        {"metric", QString::fromUtf8(metric_name(state.metric))},
        {"precision", s.precision ? precision_id(*s.precision) : QStringLiteral("default")},
    };
}

std::optional<SessionState> session_from_json(const QJsonObject& object, QString* error) {
    Reader r(object);
    SessionState state;
    RunSpec& s = state.settings;
    state.model_path = r.string("model");
    s.prompt = r.string("prompt").toStdString();
    s.chat = r.boolean("chat");
    s.system = r.string("system").toStdString();
    s.max_tokens = static_cast<int64_t>(r.number("max_tokens"));
    s.sampling.temperature = static_cast<float>(r.number("temperature"));
    s.sampling.seed = static_cast<uint64_t>(r.number("seed"));
    s.sampling.top_p = static_cast<float>(r.number("top_p"));
    s.sampling.top_k = static_cast<int32_t>(r.number("top_k"));
    s.dla = r.boolean("dla");
    s.record_attention = r.boolean("record_attention");
    const QJsonArray disabled = r.field("disabled", QJsonValue::Array).toArray();
    const QString ablation = r.string("ablation");
    const QString metric = r.string("metric");
    if (!r.missing().isEmpty()) {
        *error = QStringLiteral("field \"%1\" is missing or has the wrong type").arg(r.missing());
        return std::nullopt;
    }
    if (disabled.size() != kSubsystemCount) {
        *error = QStringLiteral("\"disabled\" needs %1 entries, not %2").arg(kSubsystemCount).arg(disabled.size());
        return std::nullopt;
    }
    for (int k = 0; k < kSubsystemCount; ++k) s.disabled[static_cast<size_t>(k)] = disabled[k].toBool();
    if (ablation == QLatin1String(ablation_mode_name(AblationMode::Mean))) {
        s.ablation_mode = AblationMode::Mean;
    } else if (ablation != QLatin1String(ablation_mode_name(AblationMode::Zero))) {
        *error = QStringLiteral("unknown ablation mode \"%1\"").arg(ablation);
        return std::nullopt;
    }
    bool known_metric = false;
    for (Metric m : kMetrics) {
        if (metric == QLatin1String(metric_name(m))) {
            state.metric = m;
            known_metric = true;
        }
    }
    if (!known_metric) {
        *error = QStringLiteral("unknown metric \"%1\"").arg(metric);
        return std::nullopt;
    }
    // Optional: sessions saved before the choice existed run at the model's default.
    if (const QJsonValue p = object.value(QLatin1String("precision")); !p.isUndefined()) {
        const QString name = p.toString();
        if (name != QLatin1String("default")) {
            s.precision = parse_precision(name.toStdString());
            if (!p.isString() || !s.precision) {
                *error = QStringLiteral("unknown precision \"%1\"").arg(name);
                return std::nullopt;
            }
        }
    }
    return state;
}

} // namespace octo::ui
