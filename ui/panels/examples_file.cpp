#include "ui/panels/examples_file.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace octo::ui {

namespace {

// The file's bytes through `parse`; a file that cannot be read is an empty list and `error`.
template <class T>
QList<T> load_with(const QString& path, QString* error, QList<T> (*parse)(const QByteArray&, const QString&, QString*)) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return {};
    }
    return parse(file.readAll(), path, error);
}

// The array under `key` of the examples file (empty when the file has none); nullopt with `why`
// when the bytes are not JSON.
std::optional<QJsonArray> examples_array(const QByteArray& bytes, const QString& key, QString* why) {
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError) {
        *why = parse.errorString();
        return std::nullopt;
    }
    return doc.object().value(key).toArray();
}

} // namespace

QString examples_path(const QString& resource_dir) { return resource_dir + QStringLiteral("/examples/octet_examples.json"); }

QList<OctetExample> load_examples(const QString& path, QString* error) { return load_with(path, error, parse_examples); }

QList<OctetExample> parse_examples(const QByteArray& bytes, const QString& path, QString* error) {
    const auto fail = [&](const QString& why) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, why);
        return QList<OctetExample>{};
    };
    QString why;
    const std::optional<QJsonArray> items = examples_array(bytes, QStringLiteral("examples"), &why);
    if (!items) return fail(why);
    QList<OctetExample> out;
    for (qsizetype i = 0; i < items->size(); ++i) {
        const QJsonObject o = (*items)[i].toObject();
        const QString id = o.value(QStringLiteral("subsystem")).toString();
        OctetExample e;
        e.subsystem = id.size() == 5 && id.startsWith(QStringLiteral("rte-")) ? id.back().unicode() - 'a' : -1;
        e.lang = o.value(QStringLiteral("lang")).toString();
        e.prompt = o.value(QStringLiteral("prompt")).toString();
        e.answer = o.value(QStringLiteral("answer")).toString();
        const QJsonObject d = o.value(QStringLiteral("description")).toObject();
        e.description_en = d.value(QStringLiteral("en")).toString();
        e.description_zh = d.value(QStringLiteral("zh")).toString();
        if (e.subsystem < 0 || e.subsystem > 7 || (e.lang != QStringLiteral("en") && e.lang != QStringLiteral("zh")) ||
            e.prompt.isEmpty() || e.answer.isEmpty()) {
            return fail(QStringLiteral("example %1 lacks a subsystem rte-a … rte-h, a language en or zh, a prompt or an answer").arg(i + 1));
        }
        out.append(e);
    }
    if (out.isEmpty()) return fail(QStringLiteral("no examples"));
    return out;
}

QList<ConversationExample> load_conversation_examples(const QString& path, QString* error) {
    return load_with(path, error, parse_conversation_examples);
}

QList<ConversationExample> parse_conversation_examples(const QByteArray& bytes, const QString& path, QString* error) {
    const auto fail = [&](const QString& why) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, why);
        return QList<ConversationExample>{};
    };
    QString why;
    const std::optional<QJsonArray> items = examples_array(bytes, QStringLiteral("conversations"), &why);
    if (!items) return fail(why);
    QList<ConversationExample> out;
    for (qsizetype i = 0; i < items->size(); ++i) {
        const QJsonObject o = (*items)[i].toObject();
        ConversationExample e;
        e.lang = o.value(QStringLiteral("lang")).toString();
        for (const QJsonValue& m : o.value(QStringLiteral("messages")).toArray()) {
            const QString role = m.toObject().value(QStringLiteral("role")).toString();
            const ChatRole r = role == QStringLiteral("assistant") ? ChatRole::Assistant : role == QStringLiteral("system") ? ChatRole::System : ChatRole::User;
            if (role != QStringLiteral("user") && role != QStringLiteral("assistant") && role != QStringLiteral("system")) {
                return fail(QStringLiteral("conversation %1 has a message whose role is not user, assistant or system").arg(i + 1));
            }
            e.messages.push_back({r, m.toObject().value(QStringLiteral("content")).toString().toStdString()});
        }
        for (const QJsonValue& a : o.value(QStringLiteral("answers")).toArray()) e.answers.append(a.toString());
        const QJsonObject d = o.value(QStringLiteral("description")).toObject();
        e.description_en = d.value(QStringLiteral("en")).toString();
        e.description_zh = d.value(QStringLiteral("zh")).toString();
        if (e.messages.empty() || (e.lang != QStringLiteral("en") && e.lang != QStringLiteral("zh"))) {
            return fail(QStringLiteral("conversation %1 lacks messages or a language en or zh").arg(i + 1));
        }
        out.append(e);
    }
    return out;
}

QList<OctetExample> examples_in(const QList<OctetExample>& all, const QString& lang) {
    QList<OctetExample> out;
    for (int s = 0; s < 8; ++s) {
        const auto of = [&](const QString& l) {
            QList<OctetExample> r;
            for (const OctetExample& e : all) {
                if (e.subsystem == s && e.lang == l) r.append(e);
            }
            return r;
        };
        QList<OctetExample> mine = of(lang);
        if (mine.isEmpty()) mine = of(lang == QStringLiteral("zh") ? QStringLiteral("en") : QStringLiteral("zh"));
        out.append(mine);
    }
    return out;
}

} // namespace octo::ui
