#include "ui/session/session_archive.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <set>

namespace octo::ui {

namespace {

constexpr char kFormat[] = "octoscope-session";
constexpr int kVersion = 1;

Error format_error(const QString& why) { return make_error(ErrorCode::Format, "not a session index: " + why.toStdString()); }

bool plain_capture_name(const QString& file) {
    return !file.isEmpty() && file.size() <= 255 && !file.contains(QLatin1Char('/')) && !file.contains(QLatin1Char('\\')) &&
           !file.startsWith(QLatin1Char('.')) && file.endsWith(QLatin1String(".octo")) && !file.contains(QChar(0));
}

} // namespace

QByteArray session_index_bytes(const SessionIndex& index) {
    QJsonArray runs;
    for (const SessionIndex::Run& r : index.runs) runs.append(QJsonObject{{"file", r.file}, {"name", r.name}, {"pinned", r.pinned}});
    const QJsonObject o{{"format", kFormat},
                        {"version", kVersion},
                        {"exported_at", index.exported_at.toString(Qt::ISODateWithMs)},
                        {"app_version", index.app_version},
                        {"runs", runs},
                        {"skipped", QJsonArray::fromStringList(index.skipped)}};
    return QJsonDocument(o).toJson();
}

Result<SessionIndex> parse_session_index(const QByteArray& bytes) {
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError) return format_error(parse.errorString());
    const QJsonObject o = doc.object();
    if (o.value("format").toString() != QLatin1String(kFormat)) return format_error(QStringLiteral("another format"));
    if (o.value("version").toInt() != kVersion) {
        return format_error(QStringLiteral("version %1 (this build reads %2)").arg(o.value("version").toInt()).arg(kVersion));
    }
    SessionIndex index;
    index.exported_at = QDateTime::fromString(o.value("exported_at").toString(), Qt::ISODateWithMs);
    if (!index.exported_at.isValid()) return format_error(QStringLiteral("no valid \"exported_at\" time"));
    index.app_version = o.value("app_version").toString();
    if (!o.value("runs").isArray()) return format_error(QStringLiteral("no \"runs\" list"));
    std::set<QString> seen;
    for (const QJsonValue& v : o.value("runs").toArray()) {
        const QJsonObject r = v.toObject();
        SessionIndex::Run run{r.value("file").toString(), r.value("name").toString(), r.value("pinned").toBool()};
        if (!plain_capture_name(run.file)) return format_error(QStringLiteral("\"%1\" is not a capture's file name in the folder").arg(run.file));
        if (!seen.insert(run.file).second) return format_error(QStringLiteral("\"%1\" is listed twice").arg(run.file));
        index.runs.push_back(std::move(run));
    }
    for (const QJsonValue& v : o.value("skipped").toArray()) index.skipped.push_back(v.toString());
    return index;
}

QString session_run_file(int n) { return QStringLiteral("run-%1.octo").arg(n, 3, 10, QLatin1Char('0')); }

} // namespace octo::ui
