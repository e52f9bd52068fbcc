#include "ui/panels/quant_report_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/controllers/quant_report_controller.h"
#include "ui/session/run_store.h"
#include "ui/support/plot.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

namespace {

constexpr char kModelB[] = "quantReport/modelB";
constexpr char kPrompts[] = "quantReport/prompts";
constexpr char kMaxTokens[] = "quantReport/maxTokens";

QTableWidgetItem* cell(const QString& text, const QString& tip = {}) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    item->setToolTip(tip.isEmpty() ? text : tip);
    return item;
}

QString one_line(QString text) { return text.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ ")); }

} // namespace

QuantReportDialog::QuantReportDialog(QuantReportController& controller, const RunStore& store, std::function<QString()> editor_prompt,
                                     QWidget* parent)
    : QDialog(parent), controller_(controller), store_(store) {
    setObjectName(QStringLiteral("quantReportDialog"));
    setWindowTitle(tr("Quantisation Report"));
    auto* form = new QFormLayout;
    model_a_ = new QLabel(this);
    model_a_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Model A (loaded):"), model_a_);
    model_b_ = new QLineEdit(this);
    model_b_->setObjectName(QStringLiteral("quantModelB"));
    model_b_->setPlaceholderText(tr("Another file of the same model, e.g. its Q4_K_M beside a Q8_0"));
    auto* browse = new QPushButton(tr("Bro&wse…"), this);
    connect(browse, &QPushButton::clicked, this, &QuantReportDialog::browse);
    auto* b_row = new QHBoxLayout;
    b_row->addWidget(model_b_, 1);
    b_row->addWidget(browse);
    auto* b_label = new QLabel(tr("Model &B:"), this);
    b_label->setBuddy(model_b_);
    form->addRow(b_label, b_row);
    prompts_ = new QPlainTextEdit(this);
    prompts_->setObjectName(QStringLiteral("quantPrompts"));
    prompts_->setPlaceholderText(tr("One prompt a line"));
    prompts_->setMaximumHeight(90);
    form->addRow(tr("&Prompts:"), prompts_);
    max_tokens_ = new QSpinBox(this);
    max_tokens_->setRange(1, 1024);
    max_tokens_->setMaximumWidth(120);
    form->addRow(tr("&Tokens per answer:"), max_tokens_);

    run_ = new QPushButton(tr("&Run Report"), this);
    run_->setDefault(true);
    cancel_ = new QPushButton(tr("&Cancel Report"), this);
    save_ = new QPushButton(tr("&Save JSON…"), this);
    progress_ = new QProgressBar(this);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    auto* actions = new QHBoxLayout;
    actions->addWidget(run_);
    actions->addWidget(cancel_);
    actions->addWidget(progress_, 1);
    actions->addWidget(save_);
    connect(run_, &QPushButton::clicked, this, &QuantReportDialog::runReport);
    connect(cancel_, &QPushButton::clicked, &controller_, &QuantReportController::cancel);
    connect(save_, &QPushButton::clicked, this, &QuantReportDialog::saveJson);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("quantSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = new QTableWidget(0, 8, this);
    table_->setObjectName(QStringLiteral("quantTable"));
    table_->setHorizontalHeaderLabels({tr("Prompt"), tr("Answers part"), tr("Mean KL"), tr("Max KL"), tr("Top agree"),
                                       tr("Subsystem moved most"), tr("A's answer"), tr("B's answer")});
    table_->verticalHeader()->setVisible(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() + 4 * table_->verticalHeader()->defaultSectionSize() + 4);
    moved_ = new Plot(QStringLiteral("quantMovedPlot"), this);
    moved_->yAxis->setLabel(tr("mean share B − A (%)"));
    auto* results = new QSplitter(Qt::Vertical, this);
    results->addWidget(table_);
    results->addWidget(moved_);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(actions);
    layout->addWidget(status_);
    layout->addWidget(summary_);
    layout->addWidget(results, 1);
    layout->addWidget(buttons);

    const QSettings settings;
    model_b_->setText(settings.value(kModelB).toString());
    QStringList remembered = settings.value(kPrompts).toStringList();
    if (remembered.isEmpty() && editor_prompt) remembered = QStringList{editor_prompt()};
    setPrompts(remembered);
    max_tokens_->setValue(settings.value(kMaxTokens, 32).toInt());
    connect(&controller_, &QuantReportController::changed, this, &QuantReportDialog::refresh);
    connect(&store_, &RunStore::modelLoaded, this, &QuantReportDialog::refresh);
    refresh();
    resize(980, 640);
}

QString QuantReportDialog::modelB() const { return model_b_->text().trimmed(); }

QStringList QuantReportDialog::prompts() const {
    QStringList out;
    for (const QString& line : prompts_->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty()) out.push_back(line);
    }
    return out;
}

void QuantReportDialog::setModelB(const QString& path) { model_b_->setText(path); }

void QuantReportDialog::setPrompts(const QStringList& prompts) { prompts_->setPlainText(prompts.join(QLatin1Char('\n'))); }

QString QuantReportDialog::summaryText() const { return summary_->text(); }

void QuantReportDialog::browse() {
    const QString start = modelB().isEmpty() && store_.model() ? QFileInfo(QString::fromStdString(store_.model()->path)).absolutePath() : modelB();
    const QString path = QFileDialog::getOpenFileName(this, tr("Model B"), start, tr("GGUF models (*.gguf);;All files (*)"));
    if (!path.isEmpty()) model_b_->setText(path);
}

bool QuantReportDialog::runReport() {
    remember();
    QString error;
    if (!controller_.start(modelB(), prompts(), max_tokens_->value(), &error)) {
        status_->setText(error);
        return false;
    }
    return true;
}

void QuantReportDialog::remember() const {
    QSettings settings;
    settings.setValue(kModelB, modelB());
    settings.setValue(kPrompts, prompts());
    settings.setValue(kMaxTokens, max_tokens_->value());
}

void QuantReportDialog::saveJson() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Report"), QStringLiteral("quant-report.json"), tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    status_->setText(controller_.saveJson(path, &error) ? tr("Saved %1.").arg(path) : error);
}

void QuantReportDialog::refresh() {
    const auto& model = store_.model();
    model_a_->setText(model ? QString::fromStdString(model->path) : tr("none: open a model first"));
    const bool running = controller_.running();
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    save_->setEnabled(controller_.report().has_value() && !running);
    if (running) {
        if (controller_.done() == 0 && controller_.loadFraction() < 1.0) {
            progress_->setRange(0, 100);
            progress_->setValue(static_cast<int>(std::lround(100.0 * controller_.loadFraction())));
            status_->setText(tr("Loading model B…"));
        } else {
            progress_->setRange(0, std::max(1, controller_.total()));
            progress_->setValue(controller_.done());
            status_->setText(tr("Prompt %1 of %2…").arg(controller_.done() + 1).arg(controller_.total()));
        }
    } else {
        progress_->setRange(0, 1);
        progress_->setValue(controller_.report() ? 1 : 0);
        if (!controller_.failure().isEmpty()) status_->setText(controller_.failure());
        else if (controller_.report()) status_->clear();
        showReport(); // the report changes only when a run ends: progress leaves the table alone
    }
}

void QuantReportDialog::showReport() {
    const auto& report = controller_.report();
    table_->setRowCount(0);
    moved_->clearPlottables();
    if (!report) {
        summary_->setText(tr("Runs the prompts on both models (greedy), then feeds B the answer A gave, token by token, "
                             "and measures KL(A ‖ B) of the next-token distributions at every step."));
        moved_->showNoData(tr("No report yet."));
        moved_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const QuantReport& r = *report;
    QString largest;
    if (r.max_kl_item) largest = tr(", largest %1 (prompt %2, step %3)").arg(r.max_kl, 0, 'f', 4).arg(*r.max_kl_item + 1).arg(r.max_kl_step);
    summary_->setText(tr("A: %1 · B: %2\n%3 of %4 prompts answered the same. Over %5 steps (B fed A's answer): mean KL %6%7; "
                         "the most probable tokens agree at %8 %.")
                          .arg(QFileInfo(QString::fromStdString(r.model_a)).fileName(), QFileInfo(QString::fromStdString(r.model_b)).fileName())
                          .arg(r.same_answers)
                          .arg(r.items.size())
                          .arg(r.steps)
                          .arg(r.mean_kl, 0, 'f', 4)
                          .arg(largest)
                          .arg(100.0 * r.top_agreement, 0, 'f', 1) +
                      (r.mean_expert_overlap ? tr(" Expert routing where the context is the same: %1 % of the chosen experts the same.")
                                                   .arg(100.0 * *r.mean_expert_overlap, 0, 'f', 1)
                                             : QString()));
    table_->setRowCount(static_cast<int>(r.items.size()));
    for (size_t i = 0; i < r.items.size(); ++i) {
        const QuantReportItem& item = r.items[i];
        const int row = static_cast<int>(i);
        table_->setItem(row, 0, cell(one_line(QString::fromStdString(item.prompt)), QString::fromStdString(item.prompt)));
        table_->setItem(row, 1, cell(item.first_token_divergence ? tr("at token %1").arg(*item.first_token_divergence) : tr("same answer")));
        table_->setItem(row, 2, cell(QString::number(item.divergence.mean_kl, 'f', 4)));
        table_->setItem(row, 3, cell(QString::number(item.divergence.max_kl, 'f', 4)));
        table_->setItem(row, 4, cell(QStringLiteral("%1 %").arg(100.0 * item.divergence.top_agreement, 0, 'f', 1)));
        QString moved = QStringLiteral("—");
        if (item.share_delta) {
            const auto& d = *item.share_delta;
            const auto most = std::max_element(d.begin(), d.end(), [](float x, float y) { return std::fabs(x) < std::fabs(y); });
            const int g = static_cast<int>(most - d.begin());
            moved = QStringLiteral("%1 %2%3 %").arg(store_.model() ? head_group_short(*store_.model(), g) : subsystem_id(g),
                                                    *most >= 0.0f ? QStringLiteral("+") : QString())
                        .arg(100.0 * *most, 0, 'f', 2);
        }
        table_->setItem(row, 5, cell(moved));
        table_->setItem(row, 6, cell(one_line(QString::fromStdString(item.answer_a)), QString::fromStdString(item.answer_a)));
        table_->setItem(row, 7, cell(one_line(QString::fromStdString(item.answer_b)), QString::fromStdString(item.answer_b)));
    }
    table_->resizeColumnsToContents();
    for (int c : {0, 6}) table_->setColumnWidth(c, std::min(table_->columnWidth(c), 220));
    if (!r.mean_share_delta) {
        moved_->showNoData(tr("Subsystem shares were not measured."));
        moved_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double extent = 0.0;
    for (int g = 0; g < kSubsystemCount; ++g) {
        ticker->addTick(g, store_.model() ? head_group_short(*store_.model(), g) : subsystem_id(g));
        auto* bar = new QCPBars(moved_->xAxis, moved_->yAxis);
        const double v = 100.0 * (*r.mean_share_delta)[static_cast<size_t>(g)];
        bar->addData(g, v);
        bar->setBrush(subsystem_color(g));
        bar->setPen(Qt::NoPen);
        extent = std::max(extent, std::fabs(v));
    }
    moved_->xAxis->setTicker(ticker);
    if (extent == 0.0) extent = 1.0;
    moved_->setHoverText([this](double x, double) -> QString {
        const auto& rep = controller_.report();
        const int g = static_cast<int>(std::lround(x));
        if (!rep || !rep->mean_share_delta || g < 0 || g >= kSubsystemCount) return {};
        return tr("%1: mean share B − A = %2 %").arg(subsystem_name(g)).arg(100.0 * (*rep->mean_share_delta)[static_cast<size_t>(g)], 0, 'f', 3);
    });
    moved_->setHome(QCPRange(-0.7, kSubsystemCount - 0.3), QCPRange(-1.15 * extent, 1.15 * extent));
    moved_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
