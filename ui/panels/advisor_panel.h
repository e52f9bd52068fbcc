// The advisor (docs/advisor.md): findings of the rule file's prompt detectors while the user
// types, and of its output checks after each run, each with its subsystem colour and source
// (the article's heuristic or the project's own), its evidence underlined in the prompt editor
// or in the output shown here, "Apply" (an undoable edit of the prompt) and "Apply & compare"
// with its verdict (did the rewrite make the answer better or worse, and why); and the
// consistency run's report.
#pragma once

#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "engine/advisor/advisor_rules.h"
#include "engine/advisor/output_checks.h"
#include "engine/advisor/consistency.h"
#include "engine/advisor/rewrite_verdict.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace octo::ui {

class AdvisorPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 200;

    AdvisorPanel(QPlainTextEdit* editor, QWidget* parent = nullptr);

    // How a finding names its subsystem: by default rte-a … rte-h with the subsystem's name as
    // tooltip; for a model whose heads have no map's meaning, "group 0 … 7" (subsystem_palette.h).
    void setGroupLabels(std::function<QString(int group)> short_label, std::function<QString(int group)> long_label);

    // Loads resources/rules/advisor_rules.json; on failure the panel shows why and stays empty.
    bool load(const QString& resource_dir);
    // A run finished: check its output against the prompt it answered.
    // `constrained`: the run's tokens when it was constrained (the constraint_bent check).
    void setOutput(const QString& prompt, const QString& output, const std::vector<octo::ConstrainedToken>& constrained = {});
    // The last run left no output to check (cancelled or failed): the previous run's output and
    // its findings are cleared and the output box says why.
    void clearOutput(std::function<QString()> why); // in the UI's language, also after a switch
    // Shows recorded findings (an opened capture) for this prompt and output instead of checking again.
    void showFindings(const std::vector<Finding>& findings, const QString& prompt, const QString& output);
    QString outputPrompt() const { return output_prompt_; } // the prompt the shown output answered
    void showConsistency(const ConsistencyReport& report, double temperature);
    // "Apply & compare" finished: A answered `prompt_a` with `answer_a`, B the rewritten prompt
    // `prompt_b` with `answer_b`. Shows whether the rewrite made the answer better, worse (in red,
    // with the reasons) or changed nothing (engine/advisor/rewrite_verdict.h).
    void showRewriteVerdict(const QString& prompt_a, const QString& answer_a, const QString& prompt_b, const QString& answer_b);
    // The runs of "Apply & compare" did not both finish: no verdict; `why` says so in the UI's
    // language (called again when the language changes).
    void clearRewriteVerdict(std::function<QString()> why);
    // The verdict (or its note) is about the runs of one Apply & compare: shown only while one of
    // them is the shown run, hidden otherwise (setRewriteVerdictShown), and forgotten when the
    // model changes (dropRewriteVerdict).
    void setRewriteVerdictShown(bool shown);
    void dropRewriteVerdict();
    const std::optional<RewriteVerdict>& rewriteVerdict() const { return verdict_; }
    // The verdict as the panel shows it (rich text, "B's answer is worse: …" in red); empty
    // without one. The A/B compare dock shows this very text.
    QString rewriteVerdictHtml() const;
    QLabel* verdictLabel() const { return verdict_label_; }
    // A rule's title in the UI's language ("Vague time words (fact drift)"), never its id; the id
    // only when no loaded rule has it.
    QString ruleTitle(const QString& rule_id) const;

    // A section above the panel's own (the conversation's coherence findings: CoherenceBox).
    void addSection(QWidget* section);

    // Prompt findings first, then output findings (the list's order).
    const std::vector<Finding>& findings() const { return findings_; }
    QTreeWidget* list() const { return list_; }
    QPlainTextEdit* outputView() const { return output_; }
    QLabel* consistencyLabel() const { return consistency_; }
    // Applies finding `index`'s rewrite to the editor as one undoable edit; the prompt before
    // the edit, or nothing when the finding has no rewrite or no longer applies.
    std::optional<QString> apply(int index);

signals:
    // The findings changed, with what they are about: `editor_text` is the prompt they were
    // checked on, `answered` the prompt the shown output answered (output findings are about it).
    void findingsFor(const QString& editor_text, const QString& answered, const std::vector<octo::Finding>& findings);
    // "Apply & compare": run `before` and `after` with the same settings and seed.
    void compareRequested(const QString& before, const QString& after, const QString& rule); // rule: its id
    // "Compare with constrained run" on a JSON rewrite: A = `rewritten` (the rewrite, free text),
    // B = `prompt` as it is, its output constrained to `schema` (JSON Schema text).
    void constrainedCompareRequested(const QString& prompt, const QString& rewritten, const QString& schema);
    void consistencyRequested(int runs);
    void findingsChanged();

private:
    static QString outputPlaceholder(); // the output box's hint while no run has answered
    void checkPrompt();
    void rebuild();
    void showList();
    void retranslate();
    void underline();
    void showDetails();
    bool chinese() const;

    QPlainTextEdit* editor_;
    QLabel* status_;
    QTreeWidget* list_;
    QLabel* details_;
    QPushButton* apply_;
    QPushButton* apply_compare_;
    QPushButton* constrained_compare_;
    QPlainTextEdit* output_;
    QSpinBox* runs_;
    QPushButton* consistency_run_;
    QLabel* consistency_;
    QLabel* verdict_label_;
    std::optional<RewriteVerdict> verdict_;
    std::function<QString(int)> group_short_, group_long_; // null: rte-a … with the subsystem's name
    std::function<QString()> output_hint_; // why the output box is empty (null: no run answered yet)
    std::function<QString()> verdict_text_; // the verdict label's text in the UI's language
    std::optional<std::pair<ConsistencyReport, double>> consistency_report_; // the shown report and its temperature
    QString load_error_; // why the rules did not load
    QTimer debounce_;
    std::optional<AdvisorRules> rules_;
    std::vector<Finding> prompt_findings_;
    std::vector<Finding> output_findings_;
    std::vector<Finding> findings_;
    QString output_prompt_; // the prompt the shown output answered
};

} // namespace octo::ui
