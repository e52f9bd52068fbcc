// The workbench's file writes, all through write_file_atomic (engine/core/atomic_file.h): the
// file is written beside its destination and renamed over it, so a crash or a full disk never
// leaves half a file behind. Settings (QSettings) and the rotating log are the exceptions.
#pragma once

#include <QByteArray>
#include <QString>

#include <string>

class QPixmap;

namespace octo::ui {

// False with `error` (naming the file) set when the file could not be written.
bool save_file(const QString& path, const QByteArray& bytes, QString* error = nullptr);
bool save_png(const QPixmap& pixmap, const QString& path, QString* error = nullptr);
// A path as the engine's file functions take it (the local file system's encoding).
std::string local_path(const QString& path);

} // namespace octo::ui
