#include "ui/panels/backend_menu.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QSettings>

namespace octo::ui {

namespace {

const char* const kSettingsKey = "backend";

} // namespace

BackendMenu::BackendMenu(QMenu* parent) : QObject(parent), group_(new QActionGroup(this)) {
    QMenu* menu = parent->addMenu(tr("&Backend"));
    const QString remembered = QSettings().value(kSettingsKey, QStringLiteral("auto")).toString();
    const std::pair<QString, QString> choices[] = {
        {QStringLiteral("auto"), tr("&Auto (CUDA when usable, else CPU)")},
        {QStringLiteral("cpu"), tr("&CPU")},
        {QStringLiteral("cuda"), tr("C&UDA")},
    };
    for (const auto& [id, label] : choices) {
        QAction* a = menu->addAction(label);
        a->setCheckable(true);
        a->setData(id);
        a->setChecked(id == remembered);
        group_->addAction(a);
    }
    if (!group_->checkedAction()) group_->actions().front()->setChecked(true);
    connect(group_, &QActionGroup::triggered, this, [this](QAction* a) {
        QSettings().setValue(kSettingsKey, a->data().toString());
        emit changed(a->data().toString());
    });
}

QString BackendMenu::choice() const { return group_->checkedAction()->data().toString(); }

void BackendMenu::setChoice(const QString& choice) {
    for (QAction* a : group_->actions()) {
        if (a->data().toString() == choice) {
            a->trigger();
            return;
        }
    }
}

} // namespace octo::ui
