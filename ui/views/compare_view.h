// A/B comparison of two runs side by side (docs/advisor.md): both answers with the first
// divergent token marked, per-token log-prob deltas, and the differences of their subsystem
// shares and layer × head norms — and a sentence that states what changed in measured terms.
#pragma once

#include <QWidget>

#include <optional>

#include "engine/advisor/run_comparison.h"
#include "ui/session/run_record.h"

class QCPColorMap;
class QLabel;
class QTextBrowser;

namespace octo::ui {

class Plot;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    // Shows runs `a` and `b`; `metric` picks the subsystem shares, `change` says what the user
    // changed (e.g. the rule applied); model_a's n_layer × n_head shape the head-norm difference.
    // `model_b` is set when B was made with another model file than A (a quantisation against
    // another, RunStore::same_model): the runs are then aligned by token text, and their head
    // norms compared only when both models have the same shape.
    // Any verdict shown before is cleared.
    void showRuns(const RunRecord& a, const RunRecord& b, Metric metric, const QString& change, const ModelInfo& model_a,
                  const std::optional<ModelInfo>& model_b = std::nullopt);
    // The advisor's verdict on the comparison shown (rich text, AdvisorPanel::rewriteVerdictHtml
    // for an "Apply & compare" pair); empty hides the line.
    void setVerdict(const QString& html);
    QString verdict() const; // empty when none is shown

    const std::optional<RunComparison>& comparison() const { return comparison_; }
    // Whether the comparison shown includes the run with this id (a bug report about one run
    // leaves out a comparison of others).
    bool involves(uint64_t run_id) const { return comparison_ && (run_a_ == run_id || run_b_ == run_id); }
    QString summary() const;
    QTextBrowser* sideA() const { return side_a_; }
    QTextBrowser* sideB() const { return side_b_; }

private:
    void plotLogprobs(const RunComparison& c);
    void plotShares(const RunComparison& c);
    void plotHeads(const RunComparison& c, int n_layer, int n_head);

    QLabel* summary_;
    QLabel* verdict_;
    QTextBrowser* side_a_;
    QTextBrowser* side_b_;
    Plot* logprobs_;
    Plot* shares_;
    Plot* heads_;
    QCPColorMap* head_map_;
    std::optional<RunComparison> comparison_;
    std::optional<ModelInfo> model_; // of the compared runs: the group labels
    uint64_t run_a_ = 0, run_b_ = 0;
};

// What one run generated, as the comparison takes it; with `by_text`, each token's id replaced by
// the number of its text (runs of two vocabularies aligned by what their tokens say).
// n_layer > 0: the routing of a mixture of experts is kept (ComparedRun::experts).
ComparedRun compared_run(const RunRecord& run, Metric metric, TokenTextIds* by_text = nullptr, int64_t n_layer = 0);

} // namespace octo::ui
