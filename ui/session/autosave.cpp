#include "ui/session/autosave.h"

#include <QFile>
#include <QJsonDocument>

#include "engine/core/atomic_file.h"
#include "engine/core/log.h"
#include "engine/model/user_data.h"

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
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(in.readAll(), &parse);
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
    return std::optional<Autosaved>{std::move(a)};
}

Autosave::Autosave(Snapshot snapshot, QObject* parent) : QObject(parent), snapshot_(std::move(snapshot)) {
    connect(&timer_, &QTimer::timeout, this, &Autosave::saveIfChanged);
}

std::filesystem::path Autosave::filePath() { return user_data_dir() / "autosave" / "session.json"; }

void Autosave::start(std::chrono::milliseconds interval) {
    last_ = session_to_json(snapshot_());
    timer_.start(interval);
}

void Autosave::stop() { timer_.stop(); }

bool Autosave::saveIfChanged() {
    const QJsonObject now = session_to_json(snapshot_());
    return now == last_ || write(now);
}

bool Autosave::saveNow() { return write(session_to_json(snapshot_())); }

bool Autosave::write(const QJsonObject& session) {
    const QDateTime at = QDateTime::currentDateTimeUtc();
    const QJsonObject file{{"format", kFormat}, {"version", kVersion}, {"saved_at", at.toString(Qt::ISODateWithMs)}, {"session", session}};
    const QByteArray bytes = QJsonDocument(file).toJson();
    const Status written = write_file_atomic(filePath(), std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
    if (!written) {
        log_message(LogLevel::Error, "autosave failed: " + written.error().message);
        emit failed(QString::fromStdString(written.error().message));
        return false;
    }
    last_ = session;
    emit saved(at);
    return true;
}

} // namespace octo::ui
