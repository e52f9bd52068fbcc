#include "ui/panels/claims_panel.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

#include "ui/support/retranslate.h"
#include "ui/panels/claims_presenter.h"
#include "ui/session/claims_store.h"
#include "ui/support/language.h"
#include "ui/views/claim_plot_view.h"
#include "ui/views/claim_verdict_view.h"

namespace octo::ui {

namespace {

enum Column { kClaim, kVerdict, kMeasured, kN, kArticle };

// The language the UI was started in (View → Language, --lang), not the system locale.
bool chinese() { return installed_language() == QLatin1String("zh_CN"); }

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

QString verdict_label(Verdict verdict) {
    switch (verdict) {
    case Verdict::Holds: return ClaimsPanel::tr("holds");
    case Verdict::DoesNotHold: return ClaimsPanel::tr("does not hold");
    case Verdict::Inconclusive: return ClaimsPanel::tr("inconclusive");
    case Verdict::NotMeasurable: return ClaimsPanel::tr("not measurable on this model");
    case Verdict::Uninformative: return ClaimsPanel::tr("uninformative");
    case Verdict::NotMeasurableHere: return ClaimsPanel::tr("not measurable here");
    }
    return {};
}

QColor verdict_colour(Verdict verdict) {
    switch (verdict) {
    case Verdict::Holds: return QColor(0, 158, 115);      // bluish green
    case Verdict::DoesNotHold: return QColor(213, 94, 0); // vermillion
    case Verdict::Inconclusive: return QColor(230, 159, 0);
    case Verdict::NotMeasurable: return QColor(140, 140, 140);
    case Verdict::Uninformative: return QColor(86, 180, 233); // sky blue
    case Verdict::NotMeasurableHere: return QColor(110, 110, 110);
    }
    return {};
}

QString claim_text(const Claim& claim) { return q(claim.text.in(chinese())); }
QString claim_title(const Claim& claim) { return q(claim.title.in(chinese())); }
QString claim_holds_text(const Claim& claim) { return q(claim.holds.in(chinese())); }
QString claim_not_measurable_text(const Claim& claim) { return q(claim.not_measurable_here.in(chinese())); }
QString claims_note_text(const ClaimsReport& report) { return q(report.note.in(chinese())); }

ClaimsPanel::ClaimsPanel(ClaimsStore& store, QWidget* parent)
    : QWidget(parent), store_(store) {
    auto* layout = new QVBoxLayout(this);
    createControls(layout);
    layout->addWidget(createViews(), 1);
    connectActions();
    followStore();
    on_language_change(this, [this] { retranslate(); });
}

// The action buttons, the items and seed settings (remembered) and the progress, in two rows.
void ClaimsPanel::createControls(QVBoxLayout* layout) {
    auto* bar = new QHBoxLayout;
    run_selected_ = new QPushButton(this);
    run_all_ = new QPushButton(this);
    cancel_ = new QPushButton(this);
    export_ = new QPushButton(this);
    present_ = new QPushButton(this);
    items_ = new QSpinBox(this);
    items_->setRange(0, 300);
    seed_ = new QSpinBox(this);
    seed_->setRange(1, 1000000);
    QSettings settings;
    items_->setValue(settings.value(QStringLiteral("claims/items"), 0).toInt());
    seed_->setValue(settings.value(QStringLiteral("claims/seed"), 1).toInt());
    connect(items_, &QSpinBox::valueChanged, this, [](int v) { QSettings().setValue(QStringLiteral("claims/items"), v); });
    connect(seed_, &QSpinBox::valueChanged, this, [](int v) { QSettings().setValue(QStringLiteral("claims/seed"), v); });
    progress_ = new QProgressBar(this);
    progress_->setTextVisible(true);
    progress_->setFormat(tr("idle"));
    progress_->setValue(0);
    progress_->setMinimumWidth(120);
    // Two rows, so that the bottom dock's share of a 1366-wide window holds them without
    // scrolling sideways: the actions, then the settings and the progress.
    for (QWidget* w : std::initializer_list<QWidget*>{run_selected_, run_all_, cancel_}) bar->addWidget(w);
    bar->addStretch(1);
    bar->addWidget(export_);
    bar->addWidget(present_);
    layout->addLayout(bar);
    auto* settings_row = new QHBoxLayout;
    settings_row->addWidget(items_);
    settings_row->addWidget(seed_);
    settings_row->addWidget(progress_, 1);
    layout->addLayout(settings_row);
    note_ = new QLabel(this); // one line: the full note is its tooltip, the detail pane and the presenter
    note_->setTextFormat(Qt::PlainText);
    note_->setMinimumWidth(100);
    note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(note_);

}

// The claims list beside the tabs of the selected claim: plot, words and method, verdict.
QSplitter* ClaimsPanel::createViews() {
    auto* split = new QSplitter(Qt::Horizontal, this);
    list_ = new QTreeWidget(split);
    list_->setObjectName(QStringLiteral("claimsList"));
    list_->setRootIsDecorated(false);
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection); // Run Selected runs every selected claim
    list_->setAlternatingRowColors(true);
    list_->setTextElideMode(Qt::ElideRight);
    list_->header()->setStretchLastSection(true);
    list_->header()->resizeSection(kClaim, 170);
    list_->header()->resizeSection(kVerdict, 120);
    list_->header()->resizeSection(kMeasured, 190);
    list_->header()->resizeSection(kN, 40);
    // The plot gets the dock's whole height (the bottom docks are short); the claim's words,
    // verdict and method are one tab away.
    tabs_ = new QTabWidget(split);
    plot_ = new ClaimPlotView(tabs_);
    detail_ = new QTextBrowser(tabs_);
    detail_->setOpenLinks(false);
    verdict_ = new ClaimVerdictView(tabs_);
    tabs_->addTab(plot_, QString());
    tabs_->addTab(detail_, QString());
    tabs_->addTab(verdict_, QString());
    list_->setMinimumHeight(40);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    return split;
}

void ClaimsPanel::connectActions() {
    connect(run_selected_, &QPushButton::clicked, this, &ClaimsPanel::runSelected);
    connect(run_all_, &QPushButton::clicked, this, &ClaimsPanel::runAll);
    connect(cancel_, &QPushButton::clicked, this, &ClaimsPanel::cancel);
    connect(export_, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Claims Report To"),
                                                              QSettings().value(QStringLiteral("claims/exportDir"), QDir::homePath()).toString());
        if (dir.isEmpty()) return;
        QSettings().setValue(QStringLiteral("claims/exportDir"), dir);
        exportReport(dir);
    });
    connect(present_, &QPushButton::clicked, this, &ClaimsPanel::openPresenter);
    connect(list_, &QTreeWidget::currentItemChanged, this, &ClaimsPanel::refreshDetail);
    connect(list_, &QTreeWidget::itemDoubleClicked, this, &ClaimsPanel::runSelected);
}

// The list, the buttons and the progress follow the claims store.
void ClaimsPanel::followStore() {
    connect(&store_, &ClaimsStore::resultsChanged, this, [this] {
        refreshList();
        refreshDetail();
        refreshButtons();
    });
    connect(&store_, &ClaimsStore::runningChanged, this, &ClaimsPanel::refreshButtons);
    connect(&store_, &ClaimsStore::progress, this, [this](int index, int total_claims, int done, int total_items) {
        progress_->setRange(0, total_claims * 100);
        const int within = total_items > 0 ? done * 100 / total_items : 0;
        progress_->setValue(index * 100 + within);
        progress_->setFormat(tr("claim %1 of %2: %3 — %4 / %5")
                                 .arg(index + 1)
                                 .arg(total_claims)
                                 .arg(q(store_.runningId()))
                                 .arg(done)
                                 .arg(total_items));
    });
    connect(&store_, &ClaimsStore::finished, this, [this](bool complete) {
        progress_->setRange(0, 1);
        progress_->setValue(complete ? 1 : 0);
        progress_->setFormat(complete ? tr("done") : tr("stopped: the claims that finished are shown"));
        emit statusMessage(complete ? tr("Claims measured") : tr("Claims run stopped"));
    });
    connect(&store_, &ClaimsStore::failed, this, [this](const QString& message) {
        progress_->setRange(0, 1);
        progress_->setValue(0);
        progress_->setFormat(tr("failed"));
        emit statusMessage(tr("Claims run failed: %1").arg(message));
    });
}

void ClaimsPanel::retranslate() {
    run_selected_->setText(tr("Run Selected"));
    run_all_->setText(tr("Run All"));
    cancel_->setText(tr("Cancel"));
    export_->setText(tr("Export Report…"));
    present_->setText(tr("Present…"));
    run_selected_->setToolTip(tr("Measure the selected claims on the loaded model (Ctrl+click selects several)"));
    run_all_->setToolTip(tr("Measure every claim on the loaded model (about a minute on octet)"));
    present_->setToolTip(tr("Step through the claims one by one, full screen, for a lecture (F11)"));
    items_->setSpecialValueText(tr("items: each claim's own"));
    items_->setPrefix(tr("items: "));
    items_->setToolTip(tr("How many task items of each subsystem every claim uses (0: the number the claims file gives)"));
    seed_->setPrefix(tr("seed: "));
    seed_->setToolTip(tr("Chooses the items and the bootstrap resamples: the same seed gives the same report"));
    list_->setHeaderLabels({tr("Claim"), tr("Verdict"), tr("Measured [95 % interval]"), tr("n"), tr("Article (GPT-4, unverified)")});
    tabs_->setTabText(0, tr("Plot"));
    tabs_->setTabText(1, tr("Claim and method"));
    tabs_->setTabText(2, tr("Verdict"));
    refreshList();
    refreshDetail();
    refreshButtons();
}

void ClaimsPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    note_->setText(note_->fontMetrics().elidedText(note_->toolTip(), Qt::ElideRight, std::max(100, note_->width())));
}

void ClaimsPanel::setModelLoaded(bool loaded) {
    model_loaded_ = loaded;
    refreshButtons();
}

QString ClaimsPanel::selectedId() const {
    const QTreeWidgetItem* item = list_->currentItem();
    return item ? item->data(kClaim, Qt::UserRole).toString() : QString();
}

void ClaimsPanel::selectClaim(const QString& id) {
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = list_->topLevelItem(i);
        if (item->data(kClaim, Qt::UserRole).toString() != id) continue;
        list_->setCurrentItem(item);
        list_->scrollToItem(item);
    }
}

void ClaimsPanel::submit(const std::vector<std::string>& ids) {
    if (ids.empty() || store_.running() || !model_loaded_) return;
    emit runRequested(ids, static_cast<quint64>(seed_->value()), items_->value()); // ClaimsController: started, then queued
    progress_->setRange(0, static_cast<int>(ids.size()) * 100);
    progress_->setValue(0);
    progress_->setFormat(tr("starting…"));
}

void ClaimsPanel::runSelected() {
    std::vector<std::string> ids; // in the list's order
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = list_->topLevelItem(i);
        if (item->isSelected()) ids.push_back(item->data(kClaim, Qt::UserRole).toString().toStdString());
    }
    if (ids.empty() && !selectedId().isEmpty()) ids.push_back(selectedId().toStdString());
    submit(ids);
}

void ClaimsPanel::runAll() {
    std::vector<std::string> ids;
    for (const Claim& c : store_.claims()) ids.push_back(c.id);
    submit(ids);
}

void ClaimsPanel::cancel() {
    if (store_.running()) emit cancelRequested();
}

void ClaimsPanel::refreshButtons() {
    const bool running = store_.running();
    run_selected_->setEnabled(model_loaded_ && !running && list_->currentItem());
    run_all_->setEnabled(model_loaded_ && !running && !store_.claims().empty());
    cancel_->setEnabled(running);
    export_->setEnabled(store_.hasResults() && !running); // report() would copy every result
    present_->setEnabled(!store_.claims().empty());
    items_->setEnabled(!running);
    seed_->setEnabled(!running);
    const ClaimsReport& meta = store_.meta();
    const QString note = meta.model.empty()
                             ? tr("The article's figures are claims about GPT-4 that nobody can check. Run the claims to measure each one on the loaded model, with its 95 % interval.")
                             : tr("Measured on %1 with its %2 (metric %3), seed %4. %5")
                                   .arg(q(meta.model), q(meta.map), q(meta.metric))
                                   .arg(meta.seed)
                                   .arg(claims_note_text(meta));
    note_->setToolTip(note);
    note_->setText(note_->fontMetrics().elidedText(note, Qt::ElideRight, std::max(100, note_->width())));
}

void ClaimsPanel::refreshList() {
    const QString keep = selectedId();
    list_->clear();
    for (const Claim& c : store_.claims()) {
        auto* item = new QTreeWidgetItem(list_);
        item->setData(kClaim, Qt::UserRole, q(c.id));
        item->setText(kClaim, claim_title(c));
        item->setToolTip(kClaim, claim_text(c));
        item->setText(kArticle, q(article_figure_text(c)));
        item->setToolTip(kArticle, tr("The article's figure for GPT-4: a claim, never measured here"));
        if (!c.measurable()) { // known from the catalogue: nothing to run
            item->setText(kMeasured, QStringLiteral("—"));
            item->setText(kVerdict, verdict_label(Verdict::NotMeasurableHere));
            item->setBackground(kVerdict, verdict_colour(Verdict::NotMeasurableHere));
            item->setForeground(kVerdict, Qt::white);
            item->setToolTip(kVerdict, claim_not_measurable_text(c));
            continue;
        }
        const ClaimResult* r = store_.result(c.id);
        if (!r) {
            item->setText(kVerdict, tr("not run"));
            continue;
        }
        if (r->estimate) {
            item->setText(kMeasured, QStringLiteral("%1  [%2, %3]")
                                         .arg(q(format_claim_value(c.unit, r->estimate->value)),
                                              q(format_claim_value(c.unit, r->estimate->ci95.lo)),
                                              q(format_claim_value(c.unit, r->estimate->ci95.hi))));
            item->setText(kN, QString::number(r->estimate->n));
        } else {
            item->setText(kMeasured, QStringLiteral("—"));
            item->setText(kN, QStringLiteral("0"));
        }
        item->setText(kVerdict, verdict_label(r->verdict));
        const QColor colour = verdict_colour(r->verdict);
        item->setBackground(kVerdict, colour);
        item->setForeground(kVerdict, Qt::white);
        item->setToolTip(kVerdict, r->estimate && r->reason.empty() ? claim_holds_text(c) : q(r->reason));
    }
    if (!keep.isEmpty()) selectClaim(keep);
    if (!list_->currentItem() && list_->topLevelItemCount() > 0) list_->setCurrentItem(list_->topLevelItem(0));
}

void ClaimsPanel::refreshDetail() {
    const QString id = selectedId();
    const Claim* c = id.isEmpty() ? nullptr : store_.claim(id.toStdString());
    const ClaimResult* r = c ? store_.result(c->id) : nullptr;
    plot_->showClaim(c, r);
    verdict_->showClaim(c, r);
    refreshButtons();
    if (!c) {
        detail_->clear();
        return;
    }
    QString html = QStringLiteral("<h3>%1</h3><p><i>%2</i></p>").arg(claim_title(*c).toHtmlEscaped(), claim_text(*c).toHtmlEscaped());
    html += QStringLiteral("<p>") + tr("Article, section %1: <b>%2</b> (about GPT-4, unverified)").arg(q(c->section).toHtmlEscaped(), q(article_figure_text(*c)).toHtmlEscaped()) + QStringLiteral("</p>");
    if (!c->measurable()) {
        html += QStringLiteral("<p><span style=\"background:%1;color:white\">&nbsp;%2&nbsp;</span> %3</p>")
                    .arg(verdict_colour(Verdict::NotMeasurableHere).name(), verdict_label(Verdict::NotMeasurableHere),
                         claim_not_measurable_text(*c).toHtmlEscaped());
        detail_->setHtml(html);
        return;
    }
    html += QStringLiteral("<p>") + tr("Holds when: %1").arg(claim_holds_text(*c).toHtmlEscaped()) + QStringLiteral("</p>");
    if (r && r->estimate) {
        html += QStringLiteral("<p>") +
                tr("Measured: <b>%1</b>, 95 % interval [%2, %3], n = %4 — <span style=\"background:%5;color:white\">&nbsp;%6&nbsp;</span>")
                    .arg(q(format_claim_value(c->unit, r->estimate->value)), q(format_claim_value(c->unit, r->estimate->ci95.lo)),
                         q(format_claim_value(c->unit, r->estimate->ci95.hi)))
                    .arg(r->estimate->n)
                    .arg(verdict_colour(r->verdict).name(), verdict_label(r->verdict)) +
                QStringLiteral("</p>");
        QString interval = tr("Interval: %1").arg(QString::fromUtf8(interval_method_name(r->estimate->method)));
        if (r->estimate->p_value) interval += QStringLiteral("; ") + tr("exact McNemar p = %1").arg(*r->estimate->p_value, 0, 'g', 3);
        html += QStringLiteral("<p><small>") + interval.toHtmlEscaped() + QStringLiteral("</small></p>");
        if (!r->reason.empty()) html += QStringLiteral("<p>") + tr("Why no verdict: %1").arg(q(r->reason)).toHtmlEscaped() + QStringLiteral("</p>");
        html += QStringLiteral("<p>") + tr("Verdict: %1").arg(q(verdict_line(*c, *r, chinese()))).toHtmlEscaped() + QStringLiteral("<br><small>") +
                tr("one-sided p = %1, compared with %2 (Holm's correction over %3 claims run together)")
                    .arg(r->test.p, 0, 'g', 3)
                    .arg(r->test.level, 0, 'g', 3)
                    .arg(r->test.family)
                    .toHtmlEscaped() +
                QStringLiteral("</small></p>");
    } else if (r) {
        html += QStringLiteral("<p><b>") + verdict_label(r->verdict) + QStringLiteral("</b>: ") + q(r->reason).toHtmlEscaped() + QStringLiteral("</p>");
    }
    if (r && !r->method.empty()) html += QStringLiteral("<p><small>") + tr("Method: %1").arg(q(r->method).toHtmlEscaped()) + QStringLiteral("</small></p>");
    if (r && !store_.meta().note.en.empty()) html += QStringLiteral("<p><small><i>") + claims_note_text(store_.meta()).toHtmlEscaped() + QStringLiteral("</i></small></p>");
    detail_->setHtml(html);
}

bool ClaimsPanel::exportReport(const QString& folder) {
    const ClaimsReport report = store_.report();
    if (report.results.empty()) {
        emit statusMessage(tr("Nothing to export: run the claims first"));
        return false;
    }
    if (!QDir().mkpath(folder)) {
        emit statusMessage(tr("Cannot create %1").arg(folder));
        return false;
    }
    std::map<std::string, std::string> plots;
    ClaimPlotView renderer; // off screen: the shown plot stays as it is
    renderer.resize(900, 520);
    for (size_t i = 0; i < report.results.size(); ++i) {
        renderer.showClaim(&report.claims[i], &report.results[i]);
        const QString name = q(report.claims[i].id) + QStringLiteral(".png");
        if (renderer.plotKind().isEmpty()) continue;
        if (!renderer.savePng(QDir(folder).filePath(name), 900, 520)) {
            emit statusMessage(tr("Cannot write %1").arg(QDir(folder).filePath(name)));
            return false;
        }
        plots[report.claims[i].id] = name.toStdString();
    }
    auto written = write_claims_report(folder.toStdString(), report, chinese(), plots);
    if (!written) {
        emit statusMessage(tr("Export failed: %1").arg(q(written.error().message)));
        return false;
    }
    emit statusMessage(tr("Report written to %1 (%2 files)").arg(folder).arg(written->size() + plots.size()));
    return true;
}

void ClaimsPanel::openPresenter() {
    auto* presenter = new ClaimsPresenter(store_, this);
    presenter->setAttribute(Qt::WA_DeleteOnClose);
    presenter->showClaim(std::max(0, list_->indexOfTopLevelItem(list_->currentItem())));
    presenter->show();
}

} // namespace octo::ui
