// The workbench's state that every view observes (RenderDoc-style): the loaded model, the runs
// (history), which run is shown and which token is selected. It applies the engine's event
// batches and emits one signal per kind of change; views read the store when told.
#pragma once

#include <QObject>

#include <deque>
#include <map>
#include <set>
#include <optional>

#include "engine/host/host_events_fwd.h"
#include "ui/session/run_record.h"

namespace octo::ui {

// How the connected server answers (Model → Connect to Server…): what the status line says.
struct ServerState {
    enum class Kind { Connected, Retrying, Unreachable };
    Kind kind = Kind::Connected;
    QString detail; // Retrying: "retry 2 of 4 in 1 s: cannot reach …"; Unreachable: the last error
};

class RunStore : public QObject {
    Q_OBJECT
public:
    static constexpr size_t kMaxRuns = 50; // history kept in memory

    explicit RunStore(QObject* parent = nullptr) : QObject(parent) {}

    void apply(const std::vector<HostEvent>& batch);

    const std::optional<ModelInfo>& model() const { return model_; } // the loaded model
    // While runs go to a server: whether it answers (nullopt with a local model).
    const std::optional<ServerState>& server_state() const { return server_state_; }
    // The loaded model's identity for captures once the engine has hashed it (ModelIdentified),
    // or the error that stopped it; both empty while it is computed.
    const std::optional<ModelDescription>& model_identity() const { return model_identity_; }
    const std::optional<Error>& model_identity_error() const { return model_identity_error_; }
    // The model the shown run was made with (RunRecord::model: as it was then, or a capture's
    // recorded one); the loaded model when no run is shown.
    const std::optional<ModelInfo>& shown_model() const;
    const std::deque<RunRecord>& runs() const { return runs_; }
    const RunRecord* current() const; // the run the views show (null: none)
    const RunRecord* run(uint64_t id) const; // null when unknown or dropped from the history
    int selected_token() const { return selected_; } // index into current()->tokens(), or -1
    // The token every per-token view shows: the selected one, else the shown run's last token
    // (-1: no run or no tokens). Views that say "selected token" all mean this one.
    int focused_token() const;
    // Which metric the views colour by (the run's default until the user picks another).
    Metric metric() const { return metric_; }

    // Whether a submitted run has not settled yet (queued or running): the one source of the
    // workbench's running state. submitted() is told of each run the engine queues.
    bool running() const { return !pending_.empty(); }
    void submitted(uint64_t id);
    // Run `id` (submitted) is part of this set as given: a conversation's turn (ConversationController).
    void set_group(uint64_t id, RunGroup group);
    // Runs `ids` (submitted, in order) form a set of `kind`: each record gets its RunGroup (the
    // set's number counts from 1 per kind); `change` says what B changes in a pair.
    void group_runs(const std::vector<uint64_t>& ids, RunGroup::Kind kind, const QString& change = {});

    // The model run `r` was made with, as the views need it (RunRecord::model); nullopt for a run
    // that failed before it started and was made with no model.
    std::optional<ModelInfo> model_of(const RunRecord& r) const;
    // Whether runs `a` and `b` were made with the same model file (same path, and the same
    // SHA-256 where both are known), so that comparing them means something.
    bool same_model(const RunRecord& a, const RunRecord& b) const;

    // What the router and the advisor concluded, for captures of runs of that very prompt: the
    // router's decision and the text it decided on; the advisor's findings with the editor text
    // they were checked on and the prompt the shown output answered.
    void set_route(const QString& text, const RouteDecision& decision);
    void set_findings(const QString& editor_text, const QString& answered, std::vector<Finding> findings);
    std::optional<RouteDecision> route_for(const QString& prompt) const; // nullopt: not decided on this text
    std::vector<Finding> findings_for(const QString& prompt) const;      // empty unless both texts are `prompt`

    void show_run(uint64_t id);
    // The history's own edits (Run history's context menu): a name for the run (empty: none);
    // pinned runs stay when the history is full; removing forgets a settled run (the shown run is
    // then the newest left). False for an unknown run, or removing one that is still running.
    bool rename_run(uint64_t id, const QString& name);
    bool pin_run(uint64_t id, bool pinned);
    bool remove_run(uint64_t id);
    // Adds a finished run that did not come from the engine (an opened capture), shows it in its
    // default metric;
    // its id, from a range the engine never uses.
    uint64_t add_run(RunRecord record);
    // The note on token `index` of run `run_id`; an empty (blank) text removes it.
    void set_note(uint64_t run_id, int index, const QString& text);
    void select_token(int index);
    void set_metric(Metric metric);

    // Linked views (docs/workbench.md, "Linked views"): beside the selected token, the layer and
    // head, or the layer and expert, picked in any view, and the conversation's turn (-1: none) — layers × heads frames the
    // cell, the logit lens its row, the attention view shows that layer and frames the head, the
    // experts view that layer and expert; what the pointer is over in any view, which the others
    // frame dashed; and the token axis's zoom, shared by the plots over tokens. Each change emits
    // focusChanged, hoverChanged or tokenRangeChanged (only when something changed); loading a
    // model clears the focus (its layers are other layers).
    struct Focus {
        int layer = -1;
        int head = -1;
        int expert = -1;
        int turn = -1; // the message of the shown conversation selected (Conversation panel)
        bool operator==(const Focus&) const = default;
    };
    struct Hover {
        int token = -1;
        int layer = -1;
        int head = -1;
        int expert = -1;
        bool operator==(const Hover&) const = default;
    };
    const Focus& focus() const { return focus_; }
    void set_focus(Focus focus);
    const Hover& hover() const { return hover_; }
    void set_hover(Hover hover);
    const std::optional<std::pair<double, double>>& token_range() const { return token_range_; }
    void set_token_range(std::optional<std::pair<double, double>> range);
    // View → Reset Linked Views: no focus, no hover, every token axis back to its data.
    void reset_links();

    // The logit lens (ui/controllers/lens_controller.h): what was computed is kept in the run's
    // RunRecord::lenses; lens_pending() names the one asked and not answered yet, lens_failure()
    // why the last one asked could not be computed (until the next is asked).
    struct LensAsk {
        uint64_t run = 0;
        int64_t position = 0;
        bool operator==(const LensAsk&) const = default;
    };
    void lens_asked(LensAsk ask);
    // Why the lens of token `token` of `r` (the position before it) cannot be computed now — the
    // view says why, the controller asks for none; nullopt when it can.
    enum class LensBlock { FirstToken, Capture, Server, Running, OtherModel };
    std::optional<LensBlock> lens_block(const RunRecord& r, int token) const;
    const std::optional<LensAsk>& lens_pending() const { return lens_pending_; }
    const std::optional<std::pair<LensAsk, QString>>& lens_failure() const { return lens_failure_; }

signals:
    void modelLoaded();
    void expertMapChanged(); // the model's calibrated expert map was replaced (docs/moe.md)
    void modelIdentified(); // model_identity() or model_identity_error() is set
    void loadStarted(const QString& path, quint64 total_bytes);
    void loadProgress(double fraction);
    void loadFailed(const QString& message, bool cancelled);
    void calibrationProgress(int done, int total);
    void calibrationFinished(const QString& message, bool ok);
    void runChanged();          // another run is shown (or the shown one started)
    void tokensAppended(int first); // tokens [first, end) of the shown run are new or updated
    void runFinished();         // the shown run finished, failed or was cancelled
    void runSettled(quint64 id); // any run finished, failed or was cancelled
    void runDropped(quint64 id); // a queued run never started (a newer run replaced it, a load dropped it)
    void runningChanged(bool running);
    void serverStateChanged(); // server_state() changed
    void historyChanged();
    void selectionChanged();
    void metricChanged();
    void notesChanged(quint64 run_id, int index);
    void lensChanged(); // a lens was asked, computed or refused
    void focusChanged();
    void hoverChanged();
    void tokenRangeChanged();

private:
    // Each event's part of apply(): the record or state it changes, and what to emit after the batch.
    struct BatchEffects;
    void on(const host_event::LoadStarted& e, BatchEffects& fx);
    void on(const host_event::LoadProgress& e, BatchEffects& fx);
    void on(const host_event::ModelLoaded& e, BatchEffects& fx);
    void on(const host_event::ModelIdentified& e, BatchEffects& fx);
    void on(const host_event::ModelIdentityFailed& e, BatchEffects& fx);
    void on(const host_event::LoadFailed& e, BatchEffects& fx);
    void on(const host_event::RunStarted& e, BatchEffects& fx);
    void on(const host_event::PromptMeasured& e, BatchEffects& fx);
    void on(const host_event::Token& e, BatchEffects& fx);
    void on(const host_event::RunFinished& e, BatchEffects& fx);
    void on(const host_event::RunWaiting& e, BatchEffects& fx);
    void on(const host_event::RunDropped& e, BatchEffects& fx);
    void on(const host_event::RunFailed& e, BatchEffects& fx);
    void on(const host_event::CalibrationProgress& e, BatchEffects& fx);
    void on(const host_event::CalibrationDone& e, BatchEffects& fx);
    void on(const host_event::CalibrationFailed& e, BatchEffects& fx);
    void on(const host_event::LensReady& e, BatchEffects& fx);
    void on(const host_event::LensFailed& e, BatchEffects& fx);
    // The claims lab's events are ClaimsStore's, the quantisation report's QuantReportController's
    // (listed, so that a new event type fails to compile until a store takes it).
    void on(const host_event::ClaimStarted&, BatchEffects&) {}
    void on(const host_event::ClaimProgress&, BatchEffects&) {}
    void on(const host_event::ClaimFinished&, BatchEffects&) {}
    void on(const host_event::ClaimsFinished&, BatchEffects&) {}
    void on(const host_event::ClaimsFailed&, BatchEffects&) {}
    void on(const host_event::QuantReportProgress&, BatchEffects&) {}
    void on(const host_event::QuantReportReady&, BatchEffects&) {}
    void on(const host_event::QuantReportFailed&, BatchEffects&) {}

    RunRecord* find(uint64_t id);
    void trim_history(); // the oldest runs that are not pinned go while there are more than kMaxRuns
    std::optional<RunGroup> take_group(uint64_t id); // the group of a run whose record is made now

    std::optional<ModelInfo> model_;
    std::optional<ServerState> server_state_;
    void set_server_state(ServerState::Kind kind, const QString& detail = {});
    void end_retrying(); // the server answered (or failed otherwise than unreachable): Connected again
    std::set<uint64_t> pending_; // submitted runs not settled or dropped yet
    std::map<uint64_t, RunGroup> groups_; // grouped runs whose record does not exist yet
    std::map<RunGroup::Kind, uint64_t> group_count_; // the last number of each kind
    QString routed_text_;
    std::optional<RouteDecision> route_;
    QString findings_editor_text_, findings_answered_;
    std::vector<Finding> findings_;
    std::optional<ModelDescription> model_identity_;
    std::optional<Error> model_identity_error_;
    std::deque<RunRecord> runs_;
    uint64_t shown_ = 0;
    int selected_ = -1;
    Focus focus_;
    Hover hover_;
    std::optional<std::pair<double, double>> token_range_;
    std::optional<LensAsk> lens_pending_;
    std::optional<std::pair<LensAsk, QString>> lens_failure_;
    uint64_t next_added_ = uint64_t{1} << 48; // ids of added runs (the engine counts from 1)
    Metric metric_ = Metric::NormShare;
};

} // namespace octo::ui
