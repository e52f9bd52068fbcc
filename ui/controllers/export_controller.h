// File → Export Screenshot…, Export Plots… and Export Run Data…: the window as a PNG, every plot
// as a PNG named after it, and the shown run as JSON with a CSV beside it (ui/reports/run_export.h).
// The pictures come from the ScreenshotProvider, never from the window itself.
#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace octo::ui {

class RunStore;
class ScreenshotProvider;

class ExportController : public QObject {
    Q_OBJECT
public:
    // `dialogs` parents the file dialogs and warnings.
    ExportController(QWidget& dialogs, ScreenshotProvider& pictures, RunStore& store, QObject* parent = nullptr);

    bool exportScreenshot(const QString& path);
    bool exportPlots(const QString& folder);
    bool exportRunData(const QString& json_path, const QString& csv_path); // false: no run shown, or not written
    // The same, asking where first; a warning when it could not be written.
    void askScreenshot();
    void askPlots();
    void askRunData();

private:
    QWidget& dialogs_;
    ScreenshotProvider& pictures_;
    RunStore& store_;
};

} // namespace octo::ui
