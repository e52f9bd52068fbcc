#include "ui/panels/language_menu.h"

#include <QActionGroup>

#include "ui/support/language.h"

namespace octo::ui {

LanguageMenu::LanguageMenu(QWidget* parent) : QMenu(tr("&Language"), parent) {
    setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(this);
    const QString ticked = language_choice_shown();
    // Each language is named in itself, so a user who cannot read the current one finds theirs.
    QStringList choices = ui_languages();
    choices.prepend(kSystemLanguage);
    for (const QString& choice : choices) {
        QAction* action = addAction(choice == kSystemLanguage ? tr("&System (%1)").arg(language_native_name(resolve_language(choice)))
                                                            : language_native_name(choice));
        action->setObjectName(QStringLiteral("language_") + choice);
        action->setCheckable(true);
        action->setChecked(choice == ticked);
        action->setActionGroup(group);
        connect(action, &QAction::triggered, this, [c = choice] { choose(c); });
    }
}

void LanguageMenu::choose(const QString& choice) {
    save_language_choice(choice);
    const QString language = resolve_language(choice);
    // Qt then sends LanguageChange to every widget, and the menus are built again.
    if (language != installed_language()) install_translations(language);
}

} // namespace octo::ui
