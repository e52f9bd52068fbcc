// The run history: every run with its prompt, switches and result; selecting one shows it in
// every view and puts its prompt and settings back in the editor.
#pragma once

#include <QListWidget>

namespace octo::ui {

class RunStore;

class HistoryPanel : public QListWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(RunStore& store, QWidget* parent = nullptr);

signals:
    void runActivated(uint64_t run_id);

private:
    void refresh();

    RunStore& store_;
};

} // namespace octo::ui
