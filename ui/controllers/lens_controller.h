// Computes the logit lens the LogitLensView shows (ui/views/logit_lens_view.h), on demand: when
// the view is visible and the selected token of the shown run has no lens of the view's size yet,
// the engine evaluates the run again up to that token (EngineHost::logit_lens, reusing the KV
// pool's blocks) and the result is kept with the run (RunRecord::lenses). A newer ask replaces one
// still queued. Runs of a server, captures and runs of another model than the loaded one are not
// asked for (the view says why).
#pragma once

#include <QObject>

namespace octo::ui {

class EngineBridge;
class LogitLensView;
class RunStore;

class LensController : public QObject {
    Q_OBJECT
public:
    LensController(RunStore& store, EngineBridge& bridge, LogitLensView& view, QObject* parent = nullptr);

    // Asks for the selected token's lens when the view needs it; true when one was asked.
    bool askIfNeeded();

private:
    RunStore& store_;
    EngineBridge& bridge_;
    LogitLensView& view_;
};

} // namespace octo::ui
