// View → Language: System / English / 中文. The choice is saved (ui/support/language.h) and applies
// from the next start; a message box says so when it changes the language.
#pragma once

#include <QMenu>

namespace octo::ui {

class LanguageMenu : public QMenu {
    Q_OBJECT
public:
    explicit LanguageMenu(QWidget* parent = nullptr);

private:
    void choose(const QString& choice);
};

} // namespace octo::ui
