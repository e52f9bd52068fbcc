#include "ui/views/claim_plot_view.h"

#include <QApplication>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "engine/core/json_fields.h"
#include "ui/support/language.h"
#include "ui/support/plot.h"
#include "ui/support/subsystem_palette.h"
#include "ui/support/engine_labels.h"

namespace octo::ui {

namespace {

// The engine writes plot texts in English; these are the ones the UI translates (lupdate reads them here).
const char* const kPlotTexts[] = {
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "routing accuracy"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "share of tokens after a digit that the subsystem tops"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "accuracy"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "share among the subsystems still on"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "share of prompt tokens reused"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "relative position in the answer"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "switched off"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "items of"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "accuracy drop"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "stage 1 (embedding)"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "two-stage"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "all on"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "cache hit"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "standard"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "degraded"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "first run"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "rerun"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "append"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "edit_end"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "edit_start"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "specialisation"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "error propagation"),
    QT_TRANSLATE_NOOP("octo::ui::ClaimPlotView", "share of items"),
};

// An engine plot text in the UI's language: a known text, "<metric> share", "<id> off" or
// "<n>. <edit>"; anything else as it is.
QString translated(const std::string& english) {
    for (const char* t : kPlotTexts) {
        if (english == t) return ClaimPlotView::tr(t);
    }
    const QString s = QString::fromStdString(english);
    if (s.endsWith(QLatin1String(" share"))) { // "<metric id> share": the metric's label
        const QString what = s.chopped(6);
        const auto metric = parse_metric(what.toStdString());
        return ClaimPlotView::tr("%1 share").arg(metric ? metric_label(*metric) : what);
    }
    if (s.endsWith(QLatin1String(" off"))) return ClaimPlotView::tr("%1 off").arg(s.chopped(4));
    if (s.endsWith(QLatin1String(" groups"))) return ClaimPlotView::tr("%1 groups").arg(s.chopped(7));
    if (const qsizetype dot = s.indexOf(QLatin1String(". ")); dot > 0) {
        return s.left(dot + 2) + translated(s.mid(dot + 2).toStdString());
    }
    return s;
}

QString text(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_string() ? translated(j[key].get<std::string>()) : QString();
}

double number(const nlohmann::json& j, double fallback = std::nan("")) {
    return j.is_number() ? j.get<double>() : fallback;
}

// Labels at 1 … n (no fractional positions on a categorical axis).
QSharedPointer<QCPAxisTickerText> label_ticks(const nlohmann::json& labels, int offset = 1) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t i = 0; i < labels.size(); ++i) ticker->addTick(static_cast<double>(i) + offset, translated(labels[i].get<std::string>()));
    return ticker;
}

} // namespace

ClaimPlotView::ClaimPlotView(QWidget* parent) : ClaimFigure(parent) {
    showClaim(nullptr, nullptr);
}

void ClaimPlotView::showClaim(const Claim* claim, const ClaimResult* result) {
    kind_.clear();
    const bool has_plot = result && result->details.contains("plot") && result->details["plot"].is_object();
    if (!has_plot) {
        showMessage(!claim ? tr("Select a claim.")
                    : !claim->measurable()
                        ? tr("Not measurable here: %1")
                              .arg(QString::fromStdString(claim->not_measurable_here.in(installed_language() == QLatin1String("zh_CN"))))
                    : !result ? tr("Not run yet: press Run Selected or Run All.")
                              : tr("No plot: %1").arg(QString::fromStdString(result->reason.empty() ? std::string("nothing was measured") : result->reason)));
        return;
    }
    newPlot(QStringLiteral("claimPlot"));
    const nlohmann::json& p = result->details["plot"];
    kind_ = text(p, "kind");
    if (kind_ == QLatin1String("bars")) drawBars(p);
    else if (kind_ == QLatin1String("profile")) drawProfile(p);
    else if (kind_ == QLatin1String("matrix")) drawMatrix(p);
    else if (kind_ == QLatin1String("histogram")) drawHistogram(p);
    plot_->setHome(plot_->xAxis->range(), plot_->yAxis->range());
    plot_->replot();
}

void ClaimPlotView::drawBars(const nlohmann::json& p) {
    const nlohmann::json& labels = p["labels"];
    const nlohmann::json& series = p["series"];
    const bool intervals = !json_bool_or(p, "no_intervals", false);
    const QColor colours[] = {QApplication::palette().color(QPalette::Highlight), QColor(213, 94, 0), QColor(0, 158, 115)};
    auto* group = series.size() > 1 ? new QCPBarsGroup(plot_) : nullptr;
    const double width = 0.7 / static_cast<double>(std::max<size_t>(series.size(), 1));
    double lo = 0.0, hi = 0.0;
    for (size_t k = 0; k < series.size(); ++k) {
        const nlohmann::json& s = series[k];
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setWidth(width);
        const QColor colour = colours[k % 3];
        bars->setPen(QPen(colour.darker(130)));
        bars->setBrush(colour);
        bars->setName(text(s, "name"));
        if (group) bars->setBarsGroup(group);
        auto* errors = intervals ? new QCPErrorBars(plot_->xAxis, plot_->yAxis) : nullptr;
        if (errors) {
            errors->setDataPlottable(bars);
            errors->setPen(QPen(QApplication::palette().color(QPalette::WindowText), 1.5));
            errors->removeFromLegend();
        }
        for (size_t i = 0; i < s["values"].size(); ++i) {
            const double v = number(s["values"][i], 0.0);
            bars->addData(static_cast<double>(i) + 1, v);
            const double l = intervals ? number(s["lo"][i], v) : v;
            const double h = intervals ? number(s["hi"][i], v) : v;
            if (errors) errors->addData(v - l, h - v);
            lo = std::min({lo, l, v});
            hi = std::max({hi, h, v});
        }
    }
    if (series.size() > 1) {
        plot_->legend->setFont(font());
        plot_->placeLegendBelow(static_cast<int>(series.size()));
    }
    const bool zh = installed_language() == QLatin1String("zh_CN") && p.contains("labels_zh");
    plot_->xAxis->setTicker(label_ticks(zh ? p["labels_zh"] : labels));
    plot_->xAxis->setTickLabelRotation(labels.size() > 8 ? 45 : 0);
    plot_->xAxis->setSubTicks(false);
    plot_->xAxis->setRange(0.4, static_cast<double>(labels.size()) + 0.6);
    const double pad = std::max(0.05, 0.08 * (hi - lo));
    plot_->yAxis->setRange(lo < 0 ? lo - pad : 0.0, hi + pad);
    plot_->yAxis->setLabel(text(p, "y_label"));
}

void ClaimPlotView::drawProfile(const nlohmann::json& p) {
    const nlohmann::json& x = p["x"];
    const QString highlight = text(p, "highlight");
    plot_->legend->setFont(font());
    plot_->placeLegendBelow(4); // eight subsystems in two rows of four, under the curves
    double hi = 0.0;
    for (const nlohmann::json& s : p["series"]) {
        const QString name = text(s, "name");
        int index = 0;
        for (int k = 0; k < 8; ++k) {
            if (subsystem_id(k) == name) index = k;
        }
        QColor colour = subsystem_color(index);
        const bool main = name == highlight;
        if (!main) colour.setAlpha(110);
        auto* line = plot_->addGraph();
        line->setName(name);
        line->setPen(QPen(colour, main ? 3.0 : 1.2));
        line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, main ? 7 : 4));
        QCPGraph* low = nullptr;
        QCPGraph* high = nullptr;
        if (main) { // the 95 % band
            low = plot_->addGraph();
            high = plot_->addGraph();
            for (QCPGraph* g : {low, high}) {
                g->setPen(Qt::NoPen);
                g->removeFromLegend();
            }
            QColor band = colour;
            band.setAlpha(60);
            high->setBrush(band);
            high->setChannelFillGraph(low);
        }
        for (size_t b = 0; b < x.size(); ++b) {
            if (!s["values"][b].is_number()) continue; // no token fell in this bin
            const double v = s["values"][b].get<double>();
            line->addData(x[b].get<double>(), v);
            hi = std::max(hi, v);
            if (main) {
                low->addData(x[b].get<double>(), number(s["lo"][b], v));
                high->addData(x[b].get<double>(), number(s["hi"][b], v));
                hi = std::max(hi, number(s["hi"][b], v));
            }
        }
    }
    plot_->xAxis->setRange(0.0, 1.0);
    plot_->xAxis->setLabel(text(p, "x_label"));
    plot_->yAxis->setRange(0.0, hi * 1.08 + 0.02);
    plot_->yAxis->setLabel(text(p, "y_label"));
}

void ClaimPlotView::drawMatrix(const nlohmann::json& p) {
    const nlohmann::json& values = p["values"];
    const auto rows = static_cast<int>(values.size());
    const int cols = rows > 0 ? static_cast<int>(values[0].size()) : 0;
    QCPColorMap* map = plot_->addColorMap(text(p, "value_label"));
    map->data()->setSize(cols, rows);
    map->data()->setRange(QCPRange(1, cols), QCPRange(1, rows));
    double extreme = 0.05;
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            const double v = number(values[static_cast<size_t>(i)][static_cast<size_t>(j)], 0.0);
            map->data()->setCell(j, i, v);
            extreme = std::max(extreme, std::abs(v));
        }
    }
    Plot::setDiverging(map, extreme); // signed changes: 0 neutral
    // Each cell's value on hover, and with the keyboard (Tab, then the arrow keys).
    plot_->setHoverText([values, row_labels = p["rows"], col_labels = p["cols"], value_label = text(p, "value_label"), rows,
                         cols](double x, double y) -> QString {
        const auto j = static_cast<int>(std::lround(x)) - 1, i = static_cast<int>(std::lround(y)) - 1;
        if (i < 0 || j < 0 || i >= rows || j >= cols || i >= static_cast<int>(row_labels.size()) || j >= static_cast<int>(col_labels.size())) {
            return QString();
        }
        const nlohmann::json& v = values[static_cast<size_t>(i)][static_cast<size_t>(j)];
        return ClaimPlotView::tr("%1 switched off, items of %2: %3 %4")
            .arg(translated(row_labels[static_cast<size_t>(i)].get<std::string>()), translated(col_labels[static_cast<size_t>(j)].get<std::string>()),
                 value_label, v.is_number() ? QString::number(v.get<double>(), 'f', 3) : QStringLiteral("—"));
    });
    plot_->setKeyboardCells(true);
    plot_->xAxis->setTicker(label_ticks(p["cols"]));
    plot_->yAxis->setTicker(label_ticks(p["rows"]));
    for (QCPAxis* a : {plot_->xAxis, plot_->yAxis}) a->setSubTicks(false);
    plot_->xAxis->setRange(0.5, cols + 0.5);
    plot_->yAxis->setRange(0.5, rows + 0.5);
    plot_->yAxis->setRangeReversed(true);
    plot_->xAxis->setLabel(text(p, "col_label"));
    plot_->yAxis->setLabel(text(p, "row_label"));
}

void ClaimPlotView::drawHistogram(const nlohmann::json& p) {
    const QString series = text(p, "series") == QLatin1String("first_token") ? QStringLiteral("first_token_ms") : QStringLiteral("total_ms");
    const nlohmann::json& h = p[series.toStdString()];
    const nlohmann::json& edges = h["edges"];
    const nlohmann::json& counts = h["counts"];
    const double width = edges.size() > 1 ? edges[1].get<double>() - edges[0].get<double>() : 1.0;
    // The article's bands (unscaled) behind the bars, where the measured times reach them.
    const QColor band_colours[] = {QColor(0, 158, 115, 45), QColor(86, 180, 233, 45), QColor(213, 94, 0, 45)};
    double top = 1.0;
    for (const nlohmann::json& c : counts) top = std::max(top, c.get<double>());
    top *= 1.2;
    int b = 0;
    for (const nlohmann::json& band : p["bands"]) {
        auto* rect = new QCPItemRect(plot_);
        rect->topLeft->setCoords(band["from"].get<double>(), top);
        rect->bottomRight->setCoords(band["to"].get<double>(), 0.0);
        rect->setPen(Qt::NoPen);
        rect->setBrush(band_colours[b % 3]);
        auto* label = new QCPItemText(plot_);
        label->position->setCoords((band["from"].get<double>() + band["to"].get<double>()) / 2, top);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
        label->setText(text(band, "name"));
        label->setColor(QApplication::palette().color(QPalette::WindowText));
        ++b;
    }
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars->setWidth(width * 0.9);
    const QColor colour = QApplication::palette().color(QPalette::Highlight);
    bars->setBrush(colour);
    bars->setPen(QPen(colour.darker(130)));
    for (size_t i = 0; i < counts.size(); ++i) bars->addData(edges[i].get<double>() + width / 2, counts[i].get<double>());
    plot_->xAxis->setRange(0.0, edges.empty() ? 1.0 : edges.back().get<double>());
    plot_->xAxis->setLabel(series == QLatin1String("total_ms") ? tr("total time (ms)") : tr("time to first token (ms)"));
    plot_->setWholeNumbers(plot_->yAxis);
    plot_->yAxis->setRange(0.0, top);
    plot_->yAxis->setLabel(tr("prompts"));
}

bool ClaimPlotView::savePng(const QString& path, int width, int height) {
    return plot_ && plot_->savePng(path, width, height);
}

} // namespace octo::ui
