#include "ui/session/claims_store.h"

#include <QDir>

namespace octo::ui {

namespace {
template <class... Fs> struct Visitor : Fs... { using Fs::operator()...; };
template <class... Fs> Visitor(Fs...) -> Visitor<Fs...>;
} // namespace

bool ClaimsStore::load(const QString& resource_dir, QString* error) {
    auto catalog = read_claim_catalog(QDir(resource_dir).filePath(QStringLiteral("claims/claims.json")).toStdString());
    if (!catalog) {
        if (error) *error = QString::fromStdString(catalog.error().message);
        return false;
    }
    claims_ = std::move(catalog->claims);
    results_.clear();
    emit resultsChanged();
    return true;
}

const Claim* ClaimsStore::claim(const std::string& id) const {
    for (const Claim& c : claims_) {
        if (c.id == id) return &c;
    }
    return nullptr;
}

const ClaimResult* ClaimsStore::result(const std::string& id) const {
    const auto it = results_.find(id);
    return it == results_.end() ? nullptr : &it->second;
}

ClaimsReport ClaimsStore::report() const {
    ClaimsReport r = meta_;
    r.claims.clear();
    r.results.clear();
    for (const Claim& c : claims_) {
        if (const ClaimResult* res = result(c.id)) {
            r.claims.push_back(c);
            r.results.push_back(*res);
        }
    }
    return r;
}

void ClaimsStore::started(std::vector<std::string> ids) {
    pending_ = std::move(ids);
    total_ = static_cast<int>(pending_.size());
    running_ = true;
    running_index_ = -1;
    running_id_.clear();
    emit runningChanged(true);
}

void ClaimsStore::clear() {
    results_.clear();
    meta_ = {};
    emit resultsChanged();
}

void ClaimsStore::apply(const std::vector<HostEvent>& batch) {
    for (const HostEvent& event : batch) {
        std::visit(Visitor{
                       [&](const host_event::ClaimStarted& e) {
                           running_index_ = static_cast<int>(e.index);
                           running_id_ = e.id;
                           total_ = static_cast<int>(e.total);
                           emit progress(running_index_, total_, 0, 0);
                       },
                       [&](const host_event::ClaimProgress& e) {
                           emit progress(static_cast<int>(e.index), total_, static_cast<int>(e.done), static_cast<int>(e.total));
                       },
                       [&](const host_event::ClaimFinished& e) {
                           results_[e.result.id] = e.result;
                           emit resultsChanged();
                       },
                       [&](const host_event::ClaimsFinished& e) {
                           // The run's final verdicts: Holm's correction over the claims run
                           // together is applied once they have all finished.
                           for (const ClaimResult& r : e.report.results) results_[r.id] = r;
                           meta_ = e.report;
                           meta_.claims.clear();
                           meta_.results.clear();
                           running_ = false;
                           running_index_ = -1;
                           running_id_.clear();
                           emit runningChanged(false);
                           emit resultsChanged();
                           emit finished(e.report.complete);
                       },
                       [&](const host_event::ClaimsFailed& e) {
                           running_ = false;
                           running_index_ = -1;
                           running_id_.clear();
                           emit runningChanged(false);
                           emit failed(QString::fromStdString(e.error.message));
                       },
                       [](const auto&) {}, // the runs' events: RunStore's
                   },
                   event);
    }
}

} // namespace octo::ui
