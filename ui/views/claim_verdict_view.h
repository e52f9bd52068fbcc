// One claim's verdict on one axis in the claim's unit: the measured value with its 95 % interval,
// the shuffled-map control's (when the claim has one), the threshold "holds" must clear (dashed)
// and the article's figure about GPT-4 (a diamond, when it is a number) — the workbench's twin of
// the report's <id>-verdict.svg (engine/claims/claim_svg.h). Hovering a mark reads its value.
#pragma once


#include "engine/claims/claim_catalog.h"
#include "engine/claims/claim_lab.h"
#include "ui/views/claim_figure.h"

namespace octo::ui {

class ClaimVerdictView : public ClaimFigure {
    Q_OBJECT
public:
    explicit ClaimVerdictView(QWidget* parent = nullptr);

    // Draws the claim's verdict; without a measurement the view says why instead.
    void showClaim(const Claim* claim, const ClaimResult* result);
    bool hasControl() const { return has_control_; }
    bool hasArticleFigure() const { return has_figure_; }
    // The axis value (in shown units: % or pt for shares and differences) of the threshold line, or NaN.
    double thresholdShown() const { return threshold_; }

private:
    bool has_control_ = false;
    bool has_figure_ = false;
    double threshold_ = 0.0;
};

} // namespace octo::ui
