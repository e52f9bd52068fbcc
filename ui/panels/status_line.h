// The status bar's lasting labels: the loaded model (name, architecture, size, backend — with
// why CUDA is not used — and the head map in force), its memory, and the last run's decode
// speed. Kept up to date from RunStore; messages come and go beside them.
#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QStatusBar;

namespace octo::ui {

class RunStore;

class StatusLine : public QObject {
    Q_OBJECT
public:
    StatusLine(QStatusBar& bar, RunStore& store, QObject* parent = nullptr);
    void showLoading(const QString& path); // until the model is loaded or the load fails

private:
    void update();

    RunStore& store_;
    QStatusBar& bar_;
    QLabel* model_;
    QLabel* speed_;
    QLabel* memory_;
};

} // namespace octo::ui
