// The UI side of the engine host (engine/host/engine_host.h): forwards commands, and turns the
// host's staged events into Qt signals on the UI thread. Events are drained in batches by a
// single-shot timer started when the host reports some and none is pending, so a fast token
// stream reaches the views at most every kFlushMs milliseconds and the UI thread never waits.
#pragma once

#include <QObject>
#include <QTimer>

#include <memory>

#include "engine/host/engine_host.h"

namespace octo::ui {

class EngineBridge : public QObject {
    Q_OBJECT
public:
    static constexpr int kFlushMs = 33;

    explicit EngineBridge(QObject* parent = nullptr);
    ~EngineBridge() override;

    void loadModel(const QString& path, const LoadChoice& choice = {}); // EngineHost::load_model
    // Runs go to this server from now on (EngineHost::connect); loading a model ends it.
    void connectServer(std::shared_ptr<RemoteRunner> runner);
    uint64_t run(const RunSpec& spec, bool replace_queued = true); // see EngineHost::run
    void calibrate(const QString& train_probes, const QString& dev_probes, CalibrationUnit unit = CalibrationUnit::Heads);
    // The claims lab on the loaded model (EngineHost::run_claims).
    void runClaims(std::vector<Claim> claims, const QString& resource_dir, uint64_t seed, int64_t items);
    // The logit lens of a run at one position (EngineHost::logit_lens).
    void logitLens(uint64_t run_id, const std::string& model_path, const RunSpec& spec, std::vector<int32_t> tokens,
                   size_t n_prompt, int64_t position, int64_t k);
    // The quantisation report of the loaded model against `model_b` (EngineHost::quant_report).
    void quantReport(const QString& model_b, std::vector<std::string> prompts, int max_tokens);
    void cancel();
    bool busy() const;

signals:
    // One batch of events, oldest first (RunStore applies them).
    void events(const std::vector<octo::HostEvent>& batch);
    // A run was queued (RunStore counts it as running until it settles or is dropped).
    void runSubmitted(quint64 id);

private:
    void flush();

    QTimer flush_timer_;
    std::unique_ptr<EngineHost> host_; // last: its thread calls back into the members above
};

} // namespace octo::ui
