#include "ui/panels/language_menu.h"

#include <QActionGroup>
#include <QMessageBox>

#include "ui/support/language.h"

namespace octo::ui {

LanguageMenu::LanguageMenu(QWidget* parent) : QMenu(tr("&Language"), parent) {
    setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(this);
    const QString saved = saved_language_choice();
    // Each language is named in itself, so a user who cannot read the current one finds theirs.
    QStringList choices = ui_languages();
    choices.prepend(kSystemLanguage);
    for (const QString& choice : choices) {
        QAction* action = addAction(choice == kSystemLanguage ? tr("&System (%1)").arg(language_native_name(resolve_language(choice)))
                                                            : language_native_name(choice));
        action->setObjectName(QStringLiteral("language_") + choice);
        action->setCheckable(true);
        action->setChecked(choice == saved);
        action->setActionGroup(group);
        connect(action, &QAction::triggered, this, [this, c = choice] { choose(c); });
    }
}

void LanguageMenu::choose(const QString& choice) {
    save_language_choice(choice);
    const QString language = resolve_language(choice);
    if (language == installed_language()) return;
    // Not blocking; the widgets keep their texts until the next start (they are built once).
    auto* box = new QMessageBox(QMessageBox::Information, tr("Language"),
                                tr("Octoscope will start in %1 the next time it opens.").arg(language_native_name(language)),
                                QMessageBox::Ok, parentWidget());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace octo::ui
