#pragma once
// The workbench's panels and views as a test finds them: by type in the window's object tree, as
// a user finds them on screen. MainWindow has no getters for its parts; tests drive runs through
// MainWindow::runs() (RunController) and read results from MainWindow::store() (RunStore), and use
// a part only to check what that part itself shows or does.
#include <QObject>
#include <QtGlobal>

namespace octo::ui::test {

// The one T under `window`; a test that finds none or several stops with the type's name.
template <class T> T* part(const QObject& window) {
    const auto all = window.findChildren<T*>();
    if (all.size() != 1) qFatal("the window holds %d parts of type %s, not one", int(all.size()), T::staticMetaObject.className());
    return all.first();
}

} // namespace octo::ui::test
