// A submenu of checkable choices, one checked, remembered in QSettings under a key and restored
// at the next start: the shape of Model → Backend and Model → KV Cache. Choosing one saves it and
// emits changed(); the owner decides what follows (both reopen the loaded model).
#pragma once

#include <QObject>
#include <QString>
#include <utility>
#include <vector>

class QActionGroup;
class QMenu;

namespace octo::ui {

class RememberedChoiceMenu : public QObject {
    Q_OBJECT
public:
    // (id, label) pairs; the first is checked when the remembered id is none of them.
    RememberedChoiceMenu(QMenu* parent, const QString& title, QString settings_key,
                         const std::vector<std::pair<QString, QString>>& choices);
    QString choice() const;                // the checked choice's id
    void setChoice(const QString& choice); // checks it, remembers it and emits changed()

signals:
    void changed(const QString& choice);

private:
    QString settings_key_;
    QActionGroup* group_;
};

} // namespace octo::ui
