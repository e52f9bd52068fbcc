// Model → Backend: Auto (CUDA when usable, else the CPU), CPU or CUDA. The choice is
// remembered (QSettings "backend") and applies to the next model load; changing it reloads the
// open model. The engine decides what "usable" means (engine/host/engine_host.h load_model).
#pragma once

#include <QObject>
#include <QString>

class QActionGroup;
class QMenu;

namespace octo::ui {

class BackendMenu : public QObject {
    Q_OBJECT
public:
    // Adds the submenu to `parent`, checked at the remembered choice.
    explicit BackendMenu(QMenu* parent);
    QString choice() const; // "auto", "cpu" or "cuda"
    void setChoice(const QString& choice); // checks it, remembers it and emits changed()

signals:
    void changed(const QString& choice);

private:
    QActionGroup* group_;
};

} // namespace octo::ui
