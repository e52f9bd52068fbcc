#include "ui/controllers/export_controller.h"

#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QRegularExpression>

#include "ui/session/run_store.h"
#include "ui/support/file_save.h"
#include "ui/support/plot.h"
#include "ui/reports/run_export.h"
#include "ui/support/window_services.h"

namespace octo::ui {

ExportController::ExportController(QWidget& dialogs, ScreenshotProvider& pictures, RunStore& store, QObject* parent)
    : QObject(parent), dialogs_(dialogs), pictures_(pictures), store_(store) {}

bool ExportController::exportScreenshot(const QString& path) { return save_png(pictures_.windowPicture(), path); }

bool ExportController::exportPlots(const QString& folder) {
    bool ok = true;
    for (Plot* plot : pictures_.plots()) {
        ok = save_png(plot->toPixmap(800, 500), QDir(folder).filePath(plot_file_name(*plot) + QStringLiteral(".png"))) && ok;
    }
    return ok;
}

bool ExportController::exportRunData(const QString& json_path, const QString& csv_path) {
    const RunRecord* r = store_.current();
    if (!r) return false;
    return save_file(json_path, run_to_json(*r)) && save_file(csv_path, run_to_csv(*r));
}

void ExportController::askScreenshot() {
    const QString path = QFileDialog::getSaveFileName(&dialogs_, tr("Save the window as PNG"), QStringLiteral("octoscope.png"),
                                                      tr("PNG images (*.png)"));
    if (!path.isEmpty() && !exportScreenshot(path)) QMessageBox::warning(&dialogs_, tr("Export"), tr("Cannot write %1").arg(path));
}

void ExportController::askPlots() {
    const QString dir = QFileDialog::getExistingDirectory(&dialogs_, tr("Folder for the plot PNGs"));
    if (!dir.isEmpty() && !exportPlots(dir)) QMessageBox::warning(&dialogs_, tr("Export"), tr("Cannot write into %1").arg(dir));
}

void ExportController::askRunData() {
    const QString path = QFileDialog::getSaveFileName(&dialogs_, tr("Save run data (JSON; a CSV is written beside it)"),
                                                      QStringLiteral("run.json"), tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    QString csv = path;
    csv.replace(QRegularExpression(QStringLiteral("\\.json$")), QString());
    if (!exportRunData(path, csv + QStringLiteral(".csv"))) {
        QMessageBox::warning(&dialogs_, tr("Export"), tr("No run to export, or cannot write %1").arg(path));
    }
}

} // namespace octo::ui
