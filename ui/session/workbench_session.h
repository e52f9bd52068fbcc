// The workbench's session as autosave and crash recovery see it (docs/autosave.md): what is
// taken (the model, the prompt and its settings with the switches, the metric, the conversation
// shown) and how it is put back (the prompt as one undoable edit, the model loaded when it is
// another one, the conversation as a new one of given turns, not run until the next turn is sent).
#pragma once

#include <QObject>

#include <chrono>

#include "ui/session/autosave.h"
#include "ui/session/session_state.h"

class QWidget;

namespace octo::ui {

class ConversationStore;
class CrashRecovery;
class ModelController;
class PromptPanel;
class RunStore;
class StatusSink;
class SwitchesPanel;

class WorkbenchSession : public QObject {
    Q_OBJECT
public:
    // `window` parents the recovery dialog and owns this session.
    WorkbenchSession(QWidget& window, StatusSink& status, RunStore& store, PromptPanel& prompt, SwitchesPanel& switches,
                     ModelController& models, ConversationStore& conversations);

    // Starts autosave and, after a crash, offers to restore (once; later calls do nothing).
    void start(std::chrono::milliseconds autosave_interval = Autosave::kDefaultInterval);
    CrashRecovery* recovery() const { return recovery_; }
    SessionState state() const;
    void restore(const SessionState& state);
    void finish(); // the window closes: the autosave is final and the marker goes

private:
    QWidget& window_;
    StatusSink& status_;
    RunStore& store_;
    PromptPanel& prompt_;
    SwitchesPanel& switches_;
    ModelController& models_;
    ConversationStore& conversations_;
    CrashRecovery* recovery_ = nullptr;
};

} // namespace octo::ui
