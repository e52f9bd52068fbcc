#include "ui/controllers/engine_bridge.h"

#include <QMetaObject>
#include <QPointer>

namespace octo::ui {

EngineBridge::EngineBridge(QObject* parent) : QObject(parent) {
    flush_timer_.setSingleShot(true);
    flush_timer_.setInterval(kFlushMs);
    connect(&flush_timer_, &QTimer::timeout, this, &EngineBridge::flush);
    QPointer<EngineBridge> self(this);
    host_ = std::make_unique<EngineHost>([self] {
        // Worker thread: ask the UI thread to start the flush timer unless one is pending.
        QMetaObject::invokeMethod(
            self.data(),
            [self] {
                if (self && !self->flush_timer_.isActive()) self->flush_timer_.start();
            },
            Qt::QueuedConnection);
    });
}

EngineBridge::~EngineBridge() { host_.reset(); }

void EngineBridge::loadModel(const QString& path, const LoadChoice& choice) {
    host_->load_model(path.toStdString(), choice);
}

void EngineBridge::connectServer(std::shared_ptr<RemoteRunner> runner) { host_->connect(std::move(runner)); }

uint64_t EngineBridge::run(const RunSpec& spec, bool replace_queued) {
    const uint64_t id = host_->run(spec, replace_queued);
    emit runSubmitted(id);
    return id;
}

void EngineBridge::calibrate(const QString& train, const QString& dev, CalibrationUnit unit) {
    host_->calibrate(train.toStdString(), dev.toStdString(), unit);
}

void EngineBridge::runClaims(std::vector<Claim> claims, const QString& resource_dir, uint64_t seed, int64_t items) {
    host_->run_claims(std::move(claims), resource_dir.toStdString(), seed, items, OCTOSCOPE_VERSION);
}

void EngineBridge::logitLens(uint64_t run_id, const std::string& model_path, const RunSpec& spec, std::vector<int32_t> tokens,
                             size_t n_prompt, int64_t position, int64_t k) {
    host_->logit_lens(run_id, model_path, spec, std::move(tokens), n_prompt, position, k);
}

void EngineBridge::quantReport(const QString& model_b, std::vector<std::string> prompts, int max_tokens) {
    host_->quant_report(model_b.toStdString(), std::move(prompts), {.max_tokens = max_tokens});
}

void EngineBridge::cancel() { host_->cancel(); }

bool EngineBridge::busy() const { return host_->busy(); }

void EngineBridge::flush() {
    std::vector<HostEvent> batch = host_->take_events();
    if (!batch.empty()) emit events(batch);
}

} // namespace octo::ui
