// Help: Documentation (F1), Examples…, Keyboard Shortcuts…, Experts and Subsystems…, About.
#pragma once

#include <QMenu>

namespace octo::ui {

class Workbench;

class HelpMenu : public QMenu {
    Q_OBJECT
public:
    // `window`: the dialogs' parent, whose menus' and own shortcuts are listed.
    HelpMenu(Workbench& bench, QWidget& window, QWidget* parent);
    // Help → Examples… (also the first-start hint's button): a chosen prompt goes into the editor.
    static void showExamples(Workbench& bench, QWidget& window);
};

} // namespace octo::ui
