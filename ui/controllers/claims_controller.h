// Measuring the article's claims (docs/claims.md): what the Claims panel asks for — run these
// claims with this seed and this many items each, or cancel — goes to the engine thread from
// here; ClaimsStore records what is under way and what came back, and the panel shows it.
#pragma once

#include <QObject>
#include <QString>

#include <string>
#include <vector>

namespace octo::ui {

class ClaimsStore;
class EngineBridge;

class ClaimsController : public QObject {
    Q_OBJECT
public:
    ClaimsController(ClaimsStore& store, EngineBridge& bridge, QObject* parent = nullptr);

    // Where the claims' items and probes are read from (the resource folder).
    void setResourceDir(const QString& dir) { resource_dir_ = dir; }
    // Queues the claims `ids` (unknown ones skipped) unless claims are running already.
    void run(const std::vector<std::string>& ids, quint64 seed, int items);
    void cancel(); // while claims run

private:
    ClaimsStore& store_;
    EngineBridge& bridge_;
    QString resource_dir_;
};

} // namespace octo::ui
