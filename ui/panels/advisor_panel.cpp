#include "ui/panels/advisor_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTextCursor>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/advisor/apply_rewrite.h"
#include "engine/advisor/output_checks.h"
#include "engine/advisor/prompt_detectors.h"
#include "ui/support/editor_highlights.h"
#include "ui/support/subsystem_palette.h"
#include "ui/support/language.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

QTextCharFormat underline_format(int subsystem) {
    QTextCharFormat format;
    format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    format.setUnderlineColor(subsystem_color(subsystem));
    QColor background = subsystem_color(subsystem);
    background.setAlpha(40);
    format.setBackground(background);
    return format;
}

QIcon swatch(const QColor& color) {
    QPixmap pixmap(12, 12);
    pixmap.fill(color);
    return QIcon(pixmap);
}

} // namespace

AdvisorPanel::AdvisorPanel(QPlainTextEdit* editor, QWidget* parent) : QWidget(parent), editor_(editor) {
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    list_ = new QTreeWidget(this);
    list_->setObjectName(QStringLiteral("advisorFindings"));
    list_->setColumnCount(5);
    list_->setRootIsDecorated(false);
    list_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    list_->header()->setStretchLastSection(false);
    list_->header()->setSectionResizeMode(3, QHeaderView::Stretch);
    details_ = new QLabel(this);
    details_->setObjectName(QStringLiteral("advisorDetails"));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    apply_ = new QPushButton(this);
    apply_->setObjectName(QStringLiteral("advisorApply"));
    apply_compare_ = new QPushButton(this);
    apply_compare_->setObjectName(QStringLiteral("advisorApplyCompare"));
    constrained_compare_ = new QPushButton(this);
    constrained_compare_->setObjectName(QStringLiteral("advisorConstrainedCompare"));
    output_ = new QPlainTextEdit(this);
    output_->setObjectName(QStringLiteral("advisorOutput"));
    output_->setReadOnly(true);
    output_->setMaximumHeight(90);
    runs_ = new QSpinBox(this);
    runs_->setObjectName(QStringLiteral("consistencyRuns"));
    runs_->setRange(2, 20);
    runs_->setValue(5);
    consistency_run_ = new QPushButton(this);
    consistency_run_->setObjectName(QStringLiteral("consistencyRun"));
    consistency_ = new QLabel(this);
    consistency_->setObjectName(QStringLiteral("consistencyReport"));
    consistency_->setWordWrap(true);
    consistency_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    verdict_label_ = new QLabel(this);
    verdict_label_->setObjectName(QStringLiteral("rewriteVerdict"));
    verdict_label_->setWordWrap(true);
    verdict_label_->setTextFormat(Qt::RichText);
    verdict_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    verdict_label_->hide(); // until an Apply & compare

    auto* buttons = new QHBoxLayout; // the finding's remedies
    buttons->addWidget(apply_);
    buttons->addWidget(apply_compare_);
    buttons->addWidget(constrained_compare_);
    buttons->addStretch(1);
    auto* consistency_row = new QHBoxLayout; // the prompt's consistency check
    consistency_row->addStretch(1);
    consistency_row->addWidget(runs_);
    consistency_row->addWidget(consistency_run_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(status_);
    layout->addWidget(list_, 2);
    layout->addWidget(details_);
    layout->addLayout(buttons);
    layout->addLayout(consistency_row);
    layout->addWidget(verdict_label_);
    layout->addWidget(output_, 1);
    layout->addWidget(consistency_);

    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &AdvisorPanel::checkPrompt);
    connect(editor_, &QPlainTextEdit::textChanged, &debounce_, qOverload<>(&QTimer::start));
    connect(list_, &QTreeWidget::currentItemChanged, this, &AdvisorPanel::showDetails);
    connect(apply_, &QPushButton::clicked, this, [this] { apply(list_->currentIndex().row()); });
    connect(apply_compare_, &QPushButton::clicked, this, [this] {
        const int row = list_->currentIndex().row();
        if (row < 0 || row >= static_cast<int>(findings_.size())) return;
        const QString rule = text(findings_[static_cast<size_t>(row)].rule);
        if (auto before = apply(row)) {
            verdict_.reset();
            verdict_text_ = [] { return tr("Apply & compare: running the old prompt (A) and the rewritten one (B)…").toHtmlEscaped(); };
            verdict_label_->setText(verdict_text_());
            verdict_label_->show();
            emit compareRequested(*before, editor_->toPlainText(), rule);
        }
    });
    connect(constrained_compare_, &QPushButton::clicked, this, [this] {
        const int row = list_->currentIndex().row();
        if (!rules_ || row < 0 || row >= static_cast<int>(findings_.size())) return;
        const Finding& f = findings_[static_cast<size_t>(row)];
        const QString base = f.place == FindingPlace::Output && !output_prompt_.isEmpty() ? output_prompt_ : editor_->toPlainText();
        auto rewritten = apply_rewrite(*rules_, f, base.toStdString());
        if (!rewritten) {
            status_->setText(tr("Cannot apply: %1").arg(text(rewritten.error().message)));
            return;
        }
        emit constrainedCompareRequested(base, text(rewritten.value()), text(json_schema_of_fields(fields_named_in(base.toStdString()))));
    });
    connect(consistency_run_, &QPushButton::clicked, this, [this] { emit consistencyRequested(runs_->value()); });
    on_language_change(this, [this] { retranslate(); });
}

// The panel's own texts, and the findings, verdict and consistency report in the UI's language.
void AdvisorPanel::retranslate() {
    list_->setHeaderLabels({tr("subsystem"), tr("finding"), tr("in"), tr("evidence"), tr("source")});
    apply_->setText(tr("&Apply"));
    apply_->setToolTip(tr("Rewrite the prompt as suggested (Ctrl+Z undoes it)"));
    apply_compare_->setText(tr("Apply && com&pare"));
    apply_compare_->setToolTip(tr("Rewrite the prompt, run the old and the new prompt with the same seed and compare them"));
    constrained_compare_->setText(tr("Constrained A/&B"));
    constrained_compare_->setToolTip(tr("A: the rewritten prompt, free text. B: the prompt as it is, its output constrained to the "
                                        "schema of the fields it asks for. Same seed; the token stream marks where B was bent"));
    output_->setPlaceholderText(output_hint_ ? output_hint_() : outputPlaceholder());
    runs_->setPrefix(tr("K = "));
    consistency_run_->setText(tr("Consistency r&un"));
    consistency_run_->setToolTip(tr("Run the prompt K times with sampling and different seeds (troubleshooting quick checks)"));
    if (!rules_ && load_error_.isEmpty()) status_->setText(tr("Advisor: no rules loaded"));
    if (!load_error_.isEmpty()) status_->setText(tr("Advisor unavailable: %1").arg(load_error_));
    const int row = list_->currentIndex().row();
    showList();
    if (row >= 0 && row < list_->topLevelItemCount()) list_->setCurrentItem(list_->topLevelItem(row));
    showDetails();
    if (verdict_text_) verdict_label_->setText(verdict_text_());
    if (consistency_report_) showConsistency(consistency_report_->first, consistency_report_->second);
}

void AdvisorPanel::addSection(QWidget* section) {
    section->setParent(this);
    static_cast<QVBoxLayout*>(layout())->insertWidget(0, section, 1);
}

bool AdvisorPanel::chinese() const { return installed_language() == QLatin1String("zh_CN"); } // the UI's language, not the system's

bool AdvisorPanel::load(const QString& resource_dir) {
    auto rules = AdvisorRules::load_default(resource_dir.toStdString());
    if (!rules) {
        rules_.reset();
        load_error_ = text(rules.error().message);
        status_->setText(tr("Advisor unavailable: %1").arg(load_error_));
        rebuild();
        return false;
    }
    load_error_.clear();
    rules_ = std::move(rules.value());
    checkPrompt();
    return true;
}

void AdvisorPanel::checkPrompt() {
    prompt_findings_.clear();
    if (rules_) prompt_findings_ = check_prompt(*rules_, editor_->toPlainText().toStdString());
    // The output's findings were about the prompt it answered; they stay until the next run.
    rebuild();
}

QString AdvisorPanel::outputPlaceholder() { return tr("The last run's output, with the output checks' findings underlined"); }

void AdvisorPanel::setGroupLabels(std::function<QString(int)> short_label, std::function<QString(int)> long_label) {
    group_short_ = std::move(short_label);
    group_long_ = std::move(long_label);
    rebuild();
}

void AdvisorPanel::clearOutput(std::function<QString()> why) {
    output_prompt_.clear();
    output_->clear();
    output_hint_ = std::move(why);
    output_->setPlaceholderText(output_hint_());
    output_findings_.clear();
    rebuild();
}

void AdvisorPanel::setOutput(const QString& prompt, const QString& output, const std::vector<ConstrainedToken>& constrained) {
    output_hint_ = nullptr;
    output_->setPlaceholderText(outputPlaceholder());
    output_prompt_ = prompt;
    output_->setPlainText(output);
    output_findings_.clear();
    if (rules_) output_findings_ = check_output(*rules_, prompt.toStdString(), output.toStdString(), constrained);
    rebuild();
}

void AdvisorPanel::showFindings(const std::vector<Finding>& findings, const QString& prompt, const QString& output) {
    debounce_.stop();
    output_prompt_ = prompt;
    output_->setPlainText(output);
    prompt_findings_.clear();
    output_findings_.clear();
    for (const Finding& f : findings) (f.place == FindingPlace::Prompt ? prompt_findings_ : output_findings_).push_back(f);
    rebuild();
}

void AdvisorPanel::rebuild() {
    findings_ = prompt_findings_;
    findings_.insert(findings_.end(), output_findings_.begin(), output_findings_.end());
    showList();
    if (!findings_.empty()) list_->setCurrentItem(list_->topLevelItem(0));
    underline();
    showDetails();
    emit findingsChanged();
    emit findingsFor(editor_->toPlainText(), output_prompt_, findings_);
}

// The findings' rows and the count above them, in the UI's language.
void AdvisorPanel::showList() {
    QSignalBlocker block(list_);
    list_->clear();
    for (const Finding& f : findings_) {
        const AdvisorRule* rule = rules_ ? rules_->find(f.rule) : nullptr;
        auto* item = new QTreeWidgetItem(list_);
        item->setIcon(0, swatch(subsystem_color(f.subsystem)));
        item->setText(0, group_short_ ? group_short_(f.subsystem) : subsystem_id(f.subsystem));
        item->setToolTip(0, group_long_ ? group_long_(f.subsystem) : subsystem_name(f.subsystem));
        item->setText(1, rule ? text(rule->title.in(chinese())) : text(f.rule));
        item->setText(2, f.place == FindingPlace::Prompt ? tr("prompt") : tr("output"));
        item->setText(3, text(f.evidence).simplified());
        item->setText(4, f.source == RuleSource::Article ? tr("article heuristic") : tr("project rule"));
    }
    if (rules_) {
        status_->setText(findings_.empty() ? tr("No findings: no detector matches this prompt.")
                                           : (findings_.size() == 1 ? tr("1 finding") : tr("%1 findings").arg(findings_.size())));
    }
}

void AdvisorPanel::underline() {
    const QByteArray prompt = editor_->toPlainText().toUtf8();
    EditorHighlights* in_prompt = EditorHighlights::of(editor_);
    QList<QTextEdit::ExtraSelection> prompt_spans;
    for (const Finding& f : prompt_findings_) prompt_spans << in_prompt->span(prompt, f.start, f.end, underline_format(f.subsystem));
    in_prompt->setLayer(QStringLiteral("advisor"), prompt_spans);

    const QByteArray output = output_->toPlainText().toUtf8();
    EditorHighlights* in_output = EditorHighlights::of(output_);
    QList<QTextEdit::ExtraSelection> output_spans;
    for (const Finding& f : output_findings_) output_spans << in_output->span(output, f.start, f.end, underline_format(f.subsystem));
    in_output->setLayer(QStringLiteral("advisor"), output_spans);
}

void AdvisorPanel::showDetails() {
    const int row = list_->currentIndex().row();
    const bool valid = rules_ && row >= 0 && row < static_cast<int>(findings_.size());
    const AdvisorRule* rule = valid ? rules_->find(findings_[static_cast<size_t>(row)].rule) : nullptr;
    apply_->setEnabled(rule && rule->rewrite);
    apply_compare_->setEnabled(rule && rule->rewrite);
    constrained_compare_->setEnabled(rule && rule->rewrite && rule->rewrite->action == RewriteAction::AppendJsonSchema);
    if (!rule) {
        details_->clear();
        return;
    }
    const Finding& f = findings_[static_cast<size_t>(row)];
    QString html = QStringLiteral("<b>%1</b> — %2<br>%3<br><i>%4</i>")
                       .arg((group_short_ ? group_short_(f.subsystem) : subsystem_id(f.subsystem)).toHtmlEscaped(), text(rule->title.in(chinese())).toHtmlEscaped(),
                            text(rule->explanation.in(chinese())).toHtmlEscaped(),
                            text(rule->suggestion.in(chinese())).toHtmlEscaped());
    const std::string& detail = f.detail.in(chinese()).empty() ? f.detail.en : f.detail.in(chinese()); // older captures: English only
    if (!detail.empty()) html += QStringLiteral("<br><tt>%1</tt>").arg(text(detail).toHtmlEscaped());
    // What Apply writes into this prompt, with its own field names (in the prompt's language).
    if (rule->rewrite) {
        const QString base = f.place == FindingPlace::Output && !output_prompt_.isEmpty() ? output_prompt_ : editor_->toPlainText();
        if (auto inserted = rewrite_text(*rules_, f, base.toStdString())) {
            const QString added = text(inserted.value()).toHtmlEscaped();
            html += QStringLiteral("<br>") +
                    (rule->rewrite->action == RewriteAction::ReplaceSpan
                         ? tr("Apply replaces “%1” with “%2”.").arg(text(f.evidence).toHtmlEscaped(), added)
                     : rule->rewrite->action == RewriteAction::Prepend ? tr("Apply puts in front: <tt>%1</tt>").arg(added)
                                                                       : tr("Apply adds: <tt>%1</tt>").arg(added));
        }
    }
    details_->setText(html);
}

std::optional<QString> AdvisorPanel::apply(int index) {
    if (!rules_ || index < 0 || index >= static_cast<int>(findings_.size())) return std::nullopt;
    const QString before = editor_->toPlainText();
    const Finding& f = findings_[static_cast<size_t>(index)];
    // An output finding's rewrite edits the prompt that output answered.
    const QString base = f.place == FindingPlace::Output && !output_prompt_.isEmpty() ? output_prompt_ : before;
    auto after = apply_rewrite(*rules_, f, base.toStdString());
    if (!after) {
        status_->setText(tr("Cannot apply: %1").arg(text(after.error().message)));
        return std::nullopt;
    }
    QTextCursor cursor(editor_->document());
    cursor.beginEditBlock();
    cursor.select(QTextCursor::Document);
    cursor.insertText(text(after.value()));
    cursor.endEditBlock();
    return base;
}

void AdvisorPanel::showConsistency(const ConsistencyReport& r, double temperature) {
    consistency_report_ = std::make_pair(r, temperature);
    QStringList lines;
    lines << tr("<b>Consistency run</b>: %1 samples at temperature %2, different seeds.").arg(r.runs).arg(temperature);
    const auto [lo, hi] = std::minmax_element(r.lengths.begin(), r.lengths.end());
    lines << tr("Output length %1–%2 tokens, spread %3% of the mean (%4).")
                 .arg(r.lengths.empty() ? 0 : *lo)
                 .arg(r.lengths.empty() ? 0 : *hi)
                 .arg(r.length_spread * 100.0, 0, 'f', 1)
                 .arg(r.format_unstable ? tr("<b>above 15%: format instability, rte-g</b>") : tr("within 15%"));
    if (r.numeric_spread) {
        lines << tr("Numeric answers: %1 distinct, spread %2.").arg(r.distinct_numeric_answers).arg(*r.numeric_spread);
    } else {
        lines << tr("No numeric answers.");
    }
    if (r.numeric_tokens > 0) {
        lines << tr("Std of the numeric tokens' log-probs: %1 over %2 tokens (%3).")
                     .arg(r.numeric_logprob_std, 0, 'f', 2)
                     .arg(r.numeric_tokens)
                     .arg(r.sampling_noise ? tr("<b>above 0.8: sampling noise on rte-c</b>") : tr("at most 0.8"));
    }
    QStringList tops;
    for (const auto& shares : r.shares) {
        if (!shares) continue;
        const auto top = std::max_element(shares->begin(), shares->end()) - shares->begin();
        tops << QStringLiteral("%1 %2%").arg(group_short_ ? group_short_(static_cast<int>(top)) : subsystem_id(static_cast<int>(top))).arg((*shares)[static_cast<size_t>(top)] * 100.0, 0, 'f', 0);
    }
    if (!tops.isEmpty()) lines << tr("Top subsystem per run: %1.").arg(tops.join(QStringLiteral(", ")));
    consistency_->setText(lines.join(QStringLiteral("<br>")));
}

void AdvisorPanel::showRewriteVerdict(const QString& prompt_a, const QString& answer_a, const QString& prompt_b,
                                      const QString& answer_b) {
    if (!rules_) return;
    verdict_ = judge_rewrite(*rules_, prompt_a.toStdString(), answer_a.toStdString(), prompt_b.toStdString(),
                             answer_b.toStdString());
    verdict_text_ = [this] {
        if (!verdict_) return QString();
        const QString summary = text(verdict_->summary.in(chinese())).toHtmlEscaped();
        QString colour;
        if (verdict_->kind == VerdictKind::Worse) colour = QStringLiteral("#c62828");
        if (verdict_->kind == VerdictKind::Better) colour = QStringLiteral("#2e7d32");
        const QString body = colour.isEmpty() ? summary : QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour, summary);
        return tr("<b>Apply & compare</b> (A: old prompt, B: rewritten): %1").arg(body);
    };
    verdict_label_->setText(verdict_text_());
    verdict_label_->show();
}

QString AdvisorPanel::ruleTitle(const QString& rule_id) const {
    const AdvisorRule* rule = rules_ ? rules_->find(rule_id.toStdString()) : nullptr;
    return rule ? text(rule->title.in(chinese())) : rule_id;
}

QString AdvisorPanel::rewriteVerdictHtml() const { return verdict_text_ ? verdict_text_() : QString(); }

void AdvisorPanel::clearRewriteVerdict(std::function<QString()> why) {
    verdict_.reset();
    verdict_text_ = [why = std::move(why)] { return why().toHtmlEscaped(); };
    verdict_label_->setText(verdict_text_());
    verdict_label_->show();
}

void AdvisorPanel::setRewriteVerdictShown(bool shown) { verdict_label_->setVisible(shown && verdict_text_); }

void AdvisorPanel::dropRewriteVerdict() {
    verdict_.reset();
    verdict_text_ = nullptr;
    verdict_label_->clear();
    verdict_label_->hide();
}

} // namespace octo::ui
