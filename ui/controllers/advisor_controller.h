// Runs what the advisor asks for and shows the results: "Apply & compare" and "A/B compare with
// the shown run" run two variants with the same seed and fill the compare view; the consistency
// run samples the prompt K times with different seeds and reports to the advisor panel.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

#include "engine/generation/run_spec.h"

namespace octo::ui {

class AdvisorPanel;
class CompareView;
class RunBatch;
class RunStore;
class EngineBridge;

// What differs between two runs' settings, in words ("prompt edited", "rte-c disabled", …).
QString settings_change(const RunSpec& a, const RunSpec& b);

class AdvisorController : public QObject {
    Q_OBJECT
public:
    // `current_settings` gives the editor's prompt and settings with the switches applied;
    // `show_compare` brings the compare view forward.
    AdvisorController(RunStore& store, EngineBridge& bridge, AdvisorPanel* advisor, CompareView* compare,
                      std::function<RunSpec()> current_settings, std::function<void()> show_compare,
                      QObject* parent = nullptr);

    // A = `a`, B = `b` (same seed unless the settings say otherwise); `change` describes B in
    // the UI's language (called again when the language changes).
    void compare(const RunSpec& a, const RunSpec& b, std::function<QString()> change);
    // A = the shown run's settings, B = the editor's settings with the current switches.
    void compareWithShown();
    // Shows two runs of the history side by side (no run is started): A = `a`, B = `b`, the
    // change their settings' difference. False (nothing shown) when either is unknown or still
    // running, or when a run has no model (a run that failed before it started); runs of two
    // models are compared aligned by token text (CompareView::showRuns).
    bool compareRuns(quint64 a, quint64 b);
    void runConsistency(int runs);
    // Another run was submitted: pending comparisons and samples are no longer awaited.
    void abandon();
    // Temperature of the consistency run's samples: the editor's, or this when it is 0 (greedy).
    static constexpr float kConsistencyTemperature = 0.8f;

signals:
    void compared();          // the compare view shows a new comparison
    void consistencyReported();

private:
    void showComparison(const std::vector<quint64>& ids);
    void reportConsistency(const std::vector<quint64>& ids);
    void showRuns(bool first_time); // the compared pair in the compare view
    void followShownRun(); // the advisor's verdict only beside a run of the pair it judges

    RunStore& store_;
    AdvisorPanel* advisor_;
    CompareView* compare_;
    std::function<RunSpec()> current_settings_;
    std::function<void()> show_compare_;
    RunBatch* pair_;
    RunBatch* samples_;
    std::function<QString()> change_;
    std::vector<quint64> compared_; // the pair the compare view shows
    std::function<QString()> compared_change_; // and what B changed
    bool verdict_in_compare_ = false; // the compare view shows the advisor's verdict of that pair
    bool rewrite_pair_ = false; // the pair being run is "Apply & compare": the advisor judges it
    std::vector<quint64> verdict_runs_; // the pair the advisor's verdict (or its note) is about
    float sample_temperature_ = kConsistencyTemperature;
};

} // namespace octo::ui
