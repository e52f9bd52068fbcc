// View → Language: System / English / 中文. The menu ticks the choice that gives the language
// shown (the saved choice, or the language itself when this start overrides it with --lang).
// Choosing one saves it for the next start (ui/support/language.h) and applies it at once: the
// translators are replaced and every part of the window sets its texts again
// (ui/support/retranslate.h); no restart.
#pragma once

#include <QMenu>

namespace octo::ui {

class LanguageMenu : public QMenu {
    Q_OBJECT
public:
    explicit LanguageMenu(QWidget* parent = nullptr);

    // Saves `choice` and shows the UI in its language now.
    static void choose(const QString& choice);
};

} // namespace octo::ui
