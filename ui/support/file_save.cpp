#include "ui/support/file_save.h"

#include <QBuffer>
#include <QFile>
#include <QPixmap>

#include "engine/core/atomic_file.h"

namespace octo::ui {

bool save_file(const QString& path, const QByteArray& bytes, QString* error) {
    const Status s = write_file_atomic(path.toStdString(), std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
    if (!s && error) *error = QString::fromStdString(s.error().message);
    return s.ok();
}

std::string local_path(const QString& path) { return QFile::encodeName(path).toStdString(); }

bool save_png(const QPixmap& pixmap, const QString& path, QString* error) {
    QByteArray png;
    QBuffer buffer(&png);
    if (pixmap.isNull() || !buffer.open(QIODevice::WriteOnly) || !pixmap.save(&buffer, "PNG")) {
        if (error) *error = QStringLiteral("cannot encode the image for %1").arg(path);
        return false;
    }
    return save_file(path, png, error);
}

} // namespace octo::ui
