// Teaching replay's presenter panel: the selected token (what it is, where, its log-prob and
// strongest subsystem) and the note attached to it, editable (kept in the run record, so Save
// Capture writes it and Open Capture brings it back), with undo; and every note of the run,
// a click away.
#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QUndoStack;

namespace octo::ui {

class RunStore;

class PresenterPanel : public QWidget {
    Q_OBJECT
public:
    explicit PresenterPanel(RunStore& store, QWidget* parent = nullptr);

    QPlainTextEdit* noteEditor() const { return note_; }
    QListWidget* noteList() const { return list_; }
    QLabel* tokenLabel() const { return token_; }
    QLabel* reportLabel() const { return report_; }
    QUndoStack* undoStack() const { return undo_; }
    // A line under the note (the last re-run's report).
    void showReport(const QString& text);

private:
    void refresh();
    void refreshList();
    void edited();

    RunStore& store_;
    QLabel* token_;
    QPlainTextEdit* note_;
    QListWidget* list_;
    QLabel* report_;
    QUndoStack* undo_;
};

} // namespace octo::ui
