// Several runs submitted together that the caller needs as a set (an A/B pair, the samples of a
// consistency run): queued without replacing each other, and reported once all have settled
// (finished, failed or cancelled).
#pragma once

#include <QObject>

#include <vector>

#include "engine/generation/run_spec.h"
#include "ui/session/run_record.h"

namespace octo::ui {

class EngineBridge;
class RunStore;

class RunBatch : public QObject {
    Q_OBJECT
public:
    RunBatch(RunStore& store, EngineBridge& bridge, QObject* parent = nullptr);

    // Queues every run (the first one replaces a queued, not yet started run) and groups them in
    // the store as a set of `kind` (the history labels them; `change` is what B changes in a
    // pair). A batch still in flight is forgotten: its runs go on, but only the new batch is reported.
    void start(const std::vector<RunSpec>& runs, RunGroup::Kind kind, const QString& change = {});
    bool active() const { return !pending_.empty(); }
    const std::vector<quint64>& ids() const { return ids_; } // the last batch's runs, in submission order
    // Stops waiting (another run replaced the queued ones): nothing will be reported.
    void abandon() { pending_.clear(); }

signals:
    void settled(const std::vector<quint64>& ids); // in submission order

private:
    void onSettled(quint64 id);

    RunStore& store_;
    EngineBridge& bridge_;
    std::vector<quint64> ids_;
    std::vector<quint64> pending_;
};

} // namespace octo::ui
