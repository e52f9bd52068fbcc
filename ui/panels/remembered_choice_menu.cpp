#include "ui/panels/remembered_choice_menu.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QSettings>

namespace octo::ui {

RememberedChoiceMenu::RememberedChoiceMenu(QMenu* parent, const QString& title, QString settings_key,
                                           const std::vector<std::pair<QString, QString>>& choices)
    : QObject(parent), settings_key_(std::move(settings_key)), group_(new QActionGroup(this)) {
    QMenu* menu = parent->addMenu(title);
    const QString remembered = QSettings().value(settings_key_, choices.front().first).toString();
    for (const auto& [id, label] : choices) {
        QAction* a = menu->addAction(label);
        a->setCheckable(true);
        a->setData(id);
        a->setChecked(id == remembered);
        group_->addAction(a);
    }
    if (!group_->checkedAction()) group_->actions().front()->setChecked(true);
    connect(group_, &QActionGroup::triggered, this, [this](QAction* a) {
        QSettings().setValue(settings_key_, a->data().toString());
        emit changed(a->data().toString());
    });
}

QString RememberedChoiceMenu::choice() const { return group_->checkedAction()->data().toString(); }

void RememberedChoiceMenu::setChoice(const QString& choice) {
    for (QAction* a : group_->actions()) {
        if (a->data().toString() == choice) {
            a->trigger();
            return;
        }
    }
}

} // namespace octo::ui
