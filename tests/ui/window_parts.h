#pragma once
// The workbench's panels and views as a test finds them: by type in the window's object tree, as
// a user finds them on screen. MainWindow has no getters for its parts; tests drive runs through
// MainWindow::runs() (RunController) and read results from MainWindow::store() (RunStore), and use
// a part only to check what that part itself shows or does.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QObject>
#include <QSignalSpy>
#include <QWidget>
#include <QtGlobal>

#include "engine/model/synthetic_model.h"
#include "ui/main_window.h"

namespace octo::ui::test {

// Writes the random-weight model of `spec` (engine/model/synthetic_model.h) to `path`, as a user's
// GGUF file; false when it cannot be made or written.
inline bool write_synthetic_model(const QString& path, const SyntheticModelSpec& spec) {
    const auto bytes = make_synthetic_model(spec);
    QFile f(path);
    if (!bytes || !f.open(QIODevice::WriteOnly)) return false;
    const auto size = static_cast<qint64>(bytes->size());
    return f.write(reinterpret_cast<const char*>(bytes->data()), size) == size;
}

// The one T under `window`; a test that finds none or several stops with the type's name.
template <class T> T* part(const QObject& window) {
    const auto all = window.findChildren<T*>();
    if (all.size() != 1) qFatal("the window holds %d parts of type %s, not one", int(all.size()), T::staticMetaObject.className());
    return all.first();
}

// With OCTOSCOPE_SCREENSHOT_DIR set, saves `w` there as `name` (to look at it as a user would).
inline void screenshot(QWidget& w, const QString& name) {
    const QByteArray dir = qgetenv("OCTOSCOPE_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QApplication::processEvents(); // let queued repaints land before the grab
    QDir().mkpath(QString::fromLocal8Bit(dir));
    w.grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(name));
}

// Opens the model at `path` in `w` and waits until it is loaded (30 s at most).
inline bool load_model(MainWindow& w, const QString& path) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(path);
    return loaded.wait(30000);
}

} // namespace octo::ui::test
