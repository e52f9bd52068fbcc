#include "ui/controllers/router_controller.h"

#include <QDir>
#include <QFile>
#include <QPointer>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include "engine/core/log.h"
#include "ui/support/file_save.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

RouterController::RouterController(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1); // requests in order; a stale result is dropped by its generation
}

RouterController::~RouterController() { pool_.waitForDone(); }

QString RouterController::userProbePath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("octoscope/user_probes.jsonl"));
}

bool RouterController::load(const QString& resource_dir, QString* error) {
    auto router = Router::from_resources(resource_dir.toStdString());
    if (!router) {
        if (error) *error = QString::fromStdString(router.error().message);
        return false;
    }
    if (QFile::exists(userProbePath())) {
        auto user = read_probe_file(userProbePath().toStdString());
        if (user) {
            for (const Probe& p : user.value()) router->add_probe(p);
        }
    }
    router_ = std::make_shared<Router>(std::move(router.value()));
    return true;
}

void RouterController::route(const QString& text) {
    if (!router_) return;
    const quint64 generation = ++generation_;
    QPointer<RouterController> self(this);
    auto router = router_;
    auto mutex = router_mutex_;
    pool_.start([self, router, mutex, text, generation] {
        RouteDecision d;
        {
            std::lock_guard lock(*mutex);
            d = router->route(text.toStdString());
        }
        QMetaObject::invokeMethod(
            self.data(), [self, text, d, generation] {
                // the user typed on, or a recorded decision is shown: a newer request decides
                if (self && generation == self->generation_) emit self->routed(text, d);
            },
            Qt::QueuedConnection);
    });
}

void RouterController::correct(const QString& text, int subsystem) {
    if (!router_) return;
    Probe probe{text.toStdString(), {}, subsystem};
    const QString path = userProbePath();
    QByteArray lines; // the file so far plus the new line, written whole (file_save.h)
    if (QFile old(path); old.open(QIODevice::ReadOnly)) lines = old.readAll();
    const nlohmann::json line = {{"text", probe.text}, {"lang", ""}, {"label", subsystem_id(subsystem).toStdString()}};
    lines += QByteArray::fromStdString(line.dump() + "\n");
    if (QString error; !save_file(path, lines, &error)) log_message(LogLevel::Error, "cannot save the probe: " + error.toStdString());
    {
        std::lock_guard lock(*router_mutex_);
        router_->add_probe(probe);
    }
    route(text);
}

} // namespace octo::ui
