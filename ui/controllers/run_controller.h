// Runs in the workbench: Run Prompt, Rerun with Switches, Cancel and A/B compare with the shown
// run, from the prompt editor's spec and the subsystem switches. Whether something is running is
// not kept here: RunStore::running() derives it from the runs the engine queued and settled.
#pragma once

#include <QObject>

#include "engine/generation/run_spec.h"

namespace octo::ui {

class AdvisorController;
class EngineBridge;
class PromptPanel;
class RunStore;
class SwitchesPanel;

class RunController : public QObject {
    Q_OBJECT
public:
    RunController(RunStore& store, EngineBridge& bridge, PromptPanel& prompt, SwitchesPanel& switches,
                  AdvisorController& advisor, QObject* parent = nullptr);

    void runPrompt(); // the editor's prompt and settings with the current switches
    void rerun();     // the shown run's spec (prompt, seed, …) with the current switches
    void cancel();    // stops what the engine is doing now
    void submit(const RunSpec& spec); // exactly this spec (switches included)
    void compareWithShown(); // A = the shown run, B = the editor's spec with the switches
    // Puts `spec` in the editor and the switches (a run from the history, an opened capture, the
    // command line), so Run Prompt repeats it.
    void showSpec(const RunSpec& spec);
    // Replaces the editor's prompt with `text` as one undoable edit, keeping the other settings;
    // `run`: then runs it (Help → Examples…).
    void usePrompt(const QString& text, bool run);
    // The editor's spec with the current switches (what Run Prompt would submit).
    RunSpec editorSpec() const;
    // The last spec submitted from here (what the run history records).
    const RunSpec& lastSubmitted() const { return last_; }

private:
    RunStore& store_;
    EngineBridge& bridge_;
    PromptPanel& prompt_;
    SwitchesPanel& switches_;
    AdvisorController& advisor_;
    RunSpec last_;
};

} // namespace octo::ui
