#include "ui/panels/model_menu.h"

#include "ui/controllers/model_controller.h"
#include "ui/controllers/server_controller.h"
#include "ui/panels/backend_menu.h"
#include "ui/panels/kv_cache_menu.h"
#include "ui/session/run_store.h"
#include "ui/workbench.h"

namespace octo::ui {

ModelMenu::ModelMenu(Workbench& bench, QWidget* parent) : QMenu(tr("&Model"), parent) {
    addAction(tr("Connect to &Server…"), QKeySequence(tr("Ctrl+Shift+K")), bench.serverController(), &ServerController::showDialog);
    QAction* disconnect = addAction(tr("&Disconnect from Server"), &bench, &Workbench::disconnectServer);
    disconnect->setObjectName(QStringLiteral("modelDisconnect"));
    disconnect->setToolTip(tr("Back to the last model file opened here (else the built-in model)"));
    const auto follow = [disconnect, &bench] { disconnect->setEnabled(bench.connectedToServer()); };
    follow();
    connect(&bench.store(), &RunStore::modelLoaded, disconnect, follow);
    // The models the connected server lists (GET /v1/models): runs go to the one ticked.
    QMenu* served = addMenu(tr("Server's M&odels"));
    served->setObjectName(QStringLiteral("modelServed"));
    served->menuAction()->setEnabled(bench.connectedToServer());
    connect(&bench.store(), &RunStore::modelLoaded, served, [served, &bench] { served->menuAction()->setEnabled(bench.connectedToServer()); });
    connect(served, &QMenu::aboutToShow, served, [served, &bench] {
        served->clear();
        ServerController* server = bench.serverController();
        for (const QString& id : server->servedModels()) {
            QAction* a = served->addAction(id, server, [server, id] { server->switchModel(id); });
            a->setCheckable(true);
            a->setChecked(id == server->servedModel());
        }
    });
    addSeparator();
    QAction* heads = addAction(tr("&Calibrate Head Map…"), &bench, &Workbench::calibrateHeadMap);
    heads->setObjectName(QStringLiteral("modelCalibrateHeads"));
    QAction* experts = addAction(tr("Calibrate &Experts…"), &bench, &Workbench::calibrateExperts);
    experts->setObjectName(QStringLiteral("modelCalibrateExperts"));
    // Calibration measures the model's heads here: greyed, with the reason, while runs go to a server.
    setToolTipsVisible(true);
    const auto local_only = [heads, experts, &bench] {
        const bool remote = bench.connectedToServer();
        for (QAction* a : {heads, experts}) {
            a->setEnabled(!remote);
            a->setToolTip(remote ? tr("Calibration needs the model file: run octoscope-cli calibrate where the server runs") : QString());
        }
    };
    local_only();
    connect(&bench.store(), &RunStore::modelLoaded, this, local_only);
    addSeparator();
    addAction(tr("&Measure the Article's Claims"), QKeySequence(tr("Ctrl+Shift+M")), &bench, &Workbench::measureClaims);
    backend_ = new BackendMenu(this);
    // a server's model stays where it runs; the backend applies to the next local model
    connect(backend_, &BackendMenu::changed, &bench.models(), &ModelController::reopen);
    kv_cache_ = new KvCacheMenu(this);
    connect(kv_cache_, &KvCacheMenu::changed, &bench.models(), &ModelController::reopen);
}

} // namespace octo::ui
