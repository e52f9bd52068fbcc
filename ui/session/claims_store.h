// The claims lab's state in the workbench (docs/claims.md): the claims of the resources' claims
// file, the latest result of each, and the run in progress. It applies the engine's claims
// events (engine/host/host_events.h) and emits one signal per kind of change; the Claims panel,
// its plots and the presenter read it when told. Results live here, never in widgets.
#pragma once

#include <QObject>
#include <QString>

#include <map>
#include <optional>
#include <vector>

#include "engine/claims/claims_report.h"
#include "engine/host/host_events.h"

namespace octo::ui {

class ClaimsStore : public QObject {
    Q_OBJECT
public:
    explicit ClaimsStore(QObject* parent = nullptr) : QObject(parent) {}

    // Reads <resource_dir>/claims/claims.json; false with `error` set when it cannot.
    bool load(const QString& resource_dir, QString* error = nullptr);
    const std::vector<Claim>& claims() const { return claims_; }
    const Claim* claim(const std::string& id) const;
    // The latest result of a claim (null: not run since the model was loaded).
    const ClaimResult* result(const std::string& id) const;
    bool hasResults() const { return !results_.empty(); }
    // What the results describe: the model, its map and the honesty note (empty before a run).
    const ClaimsReport& meta() const { return meta_; }
    // The finished claims, in the claims file's order, with the run's model, map and note.
    ClaimsReport report() const;

    // A run was submitted for these claims (in this order).
    void started(std::vector<std::string> ids);
    bool running() const { return running_; }
    // The claim running now and its items done / total (-1 when none).
    int runningIndex() const { return running_index_; }
    const std::string& runningId() const { return running_id_; }
    // Drops every result (a new model was loaded: they described the old one).
    void clear();

    void apply(const std::vector<HostEvent>& batch);

signals:
    void resultsChanged();                    // a result arrived or results were cleared
    void progress(int index, int total_claims, int done, int total_items);
    void runningChanged(bool running);
    void finished(bool complete);             // the run ended (complete: every claim ran)
    void failed(const QString& message);

private:
    std::vector<Claim> claims_;
    std::map<std::string, ClaimResult> results_;
    ClaimsReport meta_;
    std::vector<std::string> pending_; // the submitted run's claims, in order
    bool running_ = false;
    int running_index_ = -1;
    int total_ = 0;
    std::string running_id_;
};

} // namespace octo::ui
