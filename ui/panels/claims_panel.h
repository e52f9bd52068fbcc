// The Claims dock (docs/claims.md): the article's claims with the article's figure, the value
// measured on the loaded model with its 95 % interval, n and a verdict badge; Run Selected / Run
// All (ClaimsController runs them in the engine thread) with progress and Cancel; the selected claim's text, method and plot;
// Export Report (report.md, a PNG per plot, CSV per series) and a presenter mode that steps
// through the claims one by one for a lecture. State lives in ClaimsStore; the panel only shows it.
#pragma once

#include <QColor>
#include <QWidget>

#include "engine/claims/claim_catalog.h"
#include "engine/claims/claims_report.h"

class QLabel;
class QProgressBar;
class QSplitter;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTextBrowser;
class QTreeWidget;
class QVBoxLayout;

namespace octo::ui {

class ClaimsStore;
class ClaimPlotView;
class ClaimVerdictView;

class ClaimsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ClaimsPanel(ClaimsStore& store, QWidget* parent = nullptr);

    void setModelLoaded(bool loaded);

    void runSelected();
    void runAll();
    void cancel();
    // Writes report.md (in the UI's language), one PNG per plotted claim and the CSVs into
    // `folder`; false with a status message when something could not be written.
    bool exportReport(const QString& folder);
    void openPresenter();

    QTreeWidget* list() const { return list_; }
    ClaimPlotView* plotView() const { return plot_; }
    ClaimVerdictView* verdictView() const { return verdict_; }
    QTabWidget* tabs() const { return tabs_; }
    QProgressBar* progressBar() const { return progress_; }
    QTextBrowser* detail() const { return detail_; }
    QSpinBox* itemsBox() const { return items_; }
    QSpinBox* seedBox() const { return seed_; }
    void selectClaim(const QString& id);

signals:
    void statusMessage(const QString& text);
    // Run Selected / Run All with the panel's seed and items per claim; Cancel while one runs.
    void runRequested(const std::vector<std::string>& ids, quint64 seed, int items);
    void cancelRequested();

protected:
    void resizeEvent(QResizeEvent* event) override; // the one-line note is elided to the width

private:
    void createControls(QVBoxLayout* layout);
    QSplitter* createViews();
    void connectActions();
    void followStore();
    void retranslate();
    void submit(const std::vector<std::string>& ids);
    void refreshList();
    void refreshDetail();
    void refreshButtons();
    QString selectedId() const;

    ClaimsStore& store_;
    bool model_loaded_ = false;
    QPushButton* run_selected_;
    QPushButton* run_all_;
    QPushButton* cancel_;
    QPushButton* export_;
    QPushButton* present_;
    QSpinBox* items_;
    QSpinBox* seed_;
    QProgressBar* progress_;
    QLabel* note_;
    QTreeWidget* list_;
    QTabWidget* tabs_;
    QTextBrowser* detail_;
    ClaimPlotView* plot_;
    ClaimVerdictView* verdict_; // the measured interval against threshold, control and the article's figure
};

// How a verdict reads in the UI (translated) and its badge colour.
QString verdict_label(Verdict verdict);
QColor verdict_colour(Verdict verdict);
// The claim in the UI's language.
QString claim_text(const Claim& claim);
QString claim_title(const Claim& claim); // the short title, in the UI's language
QString claim_holds_text(const Claim& claim);
QString claim_not_measurable_text(const Claim& claim); // why nothing here can measure it
QString claims_note_text(const ClaimsReport& report);

} // namespace octo::ui
