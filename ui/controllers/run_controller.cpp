#include "ui/controllers/run_controller.h"

#include <QPlainTextEdit>
#include <QTextCursor>

#include "ui/controllers/advisor_controller.h"
#include "ui/controllers/engine_bridge.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/switches_panel.h"
#include "ui/session/run_store.h"

namespace octo::ui {

RunController::RunController(RunStore& store, EngineBridge& bridge, PromptPanel& prompt, SwitchesPanel& switches,
                             AdvisorController& advisor, QObject* parent)
    : QObject(parent), store_(store), bridge_(bridge), prompt_(prompt), switches_(switches), advisor_(advisor) {}

RunSpec RunController::editorSpec() const {
    RunSpec s = prompt_.spec();
    switches_.apply(s);
    return s;
}

void RunController::submit(const RunSpec& spec) {
    advisor_.abandon();
    last_ = spec;
    bridge_.run(spec);
}

void RunController::runPrompt() { submit(editorSpec()); }

void RunController::rerun() {
    const RunRecord* r = store_.current();
    RunSpec s = r ? r->trace.spec : prompt_.spec();
    switches_.apply(s);
    submit(s);
}

void RunController::cancel() { bridge_.cancel(); }

void RunController::showSpec(const RunSpec& spec) {
    prompt_.restore(spec);
    switches_.restore(spec);
}

void RunController::usePrompt(const QString& text, bool run) {
    QTextCursor all(prompt_.editor()->document());
    all.beginEditBlock();
    all.select(QTextCursor::Document);
    all.insertText(text);
    all.endEditBlock();
    if (run) runPrompt();
}

void RunController::compareWithShown() {
    last_ = editorSpec();
    advisor_.compareWithShown();
}

} // namespace octo::ui
