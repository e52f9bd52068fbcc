#include "ui/session/run_store.h"

#include <spdlog/spdlog.h>

#include "engine/host/host_events.h"
#include "engine/host/run_trace_events.h"
#include "ui/support/engine_labels.h"

namespace octo::ui {

QString RunRecord::generated_text() const {
    // A finished run's answer as the generator released it: without stop strings or the text of
    // an end-of-generation token (no "<|eos|>" inside the output); a running one's bytes so far.
    const std::string bytes = trace.outcome ? trace.outcome->text : trace.generated_bytes();
    return QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
}

void RunStore::set_server_state(ServerState::Kind kind, const QString& detail) {
    server_state_ = ServerState{kind, detail};
    emit serverStateChanged();
}

void RunStore::end_retrying() {
    if (server_state_ && server_state_->kind == ServerState::Kind::Retrying) set_server_state(ServerState::Kind::Connected);
}

RunRecord* RunStore::find(uint64_t id) {
    for (RunRecord& r : runs_) {
        if (r.id == id) return &r;
    }
    return nullptr;
}

const RunRecord* RunStore::current() const { return run(shown_); }

int RunStore::focused_token() const {
    if (selected_ >= 0) return selected_;
    const RunRecord* r = current();
    return r ? static_cast<int>(r->tokens().size()) - 1 : -1;
}

const RunRecord* RunStore::run(uint64_t id) const {
    for (const RunRecord& r : runs_) {
        if (r.id == id) return &r;
    }
    return nullptr;
}

void RunStore::set_route(const QString& text, const RouteDecision& decision) {
    routed_text_ = text;
    route_ = decision;
}

void RunStore::set_findings(const QString& editor_text, const QString& answered, std::vector<Finding> findings) {
    findings_editor_text_ = editor_text;
    findings_answered_ = answered;
    findings_ = std::move(findings);
}

std::optional<RouteDecision> RunStore::route_for(const QString& prompt) const {
    return route_ && routed_text_ == prompt ? route_ : std::nullopt;
}

std::vector<Finding> RunStore::findings_for(const QString& prompt) const {
    return findings_editor_text_ == prompt && findings_answered_ == prompt ? findings_ : std::vector<Finding>{};
}

void RunStore::submitted(uint64_t id) {
    const bool was = running();
    pending_.insert(id);
    if (!was) emit runningChanged(true);
}

void RunStore::group_runs(const std::vector<uint64_t>& ids, RunGroup::Kind kind, const QString& change) {
    const uint64_t number = ++group_count_[kind];
    bool history = false;
    for (size_t i = 0; i < ids.size(); ++i) {
        RunGroup g{kind, number, static_cast<int>(i), static_cast<int>(ids.size()), change};
        if (RunRecord* r = find(ids[i])) { // already started
            r->group = std::move(g);
            history = true;
        } else {
            groups_[ids[i]] = std::move(g);
        }
    }
    if (history) emit historyChanged();
}

void RunStore::set_group(uint64_t id, RunGroup group) {
    if (RunRecord* r = find(id)) {
        r->group = std::move(group);
        emit historyChanged();
    } else {
        groups_[id] = std::move(group);
    }
}

std::optional<RunGroup> RunStore::take_group(uint64_t id) {
    const auto it = groups_.find(id);
    if (it == groups_.end()) return std::nullopt;
    RunGroup g = std::move(it->second);
    groups_.erase(it);
    return g;
}

std::optional<ModelInfo> RunStore::model_of(const RunRecord& r) const {
    if (r.model) return r.model;
    if (model_ && !r.model_path.empty() && r.model_path == model_->path) return model_;
    return std::nullopt;
}

bool RunStore::same_model(const RunRecord& a, const RunRecord& b) const {
    const auto ma = model_of(a), mb = model_of(b);
    if (!ma || !mb || ma->path != mb->path) return false;
    const auto sha = [this](const RunRecord& r) -> std::string {
        if (r.capture) return r.capture->model.sha256;
        return model_identity_ ? model_identity_->sha256 : std::string();
    };
    const std::string sa = sha(a), sb = sha(b);
    return sa.empty() || sb.empty() || sa == sb;
}

// What one batch of events changed, emitted once after the batch (RunStore::apply).
struct RunStore::BatchEffects {
    int first_new = -1;     // the shown run's first new or updated token
    bool finished = false;  // the shown run settled
    bool history = false;   // a record was added or settled
    bool changed = false;   // another run is shown (emitted at once, before the next event)
    std::vector<uint64_t> settled, dropped;
};

void RunStore::apply(const std::vector<HostEvent>& batch) {
    const bool was_running = running();
    BatchEffects fx;
    for (const HostEvent& event : batch) {
        std::visit([&](const auto& e) { on(e, fx); }, event);
        if (fx.changed) {
            emit runChanged();
            fx.changed = false;
        }
    }
    for (uint64_t id : fx.settled) pending_.erase(id);
    if (fx.first_new >= 0) emit tokensAppended(fx.first_new);
    if (fx.finished) emit runFinished();
    for (uint64_t id : fx.settled) emit runSettled(id);
    for (uint64_t id : fx.dropped) emit runDropped(id);
    if (fx.history) emit historyChanged();
    if (running() != was_running) emit runningChanged(running());
}

// The model's load.
void RunStore::on(const host_event::LoadStarted& e, BatchEffects&) { emit loadStarted(QString::fromStdString(e.path), e.total_bytes); }
void RunStore::on(const host_event::LoadProgress& e, BatchEffects&) { emit loadProgress(e.fraction); }

void RunStore::on(const host_event::ModelLoaded& e, BatchEffects&) {
    model_ = e.info;
    server_state_ = e.info.engine ? std::optional<ServerState>(ServerState{}) : std::nullopt;
    emit serverStateChanged();
    model_identity_.reset();
    model_identity_error_.reset();
    const bool other_metric = metric_ != e.info.default_metric;
    metric_ = e.info.default_metric;
    emit modelLoaded();
    set_focus({}); // another model's layers and heads
    // The views colour by it at once, as "Colour by" says (they kept the previous metric until the next run).
    if (other_metric) emit metricChanged();
}

void RunStore::on(const host_event::ModelIdentified& e, BatchEffects&) {
    if (!model_ || model_->path != e.path) return; // an older model's
    model_identity_ = e.identity;
    emit modelIdentified();
}

void RunStore::on(const host_event::ModelIdentityFailed& e, BatchEffects&) {
    if (!model_ || model_->path != e.path) return;
    model_identity_error_ = e.error;
    emit modelIdentified();
}

void RunStore::on(const host_event::LoadFailed& e, BatchEffects&) {
    // open_model names the file in errors about it
    emit loadFailed(QString::fromStdString(e.error.message), e.error.code == ErrorCode::Cancelled);
}

// Runs.
void RunStore::on(const host_event::RunStarted& e, BatchEffects& fx) {
    end_retrying();
    RunRecord r;
    r.id = e.run_id;
    r.trace = e.trace;
    if (model_) {
        r.engine = model_->engine; // connected to a server: it runs there
        r.model_path = model_->path;
        // The model as it runs now: a later load or calibration does not change what this run's views describe.
        r.model = model_;
    }
    r.group = take_group(e.run_id);
    runs_.push_back(std::move(r));
    trim_history();
    shown_ = e.run_id;
    selected_ = -1;
    fx.first_new = -1;
    fx.changed = fx.history = true;
}

void RunStore::on(const host_event::PromptMeasured& e, BatchEffects& fx) {
    RunRecord* r = find(e.run_id);
    if (!r) return;
    record_event(r->trace, e);
    if (e.run_id == shown_) fx.first_new = 0;
}

void RunStore::on(const host_event::Token& e, BatchEffects& fx) {
    RunRecord* r = find(e.run_id);
    if (!r) return;
    const size_t index = record_event(r->trace, e);
    if (e.run_id == shown_ && fx.first_new < 0) fx.first_new = static_cast<int>(index);
}

void RunStore::on(const host_event::RunFinished& e, BatchEffects& fx) {
    RunRecord* r = find(e.run_id);
    if (!r) return;
    record_event(r->trace, e);
    r->state = e.outcome.stop_reason == StopReason::Cancelled ? RunState::Cancelled : RunState::Finished;
    if (r->engine && server_state_) set_server_state(ServerState::Kind::Connected);
    fx.finished = fx.finished || e.run_id == shown_;
    fx.settled.push_back(e.run_id);
    fx.history = true;
}

void RunStore::on(const host_event::RunWaiting& e, BatchEffects&) { set_server_state(ServerState::Kind::Retrying, retry_text(e)); }

void RunStore::on(const host_event::RunDropped& e, BatchEffects& fx) {
    pending_.erase(e.run_id);
    groups_.erase(e.run_id);
    fx.dropped.push_back(e.run_id);
}

void RunStore::on(const host_event::RunFailed& e, BatchEffects& fx) {
    RunRecord* r = find(e.run_id);
    if (!r) { // failed before it started (e.g. no model): keep it in the history
        RunRecord failed;
        failed.id = e.run_id;
        failed.group = take_group(e.run_id);
        runs_.push_back(std::move(failed));
        r = &runs_.back();
        shown_ = e.run_id;
        fx.changed = true;
    }
    r->state = e.error.code == ErrorCode::Cancelled ? RunState::Cancelled : RunState::Failed;
    r->error = QString::fromStdString(e.error.message);
    if (server_state_ && e.error.code == ErrorCode::Io) set_server_state(ServerState::Kind::Unreachable, r->error);
    else end_retrying();
    fx.finished = fx.finished || e.run_id == shown_;
    fx.settled.push_back(e.run_id);
    fx.history = true;
}

// Calibration.
void RunStore::on(const host_event::CalibrationProgress& e, BatchEffects&) {
    emit calibrationProgress(static_cast<int>(e.done), static_cast<int>(e.total));
}

void RunStore::on(const host_event::CalibrationDone& e, BatchEffects&) {
    // The file (named by the model file's SHA-256) goes to the log, not the status line: a hash says nothing there.
    spdlog::info("calibrated map stored in {}", e.map_path);
    if (!e.experts) {
        if (model_) model_->head_map = e.active;
        emit calibrationFinished(calibration_text(e), true);
        return;
    }
    // An expert map: the Experts panel and the experts metric use it.
    if (model_) {
        model_->expert_map = e.experts;
        // Earlier runs of this file measured without an expert map get it: their routing holds
        // nothing computed with a map. A run measured with an older map keeps that one.
        for (RunRecord& r : runs_) {
            if (r.model && !r.capture && r.model->path == model_->path && !r.model->expert_map) r.model->expert_map = e.experts;
        }
    }
    emit calibrationFinished(calibration_text(e), true);
    emit expertMapChanged();
}

void RunStore::on(const host_event::CalibrationFailed& e, BatchEffects&) {
    emit calibrationFinished(QString::fromStdString(e.error.message), false);
}

// The logit lens.
void RunStore::on(const host_event::LensReady& e, BatchEffects&) {
    if (RunRecord* r = find(e.run_id)) r->lenses[e.lens.lens.position] = e.lens;
    if (lens_pending_ == LensAsk{e.run_id, e.lens.lens.position}) lens_pending_.reset();
    emit lensChanged();
}

void RunStore::on(const host_event::LensFailed& e, BatchEffects&) {
    const LensAsk ask{e.run_id, e.position};
    if (lens_pending_ == ask) lens_pending_.reset();
    lens_failure_ = {ask, QString::fromStdString(e.error.message)};
    emit lensChanged();
}

const std::optional<ModelInfo>& RunStore::shown_model() const {
    const RunRecord* r = current();
    return r && r->model ? r->model : model_;
}

uint64_t RunStore::add_run(RunRecord record) {
    record.id = next_added_++;
    const Metric metric = record.trace.default_metric; // as when its model was loaded
    runs_.push_back(std::move(record));
    trim_history();
    shown_ = runs_.back().id;
    selected_ = -1;
    emit runChanged();
    emit tokensAppended(0);
    emit runFinished();
    emit selectionChanged();
    emit historyChanged();
    set_metric(metric);
    return shown_;
}

void RunStore::set_note(uint64_t run_id, int index, const QString& text) {
    RunRecord* r = find(run_id);
    if (!r || index < 0 || index >= static_cast<int>(r->tokens().size())) return;
    const QString trimmed = text.trimmed();
    auto it = r->notes.find(index);
    if (trimmed.isEmpty()) {
        if (it == r->notes.end()) return;
        r->notes.erase(it);
    } else {
        if (it != r->notes.end() && it->second == text) return;
        r->notes[index] = text;
    }
    emit notesChanged(run_id, index);
}

void RunStore::show_run(uint64_t id) {
    if (id == shown_ || !find(id)) return;
    shown_ = id;
    selected_ = -1;
    emit runChanged();
    emit selectionChanged();
}

void RunStore::trim_history() {
    for (auto it = runs_.begin(); runs_.size() > kMaxRuns && it != runs_.end();) {
        if (it->pinned || it->id == shown_) {
            ++it;
        } else {
            it = runs_.erase(it);
        }
    }
}

bool RunStore::rename_run(uint64_t id, const QString& name) {
    RunRecord* r = find(id);
    if (!r) return false;
    r->name = name.trimmed();
    emit historyChanged();
    return true;
}

bool RunStore::pin_run(uint64_t id, bool pinned) {
    RunRecord* r = find(id);
    if (!r) return false;
    r->pinned = pinned;
    emit historyChanged();
    return true;
}

bool RunStore::remove_run(uint64_t id) {
    const auto it = std::find_if(runs_.begin(), runs_.end(), [id](const RunRecord& r) { return r.id == id; });
    if (it == runs_.end() || it->state == RunState::Running) return false;
    const bool shown = id == shown_;
    runs_.erase(it);
    if (shown) {
        shown_ = runs_.empty() ? 0 : runs_.back().id;
        selected_ = -1;
        emit runChanged();
        emit selectionChanged();
    }
    emit historyChanged();
    return true;
}

void RunStore::lens_asked(LensAsk ask) {
    lens_pending_ = ask;
    lens_failure_.reset();
    emit lensChanged();
}

std::optional<RunStore::LensBlock> RunStore::lens_block(const RunRecord& r, int token) const {
    if (token < 1) return LensBlock::FirstToken;
    if (r.capture) return LensBlock::Capture;
    if (r.engine) return LensBlock::Server;
    if (r.state == RunState::Running) return LensBlock::Running;
    if (!model_ || model_->engine || model_->path != r.model_path) return LensBlock::OtherModel;
    return std::nullopt;
}

void RunStore::select_token(int index) {
    const RunRecord* r = current();
    if (!r || index < -1 || index >= static_cast<int>(r->tokens().size()) || index == selected_) return;
    selected_ = index;
    emit selectionChanged();
}

void RunStore::set_focus(Focus focus) {
    if (focus == focus_) return;
    focus_ = focus;
    emit focusChanged();
}

void RunStore::set_hover(Hover hover) {
    if (hover == hover_) return;
    hover_ = hover;
    emit hoverChanged();
}

void RunStore::set_token_range(std::optional<std::pair<double, double>> range) {
    if (range == token_range_) return;
    token_range_ = range;
    emit tokenRangeChanged();
}

void RunStore::reset_links() {
    set_focus({});
    set_hover({});
    set_token_range(std::nullopt);
}

void RunStore::set_metric(Metric metric) {
    if (metric == metric_) return;
    metric_ = metric;
    emit metricChanged();
}

} // namespace octo::ui
