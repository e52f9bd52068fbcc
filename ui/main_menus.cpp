#include "ui/main_menus.h"

#include <QMainWindow>
#include <QMenuBar>

#include "ui/panels/backend_menu.h"
#include "ui/panels/file_menu.h"
#include "ui/panels/help_menu.h"
#include "ui/panels/kv_cache_menu.h"
#include "ui/panels/model_menu.h"
#include "ui/panels/recent_models_menu.h"
#include "ui/panels/run_menu.h"
#include "ui/panels/view_menu.h"
#include "ui/support/retranslate.h"
#include "ui/workbench.h"

namespace octo::ui {

MainMenus::MainMenus(QMainWindow& window, Workbench& bench) : QObject(&window), window_(window), bench_(bench) {
    on_language_change(&window_, [this] { build(); });
    connect(&bench_.store(), &RunStore::modelLoaded, this, [this] {
        if (bench_.store().model()->engine) return; // model files only, not a server's
        RecentModelsMenu::remember(QString::fromStdString(bench_.store().model()->path)); // the menu reads it when it opens
    });
}

void MainMenus::build() {
    QMenuBar* bar = window_.menuBar();
    bar->clear();
    for (const QPointer<QMenu>& menu : menus_) delete menu.data();
    auto* file = new FileMenu(bench_, window_, bar);
    auto* run = new RunMenu(bench_, bar);
    model_ = new ModelMenu(bench_, bar);
    menus_ = {file, run, model_, new ViewMenu(window_, bench_.store(), bar), new HelpMenu(bench_, window_, bar)};
    for (QMenu* menu : menus_) bar->addMenu(menu);
}

LoadChoice MainMenus::loadChoice() const {
    return {model_->backend()->choice().toStdString(), model_->kvCache()->types()};
}

} // namespace octo::ui
