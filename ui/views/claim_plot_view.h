// One claim's plot (docs/claims.md), drawn from the "plot" its protocol put in the result's
// details: bars with 95 % error bars, position profiles with bands, the 8 × 8 cross-effect matrix,
// (colour scale; each cell's value on hover and with the keyboard), or the latency histogram
// with the article's bands, unscaled. The plot is
// rebuilt for every claim shown (the kinds share no axes); savePng writes it for reports.
#pragma once


#include "engine/claims/claim_catalog.h"
#include "engine/claims/claim_lab.h"
#include "ui/views/claim_figure.h"

namespace octo::ui {

class ClaimPlotView : public ClaimFigure {
    Q_OBJECT
public:
    explicit ClaimPlotView(QWidget* parent = nullptr);

    // Draws `result`'s plot; with no result (or no plot) the view says why instead.
    void showClaim(const Claim* claim, const ClaimResult* result);
    QString plotKind() const { return kind_; } // "bars", "profile", "matrix", "histogram" or empty
    // The plot as a PNG of this size; false when nothing is drawn or the file cannot be written.
    bool savePng(const QString& path, int width, int height);

private:
    void drawBars(const nlohmann::json& p);
    void drawProfile(const nlohmann::json& p);
    void drawMatrix(const nlohmann::json& p);
    void drawHistogram(const nlohmann::json& p);

    QString kind_;
};

} // namespace octo::ui
