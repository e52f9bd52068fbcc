#include "ui/panels/help_menu.h"

#include "ui/controllers/run_controller.h"
#include "ui/panels/about_dialog.h"
#include "ui/panels/documentation.h"
#include "ui/panels/examples_dialog.h"
#include "ui/panels/experts_help.h"
#include "ui/panels/shortcuts_dialog.h"
#include "ui/workbench.h"

namespace octo::ui {

HelpMenu::HelpMenu(Workbench& bench, QWidget& window, QWidget* parent) : QMenu(tr("&Help"), parent) {
    setObjectName(QStringLiteral("helpMenu"));
    addAction(tr("&Documentation"), QKeySequence::HelpContents, this, [&bench, &window] { open_documentation(window, bench.resourceDir()); })
        ->setObjectName(QStringLiteral("helpDocumentation"));
    addAction(tr("E&xamples…"), this, [&bench, &window] { showExamples(bench, window); })->setObjectName(QStringLiteral("helpExamples"));
    addAction(tr("&Keyboard Shortcuts…"), this, [&window] { show_shortcuts(window); })->setObjectName(QStringLiteral("helpShortcuts"));
    addAction(tr("&Experts and Subsystems…"), this, [&window] { show_experts_help(window); });
    addSeparator();
    addAction(tr("&About Octoscope"), this, [&bench, &window] { show_about(window, bench.store()); });
}

void HelpMenu::showExamples(Workbench& bench, QWidget& window) {
    show_examples(
        window, bench.resourceDir(), [&bench](const QString& prompt, bool run) { bench.runs().usePrompt(prompt, run); },
        [&bench](const std::vector<ChatMessage>& messages) { bench.openConversation(messages); });
}

} // namespace octo::ui
