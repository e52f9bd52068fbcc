#include "ui/controllers/claims_controller.h"

#include <string>
#include <vector>

#include "ui/controllers/engine_bridge.h"
#include "ui/session/claims_store.h"

namespace octo::ui {

ClaimsController::ClaimsController(ClaimsStore& store, EngineBridge& bridge, QObject* parent)
    : QObject(parent), store_(store), bridge_(bridge) {}

void ClaimsController::run(const QStringList& ids, quint64 seed, int items) {
    if (ids.isEmpty() || store_.running()) return;
    std::vector<std::string> names;
    std::vector<Claim> claims;
    for (const QString& id : ids) {
        names.push_back(id.toStdString());
        if (const Claim* c = store_.claim(names.back())) claims.push_back(*c);
    }
    store_.started(std::move(names));
    bridge_.runClaims(std::move(claims), resource_dir_, static_cast<uint64_t>(seed), items);
}

void ClaimsController::cancel() {
    if (store_.running()) bridge_.cancel();
}

} // namespace octo::ui
