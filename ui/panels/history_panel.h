// The run history (docs/workbench.md): a table of every run with its prompt, output, switches,
// the measurements it recorded, its stop reason and, for runs submitted together, the A/B pair
// or consistency run it belongs to. Activating a row shows that run in every view and puts its
// prompt and settings back in the editor; "Compare" shows two selected runs in the A/B compare dock.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>

#include <optional>
#include <vector>

#include "ui/session/run_record.h"

class QAction;
class QLabel;
class QLineEdit;
class QTableView;

namespace octo::ui {

class RunStore;

// What a run recorded, in words: "norms, relative, DLA, attention" (what its tokens hold), "none"
// for a settled run without measurements, empty while nothing has arrived.
QString recorded_measurements(const RunRecord& run);
// The switches a run ran with: "rte-c, rte-d off (zero); experts off: *:3", or "—".
QString run_switches(const RunSpec& spec);
// What a run's prompt says in one cell: the prompt, or a conversation's last user message.
QString spec_prompt_text(const RunSpec& spec);
// Its set: "A of pair 3", "B of pair 3", "sample 2 of 5 (consistency 1)"; empty when none.
QString run_group_label(const RunGroup& group);

// The store's runs, newest first, one row each. It reads RunStore and keeps only which run each
// row is since the last refresh (rows do not move under the view before it is told).
class RunHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Run, Pair, Prompt, Output, Stop, Switches, Measured, ModelFile, PrecisionKv, Engine, ColumnCount };
    static constexpr int IdRole = Qt::UserRole; // the row's run id (qulonglong)

    explicit RunHistoryModel(RunStore& store, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void refresh(); // the store's history changed: every row is read again
    const RunRecord* record(int row) const; // null when out of range
    int rowOf(uint64_t run_id) const;       // -1 when not in the history

private:
    RunStore& store_;
    std::vector<uint64_t> ids_; // row -> run id, newest first
};

class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(RunStore& store, QWidget* parent = nullptr);

    QTableView* view() const { return view_; }
    RunHistoryModel* model() const { return model_; }
    QAction* compareAction() const { return compare_; }
    // The context menu's edits of the current run: Rename… (a name shown in the Run column), Pin
    // (kept when the history is full), Remove from History (the selected runs; Delete).
    QAction* renameAction() const { return rename_; }
    QAction* pinAction() const { return pin_; }
    QAction* removeAction() const { return remove_; }
    // The selected runs, oldest first (A before B).
    std::vector<uint64_t> selectedRuns() const;
    // Why the selection cannot be compared (the action's tooltip), or nullopt when it can.
    std::optional<QString> compareRefusal() const;
    // Shows only the runs whose prompt, output, model, set or run label holds `text` (any case);
    // empty shows every run. The field above the table sets it.
    void setFilter(const QString& text);
    bool rowShown(int row) const;

signals:
    void runActivated(uint64_t run_id);
    void compareRequested(quint64 a, quint64 b); // two runs of the same model, A the older

private:
    void sizeColumns();
    void addEditActions();
    void refresh();
    void updateCompare();
    void applyFilter();
    uint64_t currentRun() const; // the run of the current row; 0 when none

    RunStore& store_;
    RunHistoryModel* model_;
    QAction* rename_ = nullptr;
    QAction* pin_ = nullptr;
    QAction* remove_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QTableView* view_;
    QAction* compare_;
    QLabel* note_; // why two selected runs cannot be compared
};

} // namespace octo::ui
