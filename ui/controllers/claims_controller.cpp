#include "ui/controllers/claims_controller.h"

#include "ui/controllers/engine_bridge.h"
#include "ui/session/claims_store.h"

namespace octo::ui {

ClaimsController::ClaimsController(ClaimsStore& store, EngineBridge& bridge, QObject* parent)
    : QObject(parent), store_(store), bridge_(bridge) {}

void ClaimsController::run(const std::vector<std::string>& ids, quint64 seed, int items) {
    if (ids.empty() || store_.running()) return;
    std::vector<Claim> claims;
    for (const std::string& id : ids) {
        if (const Claim* c = store_.claim(id)) claims.push_back(*c);
    }
    store_.started(ids);
    bridge_.runClaims(std::move(claims), resource_dir_, static_cast<uint64_t>(seed), items);
}

void ClaimsController::cancel() {
    if (store_.running()) bridge_.cancel();
}

} // namespace octo::ui
