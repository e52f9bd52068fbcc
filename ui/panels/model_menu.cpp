#include "ui/panels/model_menu.h"

#include "ui/controllers/model_controller.h"
#include "ui/controllers/server_controller.h"
#include "ui/panels/backend_menu.h"
#include "ui/panels/kv_cache_menu.h"
#include "ui/workbench.h"

namespace octo::ui {

ModelMenu::ModelMenu(Workbench& bench, QWidget* parent) : QMenu(tr("&Model"), parent) {
    addAction(tr("Connect to &Server…"), QKeySequence(tr("Ctrl+Shift+K")), bench.serverController(), &ServerController::showDialog);
    addSeparator();
    addAction(tr("&Calibrate Head Map…"), &bench, &Workbench::calibrateHeadMap);
    addAction(tr("Calibrate &Experts…"), &bench, &Workbench::calibrateExperts);
    addSeparator();
    addAction(tr("&Measure the Article's Claims"), QKeySequence(tr("Ctrl+Shift+M")), &bench, &Workbench::measureClaims);
    backend_ = new BackendMenu(this);
    // a server's model stays where it runs; the backend applies to the next local model
    connect(backend_, &BackendMenu::changed, &bench.models(), &ModelController::reopen);
    kv_cache_ = new KvCacheMenu(this);
    connect(kv_cache_, &KvCacheMenu::changed, &bench.models(), &ModelController::reopen);
}

} // namespace octo::ui
