#include "ui/controllers/quant_report_controller.h"

#include <nlohmann/json.hpp>

#include "ui/controllers/engine_bridge.h"
#include "ui/session/run_store.h"
#include "ui/support/file_save.h"

namespace octo::ui {

QuantReportController::QuantReportController(RunStore& store, EngineBridge& bridge, QObject* parent)
    : QObject(parent), store_(store), bridge_(bridge) {
    connect(&bridge_, &EngineBridge::events, this, &QuantReportController::apply);
}

bool QuantReportController::start(const QString& model_b, const QStringList& prompts, int max_tokens, QString* error) {
    const auto refuse = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (running_) return refuse(tr("A report is running: wait for it or cancel it."));
    const auto& model = store_.model();
    if (!model) return refuse(tr("Open model A first: the report compares the loaded model with another file of it."));
    if (model->engine) return refuse(tr("The loaded model is a server's: the report runs two model files here."));
    if (model_b.trimmed().isEmpty()) return refuse(tr("Choose model B, another file of the loaded model."));
    std::vector<std::string> texts;
    for (const QString& p : prompts) {
        if (!p.trimmed().isEmpty()) texts.push_back(p.toStdString());
    }
    if (texts.empty()) return refuse(tr("Write at least one prompt, one a line."));
    running_ = true;
    load_fraction_ = 0.0;
    done_ = 0;
    total_ = static_cast<int>(texts.size());
    failure_.clear();
    bridge_.quantReport(model_b, std::move(texts), max_tokens);
    emit changed();
    return true;
}

void QuantReportController::cancel() {
    if (running_) bridge_.cancel();
}

bool QuantReportController::saveJson(const QString& path, QString* error) const {
    if (!report_) {
        if (error) *error = tr("There is no report to save yet.");
        return false;
    }
    const std::string text = quant_report_json(*report_).dump(2) + "\n";
    return save_file(path, QByteArray::fromStdString(text), error);
}

void QuantReportController::apply(const std::vector<HostEvent>& batch) {
    bool any = false;
    for (const HostEvent& event : batch) {
        if (const auto* p = std::get_if<host_event::QuantReportProgress>(&event)) {
            load_fraction_ = p->load_fraction;
            if (p->total > 0) {
                done_ = static_cast<int>(p->done);
                total_ = static_cast<int>(p->total);
            }
            any = true;
        } else if (const auto* r = std::get_if<host_event::QuantReportReady>(&event)) {
            report_ = r->report;
            running_ = false;
            done_ = total_;
            any = true;
        } else if (const auto* f = std::get_if<host_event::QuantReportFailed>(&event)) {
            failure_ = f->error.code == ErrorCode::Cancelled ? tr("Cancelled.") : QString::fromStdString(f->error.message);
            running_ = false;
            any = true;
        }
    }
    if (any) emit changed();
}

} // namespace octo::ui
