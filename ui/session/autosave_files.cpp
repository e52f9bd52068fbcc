#include "ui/session/autosave_files.h"

#include <QFile>
#include <QJsonDocument>

#include <algorithm>

namespace octo::ui {

namespace {

constexpr const char* kFormat = "octoscope-autosave";
constexpr int kVersion = 2; // 1: before the session held the whole RunSpec (still read)

Error format_error(const std::filesystem::path& file, const QString& why) {
    return make_error(ErrorCode::Format, "the autosave " + file.string() + " is unreadable: " + why.toStdString());
}

} // namespace

Result<std::optional<Autosaved>> read_autosave(const std::filesystem::path& file) {
    QFile in(QString::fromStdString(file.string()));
    if (!in.exists()) return std::optional<Autosaved>{};
    if (!in.open(QIODevice::ReadOnly)) return make_error(ErrorCode::Io, "cannot read " + file.string() + ": " + in.errorString().toStdString());
    auto a = parse_autosave(in.readAll(), file);
    if (!a) return a.error();
    return std::optional<Autosaved>{std::move(a.value())};
}

Result<Autosaved> parse_autosave(const QByteArray& bytes, const std::filesystem::path& file) {
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError) return format_error(file, parse.errorString());
    const QJsonObject o = doc.object();
    if (o.value("format").toString() != QLatin1String(kFormat)) return format_error(file, QStringLiteral("not an Octoscope autosave"));
    if (const int version = o.value("version").toInt(); version < 1 || version > kVersion) {
        return format_error(file, QStringLiteral("version %1 (this build reads 1 to %2)").arg(version).arg(kVersion));
    }
    Autosaved a;
    a.saved_at = QDateTime::fromString(o.value("saved_at").toString(), Qt::ISODateWithMs);
    if (!a.saved_at.isValid()) return format_error(file, QStringLiteral("no valid \"saved_at\" time"));
    QString why;
    auto state = session_from_json(o.value("session").toObject(), &why);
    if (!state) return format_error(file, why);
    a.state = std::move(*state);
    return a;
}

QByteArray autosave_bytes(const QJsonObject& session, const QDateTime& at) {
    const QJsonObject file{{"format", kFormat}, {"version", kVersion}, {"saved_at", at.toString(Qt::ISODateWithMs)}, {"session", session}};
    return QJsonDocument(file).toJson();
}

SessionMarker parse_marker(const QByteArray& bytes) {
    const QJsonObject o = QJsonDocument::fromJson(bytes).object();
    SessionMarker m;
    m.pid = std::max<qint64>(0, o.value("pid").toInteger());
    m.started_at = QDateTime::fromString(o.value("started_at").toString(), Qt::ISODateWithMs);
    if (!m.started_at.isValid()) m.started_at = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    return m;
}

QByteArray marker_bytes(const SessionMarker& marker) {
    const QJsonObject o{{"pid", marker.pid}, {"started_at", marker.started_at.toString(Qt::ISODateWithMs)}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace octo::ui
