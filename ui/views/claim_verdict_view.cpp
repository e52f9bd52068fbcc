#include "ui/views/claim_verdict_view.h"

#include <QApplication>

#include <algorithm>
#include <cmath>
#include <vector>

#include <qcustomplot.h>

#include "ui/support/plot.h"

namespace octo::ui {

namespace {

constexpr double kMeasuredRow = 2.0, kControlRow = 1.0;

} // namespace

ClaimVerdictView::ClaimVerdictView(QWidget* parent) : ClaimFigure(parent) {
    showClaim(nullptr, nullptr);
}

void ClaimVerdictView::showClaim(const Claim* claim, const ClaimResult* result) {
    has_control_ = has_figure_ = false;
    threshold_ = std::nan("");
    if (!claim || !result || !result->estimate) {
        showMessage(!claim ? tr("Select a claim.")
                    : !claim->measurable() ? tr("Not measurable here: nothing to draw.")
                    : !result ? tr("Not run yet: press Run Selected or Run All.")
                              : tr("Nothing was measured, so there is no interval to draw."));
        return;
    }
    newPlot(QStringLiteral("claimVerdict"));
    // Shares and differences are shown in % and points, coefficients as they are.
    const double scale = claim->unit == ClaimUnit::Coefficient ? 1.0 : 100.0;
    const QString unit = claim->unit == ClaimUnit::Share ? tr("%") : claim->unit == ClaimUnit::Points ? tr("points") : QString();
    const Estimate& e = *result->estimate;
    const std::optional<Estimate> control = result->control ? result->control->estimate : std::nullopt;
    const std::optional<double> figure =
        claim->article_figure.is_number() ? std::optional<double>(claim->article_figure.get<double>()) : std::nullopt;
    has_control_ = control.has_value();
    has_figure_ = figure.has_value();
    threshold_ = claim->threshold * scale;

    std::vector<double> span = {e.ci95.lo, e.ci95.hi, claim->threshold};
    if (control) span.insert(span.end(), {control->ci95.lo, control->ci95.hi});
    if (figure) span.push_back(*figure);
    double lo = *std::min_element(span.begin(), span.end()) * scale, hi = *std::max_element(span.begin(), span.end()) * scale;
    if (!(hi > lo)) {
        lo -= 0.5;
        hi += 0.5;
    }
    const double pad = 0.08 * (hi - lo);

    const QColor text_colour = QApplication::palette().color(QPalette::WindowText);
    const auto row = [&](const Estimate& est, double y, const QColor& colour, const QString& name) {
        auto* ci = new QCPItemLine(plot_);
        ci->start->setCoords(est.ci95.lo * scale, y);
        ci->end->setCoords(est.ci95.hi * scale, y);
        ci->setPen(QPen(colour, 5, Qt::SolidLine, Qt::FlatCap));
        auto* point = plot_->addGraph();
        point->setName(name);
        point->setLineStyle(QCPGraph::lsNone);
        point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colour, 2), QApplication::palette().color(QPalette::Base), 10));
        point->addData(est.value * scale, y);
    };
    row(e, kMeasuredRow, QColor(0, 114, 178), tr("measured, 95 % interval"));
    if (control) row(*control, kControlRow, QColor(120, 120, 120), tr("shuffled-map control"));
    auto* threshold = new QCPItemStraightLine(plot_);
    threshold->point1->setCoords(threshold_, 0.0);
    threshold->point2->setCoords(threshold_, 1.0);
    threshold->setPen(QPen(QColor(213, 94, 0), 1.5, Qt::DashLine));
    auto* threshold_label = new QCPItemText(plot_);
    threshold_label->position->setCoords(threshold_, control ? 0.45 : kControlRow + 0.45); // the bottom of the rows shown
    // Labels stand on the side of their mark that has room.
    const double middle = (lo + hi) / 2.0;
    const QString threshold_text = tr("threshold %1").arg(QString::fromStdString(format_claim_value(claim->unit, claim->threshold)));
    threshold_label->setPositionAlignment((threshold_ > middle ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
    threshold_label->setText(threshold_ > middle ? threshold_text + QStringLiteral(" ") : QStringLiteral(" ") + threshold_text);
    threshold_label->setColor(QColor(213, 94, 0));
    if (figure) {
        auto* article = plot_->addGraph();
        article->setName(tr("article (GPT-4, unverified)"));
        article->setLineStyle(QCPGraph::lsNone);
        article->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(QColor(0, 158, 115)), QColor(0, 158, 115), 11));
        article->addData(*figure * scale, kMeasuredRow + 0.45);
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(*figure * scale, kMeasuredRow + 0.45);
        const bool right_half = *figure * scale > middle;
        label->setPositionAlignment((right_half ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        label->setText(right_half ? tr("article") + QStringLiteral("  ") : QStringLiteral("  ") + tr("article")); // hover: its value
        label->setColor(QColor(0, 158, 115));
    }
    // Marks are named on the axis and beside them (a legend would take the narrow dock's width).
    QSharedPointer<QCPAxisTickerText> rows(new QCPAxisTickerText);
    rows->addTick(kMeasuredRow, tr("measured"));
    if (control) rows->addTick(kControlRow, tr("control"));
    plot_->yAxis->setTicker(rows);
    plot_->yAxis->setSubTicks(false);
    plot_->yAxis->grid()->setVisible(false);
    plot_->xAxis->setLabel(unit);
    plot_->xAxis->setTickLabelColor(text_colour);
    // The readout: each mark's value in the claim's own format.
    plot_->setHoverText([claim_copy = *claim, e, control, figure, scale](double x, double y) -> QString {
        const auto value = [&](double v) { return QString::fromStdString(format_claim_value(claim_copy.unit, v)); };
        const auto interval = [&](const Estimate& est) {
            return QStringLiteral("%1 [%2, %3]").arg(value(est.value), value(est.ci95.lo), value(est.ci95.hi));
        };
        if (std::abs(y - kMeasuredRow) < 0.3 && x >= e.ci95.lo * scale && x <= e.ci95.hi * scale) return tr("measured: %1").arg(interval(e));
        if (control && std::abs(y - kControlRow) < 0.3 && x >= control->ci95.lo * scale && x <= control->ci95.hi * scale) {
            return tr("shuffled-map control: %1").arg(interval(*control));
        }
        if (figure && std::abs(y - kMeasuredRow - 0.45) < 0.25 && std::abs(x - *figure * scale) < 0.03 * scale) {
            return tr("article (GPT-4, unverified): %1").arg(value(*figure));
        }
        return QString();
    });
    plot_->setHome(QCPRange(lo - pad, hi + pad), QCPRange(control ? 0.4 : 1.4, kMeasuredRow + 0.8));
    plot_->replot();
}

} // namespace octo::ui
