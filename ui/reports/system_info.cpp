#include "ui/reports/system_info.h"

#include <QDir>
#include <QFile>
#include <QLocale>
#include <QStringList>
#include <QSysInfo>

#include <optional>
#include <string>
#include <thread>

#include "engine/backend/cpu/cpu_features.h"

namespace octo::ui {

namespace {

// The value of the first "key: value" line of a /proc-style file that starts with `key`.
QString proc_field(const QString& path, const QString& key) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    for (const QByteArray& line : f.readAll().split('\n')) {
        const QString l = QString::fromUtf8(line);
        if (!l.startsWith(key)) continue;
        const qsizetype colon = l.indexOf(QLatin1Char(':'));
        if (colon >= 0) return l.mid(colon + 1).trimmed();
    }
    return {};
}

QString nvidia_gpus() {
    QStringList gpus;
    const QDir dir(QStringLiteral("/proc/driver/nvidia/gpus"));
    for (const QString& bus : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString model = proc_field(dir.filePath(bus + QStringLiteral("/information")), QStringLiteral("Model"));
        if (!model.isEmpty()) gpus << model;
    }
    return gpus.isEmpty() ? QObject::tr("none detected") : gpus.join(QStringLiteral(", "));
}

} // namespace

SystemInfo system_info() {
    SystemInfo s;
    s.os = QStringLiteral("%1, kernel %2 (%3)")
               .arg(QSysInfo::prettyProductName(), QSysInfo::kernelVersion(), QSysInfo::currentCpuArchitecture());
    const std::optional<std::string> cpu = known_cpu_model_name();
    s.cpu = cpu ? QString::fromStdString(*cpu) : QObject::tr("unknown");
    s.cores = static_cast<int>(std::thread::hardware_concurrency());
    const QString mem = proc_field(QStringLiteral("/proc/meminfo"), QStringLiteral("MemTotal")); // "16318412 kB"
    bool ok = false;
    const qint64 kib = mem.section(QLatin1Char(' '), 0, 0).toLongLong(&ok);
    s.ram = ok ? QLocale::c().formattedDataSize(kib * 1024) : QObject::tr("unknown");
    s.gpu = nvidia_gpus();
    s.qt = QStringLiteral("%1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
#if defined(__clang__)
    s.compiler = QStringLiteral("Clang ") + QStringLiteral(__clang_version__);
#elif defined(__GNUC__)
    s.compiler = QStringLiteral("GCC ") + QStringLiteral(__VERSION__);
#else
    s.compiler = QObject::tr("unknown");
#endif
    return s;
}

} // namespace octo::ui
