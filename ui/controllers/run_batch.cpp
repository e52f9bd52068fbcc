#include "ui/controllers/run_batch.h"

#include <algorithm>

#include "ui/controllers/engine_bridge.h"
#include "ui/session/run_store.h"

namespace octo::ui {

RunBatch::RunBatch(RunStore& store, EngineBridge& bridge, QObject* parent)
    : QObject(parent), store_(store), bridge_(bridge) {
    connect(&store_, &RunStore::runSettled, this, &RunBatch::onSettled);
}

void RunBatch::start(const std::vector<RunSpec>& runs, RunGroup::Kind kind, const QString& change) {
    ids_.clear();
    pending_.clear();
    for (size_t i = 0; i < runs.size(); ++i) ids_.push_back(bridge_.run(runs[i], i == 0));
    pending_ = ids_;
    store_.group_runs(std::vector<uint64_t>(ids_.begin(), ids_.end()), kind, change);
}

void RunBatch::onSettled(quint64 id) {
    const auto it = std::find(pending_.begin(), pending_.end(), id);
    if (it == pending_.end()) return;
    pending_.erase(it);
    if (pending_.empty()) emit settled(ids_);
}

} // namespace octo::ui
