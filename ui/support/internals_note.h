// The one sentence the views that need the model's internals (layers × heads, tokens × subsystems,
// attention, experts, KV pool) show instead of their plot when the run came from a server that
// gives outputs only — never an empty plot that reads as measured zeros (docs/server.md).
#pragma once

#include <QLabel>
#include <QString>

namespace octo::ui {

struct RunRecord;

// The sentence for `run`, or "" when it has the model's internals (a local run, or one on an
// Octoscope server).
QString internals_missing_text(const RunRecord* run);

// A label laid over `view` (its child, filling it) while the current run has no internals.
class InternalsNote : public QLabel {
    Q_OBJECT
public:
    explicit InternalsNote(QWidget* view);
    // Shows the sentence over the view for a run without internals, hides it otherwise.
    void showFor(const RunRecord* run);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace octo::ui
