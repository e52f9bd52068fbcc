#include "ui/panels/history_panel.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLineEdit>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSet>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

#include "ui/session/run_store.h"
#include "ui/support/retranslate.h"
#include "ui/support/engine_labels.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

namespace {

constexpr int kShownChars = 200; // of a prompt or output in its cell (the view elides it further)

QString one_line(const QString& text) { return text.left(kShownChars).simplified(); }

QString run_label(const RunRecord& r) {
    return r.capture ? RunHistoryModel::tr("capture %1").arg(QFileInfo(r.capture->path).fileName())
                     : RunHistoryModel::tr("#%1").arg(r.id);
}

QString stop_text(const RunRecord& r) {
    switch (r.state) {
    case RunState::Running: return RunHistoryModel::tr("running");
    case RunState::Failed: return RunHistoryModel::tr("failed");
    case RunState::Cancelled: return r.trace.outcome ? stop_reason_label(r.trace.outcome->stop_reason) : RunHistoryModel::tr("cancelled");
    case RunState::Finished: break;
    }
    return r.trace.outcome ? run_end_label(r.trace) : RunHistoryModel::tr("finished");
}

} // namespace

QString recorded_measurements(const RunRecord& run) {
    bool norms = false, relative = false, dla = false, gates = false, experts = false, attention = false, router = false;
    for (const TraceToken& t : run.tokens()) {
        norms = norms || t.metrics.norm_share.has_value();
        relative = relative || t.metrics.relative.has_value();
        dla = dla || t.metrics.dla.has_value();
        gates = gates || t.metrics.gates.has_value();
        experts = experts || t.metrics.experts.has_value();
        attention = attention || !t.probe.attention.empty();
        router = router || !t.probe.router_probs.empty();
    }
    QStringList kinds;
    if (norms) kinds << RunHistoryModel::tr("norms");
    if (relative) kinds << RunHistoryModel::tr("relative");
    if (dla) kinds << RunHistoryModel::tr("DLA");
    if (gates) kinds << RunHistoryModel::tr("gates");
    if (experts) kinds << RunHistoryModel::tr("experts");
    if (attention) kinds << RunHistoryModel::tr("attention");
    if (router) kinds << RunHistoryModel::tr("router probabilities");
    if (kinds.isEmpty()) return run.state == RunState::Running ? QString() : RunHistoryModel::tr("none");
    return kinds.join(QStringLiteral(", "));
}

QString run_switches(const RunSpec& spec) {
    QStringList parts, off;
    for (int s = 0; s < kSubsystemCount; ++s) {
        if (spec.disabled[static_cast<size_t>(s)]) off << subsystem_id(s);
    }
    if (!off.isEmpty()) {
        parts << RunHistoryModel::tr("%1 off (%2)").arg(off.join(QStringLiteral(", ")), ablation_mode_label(spec.ablation_mode));
    }
    if (!spec.disabled_experts.empty()) {
        QStringList experts;
        for (const ExpertSwitch& e : spec.disabled_experts) experts << QString::fromStdString(expert_switch_text(e));
        parts << RunHistoryModel::tr("experts off: %1").arg(experts.join(QStringLiteral(", ")));
    }
    return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral("; "));
}

QString spec_prompt_text(const RunSpec& spec) {
    if (spec.messages.empty()) return QString::fromStdString(spec.prompt);
    for (auto m = spec.messages.rbegin(); m != spec.messages.rend(); ++m) {
        if (m->role == ChatRole::User) return QString::fromStdString(m->content);
    }
    return QString::fromStdString(spec.messages.back().content);
}

namespace {

QString kv_label(TensorType type) {
    const std::string_view name = kv_type_name(type);
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

// The model a run ran on, in one cell: the file's name, or the server's model.
QString run_model_label(const RunRecord& r, const std::optional<ModelInfo>& model) {
    if (r.engine) return QString::fromStdString(r.engine->model);
    if (model) return QFileInfo(QString::fromStdString(model->path)).fileName();
    if (!r.model_path.empty()) return QFileInfo(QString::fromStdString(r.model_path)).fileName();
    return QStringLiteral("—");
}

// What computed the run: a server (its address), or this program's backend as the run's model
// was opened ("cpu (avx2, 2 threads)", "cuda (NVIDIA H200)"), or a capture's recorded one.
QString run_engine_label(const RunRecord& r, const std::optional<ModelInfo>& model) {
    if (r.engine) return RunHistoryModel::tr("server %1").arg(QString::fromStdString(r.engine->url));
    if (r.capture && !r.capture->backend.empty()) return QString::fromStdString(r.capture->backend);
    if (model && !model->backend.empty()) return QString::fromStdString(model->backend);
    return QStringLiteral("—");
}

} // namespace

QString run_group_label(const RunGroup& group) {
    if (group.kind == RunGroup::Kind::Pair) {
        return group.index == 0 ? RunHistoryModel::tr("A of pair %1").arg(group.number)
                                : RunHistoryModel::tr("B of pair %1").arg(group.number);
    }
    if (group.kind == RunGroup::Kind::Conversation) {
        return RunHistoryModel::tr("turn %1 of conversation %2").arg(group.index + 1).arg(group.number);
    }
    return RunHistoryModel::tr("sample %1 of %2 (consistency %3)").arg(group.index + 1).arg(group.size).arg(group.number);
}

RunHistoryModel::RunHistoryModel(RunStore& store, QObject* parent) : QAbstractTableModel(parent), store_(store) { refresh(); }

int RunHistoryModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(ids_.size()); }

int RunHistoryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

void RunHistoryModel::refresh() {
    beginResetModel();
    ids_.clear();
    for (auto it = store_.runs().rbegin(); it != store_.runs().rend(); ++it) ids_.push_back(it->id); // newest first
    endResetModel();
}

const RunRecord* RunHistoryModel::record(int row) const {
    if (row < 0 || row >= static_cast<int>(ids_.size())) return nullptr;
    return store_.run(ids_[static_cast<size_t>(row)]); // null once dropped from the history
}

int RunHistoryModel::rowOf(uint64_t run_id) const {
    const auto it = std::find(ids_.begin(), ids_.end(), run_id);
    return it == ids_.end() ? -1 : static_cast<int>(it - ids_.begin());
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const {
    const RunRecord* r = index.isValid() ? record(index.row()) : nullptr;
    if (!r) return {};
    if (role == IdRole) return QVariant::fromValue<qulonglong>(r->id);
    const QString prompt = spec_prompt_text(r->trace.spec);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Run: {
            const QString label = r->name.isEmpty() ? run_label(*r) : tr("%1 (%2)").arg(r->name, run_label(*r));
            return r->pinned ? QStringLiteral("★ ") + label : label;
        }
        case Pair: return r->group ? run_group_label(*r->group) : QString();
        case Prompt: return one_line(prompt);
        case Output: return one_line(r->generated_text());
        case Stop: return stop_text(*r);
        case Switches: return run_switches(r->trace.spec);
        case Measured: return recorded_measurements(*r);
        case ModelFile: return run_model_label(*r, store_.model_of(*r));
        case Engine: return run_engine_label(*r, store_.model_of(*r));
        case PrecisionKv: {
            if (!r->trace.kv_types) return precision_label(r->trace.precision);
            return tr("%1; KV %2/%3")
                .arg(precision_label(r->trace.precision), kv_label(r->trace.kv_types->k),
                     kv_label(r->trace.kv_types->v));
        }
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Run: {
            QString tip = tr("Precision: %1").arg(precision_label(r->trace.precision));
            if (r->engine) tip += QLatin1Char('\n') + tr("Ran on %1 (%2)").arg(QString::fromStdString(r->engine->url), QString::fromStdString(r->engine->model));
            if (r->capture) tip += QLatin1Char('\n') + r->capture->path;
            return tip;
        }
        case Pair:
            if (r->group && r->group->kind == RunGroup::Kind::Pair && !r->group->change.isEmpty()) {
                return tr("B changes: %1").arg(r->group->change);
            }
            return {};
        case Prompt: return prompt;
        case Output: return r->generated_text();
        case Stop:
            if (!r->error.isEmpty()) return r->error;
            if (r->state == RunState::Running) return stop_text(*r);
            return (r->n_generated() == 1 ? tr("%1 — 1 token generated").arg(stop_text(*r))
                                           : tr("%1 — %2 tokens generated").arg(stop_text(*r)).arg(r->n_generated()));
        case Switches: return run_switches(r->trace.spec);
        case Measured: return recorded_measurements(*r);
        case ModelFile: {
            if (r->engine) return tr("Ran on %1 (%2)").arg(QString::fromStdString(r->engine->url), QString::fromStdString(r->engine->model));
            const auto m = store_.model_of(*r);
            return m ? QString::fromStdString(m->path) : QString::fromStdString(r->model_path);
        }
        default: return {};
        }
    }
    return {};
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Run: return tr("The run's number, or the capture file it was opened from");
        case Pair: return tr("The A/B pair or consistency run it was submitted in");
        case Prompt: return tr("The prompt as typed");
        case Output: return tr("The generated text");
        case Stop: return tr("Why generation stopped (or: running, failed)");
        case Switches: return tr("Subsystems and experts switched off, with the ablation mode");
        case Measured: return tr("What the run recorded beyond its tokens");
        case ModelFile: return tr("The model file it ran on (or the server's model)");
        case PrecisionKv: return tr("How its products treated activations, and how its KV cache stored keys and values");
        case Engine: return tr("What computed it: this program's backend (CPU or CUDA), or the server it ran on");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Run: return tr("Run");
    case Pair: return tr("Set");
    case Prompt: return tr("Prompt");
    case Output: return tr("Output");
    case Stop: return tr("Stop reason");
    case Switches: return tr("Switches");
    case Measured: return tr("Measured");
    case ModelFile: return tr("Model");
    case PrecisionKv: return tr("Precision");
    case Engine: return tr("Engine");
    default: return {};
    }
}

HistoryPanel::HistoryPanel(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    model_ = new RunHistoryModel(store_, this);
    view_ = new QTableView(this);
    view_->setObjectName(QStringLiteral("runHistory"));
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideRight);
    view_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->setMinimumHeight(60);
    sizeColumns();

    compare_ = new QAction(this);
    compare_->setObjectName(QStringLiteral("historyCompare"));
    view_->addAction(compare_);
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* button = new QToolButton(this);
    button->setDefaultAction(compare_);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("historyCompareNote"));
    note_->setWordWrap(true);
    note_->hide();

    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("historyFilter"));
    filter_->setClearButtonEnabled(true);
    auto* top = new QHBoxLayout;
    top->addWidget(button);
    top->addWidget(filter_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(note_);
    layout->addWidget(view_, 1);

    connect(&store_, &RunStore::historyChanged, this, &HistoryPanel::refresh);
    connect(view_, &QTableView::activated, this, [this](const QModelIndex& index) {
        emit runActivated(index.data(RunHistoryModel::IdRole).toULongLong());
    });
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPanel::updateCompare);
    connect(compare_, &QAction::triggered, this, [this] {
        if (compareRefusal()) return;
        const std::vector<uint64_t> ids = selectedRuns();
        emit compareRequested(ids[0], ids[1]);
    });
    connect(filter_, &QLineEdit::textChanged, this, &HistoryPanel::applyFilter);
    addEditActions();
    on_language_change(this, [this] { // the headers, cells and the refusal are read again in the new language
        compare_->setText(tr("Compare"));
        filter_->setPlaceholderText(tr("Filter: prompt, output, model…"));
        rename_->setText(tr("Rename…"));
        pin_->setText(tr("Pin (keep when the history is full)"));
        remove_->setText(tr("Remove from History"));
        refresh();
    });
}

// In ems: run and set whole, prompt and output elided (whole as tooltip), the stop reason as
// wide as the usual one; in the 400-pixel left column of a 1366 × 768 screen these five are in view.
void HistoryPanel::sizeColumns() {
    QHeaderView* header = view_->horizontalHeader();
    header->setHighlightSections(false);
    const int em = view_->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    const std::pair<int, int> widths[] = {{RunHistoryModel::Run, 3}, {RunHistoryModel::Pair, 7}, {RunHistoryModel::Prompt, 9},
                                          {RunHistoryModel::Output, 7}, {RunHistoryModel::Switches, 11}};
    for (const auto& [column, ems] : widths) header->resizeSection(column, ems * em);
    header->resizeSection(RunHistoryModel::Stop, view_->fontMetrics().horizontalAdvance(stop_reason_label(StopReason::EndOfGeneration)) + em);
    // What a dense model records with DLA on, whole (a stretched last column would be cut where the table scrolls).
    const QString measured = QStringList{RunHistoryModel::tr("norms"), RunHistoryModel::tr("relative"), RunHistoryModel::tr("DLA"),
                                         RunHistoryModel::tr("gates"), RunHistoryModel::tr("attention")}
                                 .join(QStringLiteral(", "));
    header->resizeSection(RunHistoryModel::Measured, view_->fontMetrics().horizontalAdvance(measured) + em);
}

// The history's own edits in the context menu: Rename…, Pin, Remove from History (Delete).
void HistoryPanel::addEditActions() {
    rename_ = new QAction(this);
    rename_->setObjectName(QStringLiteral("historyRename"));
    pin_ = new QAction(this);
    pin_->setObjectName(QStringLiteral("historyPin"));
    pin_->setCheckable(true);
    remove_ = new QAction(this);
    remove_->setObjectName(QStringLiteral("historyRemove"));
    remove_->setShortcut(QKeySequence::Delete);
    remove_->setShortcutContext(Qt::WidgetShortcut);
    for (QAction* a : {rename_, pin_, remove_}) view_->addAction(a);
    connect(rename_, &QAction::triggered, this, [this] {
        const RunRecord* r = store_.run(currentRun());
        if (!r) return;
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Rename Run"), tr("A name for %1 (empty: none):").arg(run_label(*r)),
                                                   QLineEdit::Normal, r->name, &ok);
        if (ok) store_.rename_run(r->id, name);
    });
    connect(pin_, &QAction::triggered, this, [this](bool pinned) { store_.pin_run(currentRun(), pinned); });
    connect(remove_, &QAction::triggered, this, [this] {
        for (const uint64_t id : selectedRuns()) store_.remove_run(id); // a running run stays
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        const RunRecord* r = store_.run(currentRun());
        pin_->setChecked(r && r->pinned);
        for (QAction* a : {rename_, pin_}) a->setEnabled(r != nullptr);
    });
}

std::vector<uint64_t> HistoryPanel::selectedRuns() const {
    std::vector<int> rows;
    for (const QModelIndex& index : view_->selectionModel()->selectedRows()) rows.push_back(index.row());
    std::sort(rows.begin(), rows.end(), std::greater<>()); // the bottom row is the oldest
    std::vector<uint64_t> ids;
    for (int row : rows) {
        if (const RunRecord* r = model_->record(row)) ids.push_back(r->id);
    }
    return ids;
}

std::optional<QString> HistoryPanel::compareRefusal() const {
    const std::vector<uint64_t> ids = selectedRuns();
    if (ids.size() != 2) return tr("Select two runs (Ctrl+click) to compare them.");
    const RunRecord* a = store_.run(ids[0]);
    const RunRecord* b = store_.run(ids[1]);
    if (!a || !b) return tr("Select two runs (Ctrl+click) to compare them.");
    for (const RunRecord* r : {a, b}) {
        if (r->state == RunState::Running) return tr("Run %1 is still running.").arg(run_label(*r));
        if (r->state == RunState::Failed) return tr("Run %1 failed: it has no answer to compare.").arg(run_label(*r));
    }
    for (const RunRecord* r : {a, b}) {
        if (!store_.model_of(*r)) return tr("Run %1 was made with no model: it has nothing to compare.").arg(run_label(*r));
    }
    return std::nullopt;
}

void HistoryPanel::refresh() {
    // The rows are the store's again; the selected runs stay selected.
    const std::vector<uint64_t> selected = selectedRuns();
    const QModelIndex current = view_->currentIndex();
    const uint64_t current_id = current.isValid() ? current.data(RunHistoryModel::IdRole).toULongLong() : 0;
    {
        const QSignalBlocker block(view_->selectionModel());
        model_->refresh();
        QItemSelection selection;
        for (uint64_t id : selected) {
            const int row = model_->rowOf(id);
            if (row >= 0) selection.select(model_->index(row, 0), model_->index(row, RunHistoryModel::ColumnCount - 1));
        }
        view_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
        if (const int row = model_->rowOf(current_id); row >= 0) {
            view_->selectionModel()->setCurrentIndex(model_->index(row, current.column()), QItemSelectionModel::NoUpdate);
        }
    }
    applyFilter();
    view_->viewport()->update();
    updateCompare();
}

void HistoryPanel::setFilter(const QString& text) { filter_->setText(text); }

uint64_t HistoryPanel::currentRun() const {
    const QModelIndex current = view_->currentIndex();
    return current.isValid() ? current.data(RunHistoryModel::IdRole).toULongLong() : 0;
}

bool HistoryPanel::rowShown(int row) const { return !view_->isRowHidden(row); }

void HistoryPanel::applyFilter() {
    const QString text = filter_->text().trimmed();
    for (int row = 0; row < model_->rowCount(); ++row) {
        bool match = text.isEmpty();
        for (const int column : {RunHistoryModel::Run, RunHistoryModel::Pair, RunHistoryModel::Prompt, RunHistoryModel::Output,
                                 RunHistoryModel::ModelFile, RunHistoryModel::Engine}) {
            if (match) break;
            const QModelIndex index = model_->index(row, column);
            // the whole prompt and output (the cells show one elided line)
            const QString cell = (column == RunHistoryModel::Prompt || column == RunHistoryModel::Output ? index.data(Qt::ToolTipRole)
                                                                                                           : index.data())
                                     .toString();
            match = cell.contains(text, Qt::CaseInsensitive);
        }
        view_->setRowHidden(row, !match);
    }
}

void HistoryPanel::updateCompare() {
    const std::optional<QString> refusal = compareRefusal();
    compare_->setEnabled(!refusal);
    compare_->setToolTip(refusal ? *refusal : tr("Show the two selected runs side by side in the A/B compare dock (A: the older)."));
    // Two runs that cannot be compared say why in the panel, not only in a tooltip.
    const bool say = refusal && selectedRuns().size() == 2;
    note_->setText(say ? *refusal : QString());
    note_->setVisible(say);
}

} // namespace octo::ui
