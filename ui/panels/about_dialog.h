// Help → About: what Octoscope is, and the facts a bug report needs — the app, Qt (run time and
// build time), spdlog and compiler versions, the backend and model in use (as the engine reports
// them when a model loads), and where the settings, user data, log and autosave live.
#pragma once

#include <QDialog>
#include <QString>

class QLabel;

namespace octo::ui {

struct AboutFacts {
    QString backend;       // ModelInfo::backend, e.g. "cpu (avx2, 2 threads)"; empty: no model
    QString model;         // name and path; empty: no model
    QString model_features; // the architecture and ModelInfo::features, "; "-separated; empty: none known
    QString settings_file; // QSettings().fileName()
    QString data_dir;
    QString log_file;
    QString autosave_file;
};

// "1.10.0" from spdlog's version macros.
QString spdlog_version();
// The compiler that built this binary, e.g. "GCC 12.2.0".
QString compiler_version();

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(const AboutFacts& facts, QWidget* parent = nullptr);
    QString factsText() const; // the table as plain text (what the user copies into a report)

private:
    QLabel* facts_;
};

class RunStore;

// Help → About for the loaded model (non-blocking; deletes itself when closed).
void show_about(QWidget& parent, const RunStore& store);

} // namespace octo::ui
