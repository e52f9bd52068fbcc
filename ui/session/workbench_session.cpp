#include "ui/session/workbench_session.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileInfo>
#include <QPlainTextEdit>
#include <QTextCursor>

#include "ui/controllers/model_controller.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/switches_panel.h"
#include "ui/session/conversation_store.h"
#include "ui/session/crash_recovery.h"
#include "ui/session/run_store.h"
#include "ui/support/window_services.h"

namespace octo::ui {

WorkbenchSession::WorkbenchSession(QWidget& window, StatusSink& status, RunStore& store, PromptPanel& prompt, SwitchesPanel& switches,
                                   ModelController& models, ConversationStore& conversations)
    : QObject(&window), window_(window), status_(status), store_(store), prompt_(prompt), switches_(switches), models_(models),
      conversations_(conversations) {}

void WorkbenchSession::start(std::chrono::milliseconds autosave_interval) {
    if (recovery_) return;
    recovery_ = new CrashRecovery(
        &window_, [this] { return state(); }, [this](const SessionState& s) { restore(s); }, this);
    connect(recovery_, &CrashRecovery::message, this, [this](const QString& m) { status_.showMessage(m, 20000); });
    connect(qApp, &QCoreApplication::aboutToQuit, recovery_, &CrashRecovery::finish); // quit without closing the window
    recovery_->start(autosave_interval);
}

void WorkbenchSession::finish() {
    if (recovery_) recovery_->finish();
}

SessionState WorkbenchSession::state() const {
    SessionState s;
    s.model_path = store_.model() ? QString::fromStdString(store_.model()->path) : models_.loadingPath();
    s.spec = prompt_.spec();
    switches_.apply(s.spec);
    s.metric = store_.metric();
    if (const ConversationRecord* c = conversations_.current()) {
        for (const ChatTurnRecord& t : c->turns) {
            if (!t.pending) s.conversation.push_back(t.message);
        }
    }
    return s;
}

void WorkbenchSession::restore(const SessionState& s) {
    QPlainTextEdit* editor = prompt_.editor();
    RunSpec spec = s.spec;
    spec.prompt = editor->toPlainText().toStdString(); // the text goes back below, undoably
    prompt_.restore(spec);
    switches_.restore(spec);
    QTextCursor all(editor->document());
    all.beginEditBlock();
    all.select(QTextCursor::Document);
    all.insertText(QString::fromStdString(s.spec.prompt));
    all.endEditBlock();
    if (const int i = switches_.metricBox()->findData(static_cast<int>(s.metric)); i >= 0) {
        switches_.metricBox()->setCurrentIndex(i);
    } else {
        store_.set_metric(s.metric); // the box offers it once a model that has it is loaded
    }
    const QString current = store_.model() ? QString::fromStdString(store_.model()->path) : models_.loadingPath();
    if (!s.conversation.empty()) conversations_.create(s.conversation);
    if (!s.model_path.isEmpty() && s.model_path != current && QFileInfo::exists(s.model_path)) models_.open(s.model_path);
}

} // namespace octo::ui
