#include "ui/views/head_heatmap_view.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "ui/support/retranslate.h"
#include "ui/support/plot.h"
#include "ui/views/linked_views.h"
#include "ui/views/token_chips.h"
#include "ui/session/run_store.h"
#include "ui/support/internals_note.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

HeadHeatmapView::HeadHeatmapView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    internals_ = new InternalsNote(this);
    scope_ = new_scope_box(this);
    plot_ = new Plot(QStringLiteral("headHeatmapPlot"), this);
    plot_->keepLabelsApart(plot_->xAxis); // group names over narrow groups stand on end
    plot_->setKeyboardCells(true); // Tab reaches it; the arrow keys walk its cells
    map_ = plot_->addColorMap(QString());
    plot_->setHoverText([this](double x, double y) { return hoverText(static_cast<int>(std::lround(y)), static_cast<int>(std::lround(x))); });
    // Once the plot knows its axis rect's width (any size): labels side by side or upright.
    connect(plot_, &QCustomPlot::afterLayout, this, &HeadHeatmapView::fitGroupLabels);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(scope_);
    layout->addWidget(plot_, 1);
    connect(scope_, &QComboBox::currentIndexChanged, this, &HeadHeatmapView::refresh);
    for (auto signal : {&RunStore::runChanged, &RunStore::runFinished, &RunStore::selectionChanged, &RunStore::metricChanged}) {
        connect(&store_, signal, this, &HeadHeatmapView::refresh);
    }
    connect(&store_, &RunStore::tokensAppended, this, &HeadHeatmapView::refresh);
    // Linked views: a click picks the head (every view follows), the pointer's cell is the hover.
    link_layer_map(*plot_, store_, MapUnit::Head, [this] { return std::pair{n_layer_, n_head_}; });
    connect(&store_, &RunStore::focusChanged, this, &HeadHeatmapView::updateMarks);
    connect(&store_, &RunStore::hoverChanged, this, &HeadHeatmapView::updateMarks);
    on_language_change(this, [this] {
        scope_->setToolTip(tr("Which positions the layer × head values come from"));
        plot_->xAxis->setLabel(tr("head (subsystem)"));
        plot_->yAxis->setLabel(tr("layer"));
        map_->colorScale()->axis()->setLabel(metric_label());
        refresh(); // the empty state until a run
    });
}

// The focused head's cell (or the focused layer's row) solid, the hovered one dashed.
void HeadHeatmapView::updateMarks() {
    const auto mark = [this](int layer, int head) -> std::optional<Plot::Span> {
        if (layer < 0 || layer >= n_layer_) return std::nullopt;
        if (head >= 0 && head < n_head_) return cell_span(head, layer);
        return row_span(layer, -0.5, n_head_ - 0.5);
    };
    plot_->setMarks({.selected = mark(store_.focus().layer, store_.focus().head), .hovered = mark(store_.hover().layer, store_.hover().head), .band = std::nullopt});
}

void HeadHeatmapView::setScope(TokenScope scope) { scope_->setCurrentIndex(static_cast<int>(scope)); }

double HeadHeatmapView::cell(int layer, int head) const {
    if (layer < 0 || head < 0 || layer >= n_layer_ || head >= n_head_) return std::numeric_limits<double>::quiet_NaN();
    return values_[static_cast<size_t>(layer * n_head_ + head)];
}

std::vector<float> HeadHeatmapView::per_head(const TraceToken& t) const {
    const auto& model = store_.shown_model();
    if (!model) return {};
    switch (store_.metric()) {
    case Metric::Dla: return t.probe.dla;
    case Metric::Gates: {
        const int64_t groups = model->router_groups;
        if (t.probe.gates.empty() || groups <= 0 || model->n_head % groups != 0 ||
            static_cast<int64_t>(t.probe.gates.size()) != model->n_layer * groups) {
            return {};
        }
        std::vector<float> v(static_cast<size_t>(model->n_layer * model->n_head));
        for (int64_t l = 0; l < model->n_layer; ++l) {
            for (int64_t h = 0; h < model->n_head; ++h) {
                v[static_cast<size_t>(l * model->n_head + h)] =
                    t.probe.gates[static_cast<size_t>(l * groups + h / (model->n_head / groups))];
            }
        }
        return v;
    }
    default: return t.probe.head_norms;
    }
}

QString HeadHeatmapView::hoverText(int layer, int head) const {
    const double v = cell(layer, head);
    if (std::isnan(v)) return {};
    const auto& model = store_.shown_model();
    QString group;
    if (model && model->head_map) group = QStringLiteral(" (%1)").arg(head_group_label(*model, model->head_map->subsystem_of(layer, head)));
    QString where = scope_->currentText();
    const RunRecord* run = store_.current();
    if (run && static_cast<TokenScope>(scope_->currentData().toInt()) == TokenScope::SelectedToken) {
        const auto [begin, end] = token_range(TokenScope::SelectedToken, *run, store_.focused_token());
        if (begin < end) where = tr("token %1 “%2”").arg(begin).arg(token_display_text(run->tokens()[begin].bytes));
    }
    return tr("layer %1, head %2%3\n%4\n%5 = %6").arg(layer).arg(head).arg(group, where, metric_label()).arg(v, 0, 'g', 4);
}

QString HeadHeatmapView::metric_label() const {
    const Metric m = store_.metric();
    return m == Metric::Dla ? tr("DLA (logits)") : m == Metric::Gates ? tr("gate") : tr("‖W_h z_h‖");
}

void HeadHeatmapView::refresh() {
    const RunRecord* run = store_.current();
    internals_->showFor(run);
    const auto& model = store_.shown_model();
    values_.clear();
    n_layer_ = n_head_ = 0;
    plot_->clearItems();
    if (!run || !model) {
        map_->data()->clear();
        plot_->showNoData(tr("No run yet: type a prompt and press Ctrl+Enter."));
        return;
    }
    n_layer_ = static_cast<int>(model->n_layer);
    n_head_ = static_cast<int>(model->n_head);
    const auto [begin, end] = token_range(static_cast<TokenScope>(scope_->currentData().toInt()), *run, store_.focused_token());
    values_.assign(static_cast<size_t>(n_layer_ * n_head_), std::numeric_limits<double>::quiet_NaN());
    std::vector<double> sum(values_.size(), 0.0);
    int count = 0;
    for (size_t i = begin; i < end; ++i) {
        const std::vector<float> v = per_head(run->tokens()[i]);
        if (v.size() != sum.size()) continue;
        for (size_t k = 0; k < v.size(); ++k) sum[k] += v[k];
        ++count;
    }
    if (count == 0) { // nothing recorded for these positions: say which and why, never a plot of zeros
        values_.clear();
        map_->data()->clear();
        const Metric m = store_.metric();
        plot_->showNoData(begin >= end ? tr("No positions in this scope yet.")
                          : m == Metric::Dla ? tr("DLA was not recorded for this run. Tick “DLA” in the prompt panel and run again.")
                          : m == Metric::Gates ? tr("This model has no router gates to show per head. Colour by norm share instead.")
                                               : tr("Per-head values were not recorded for this run."));
        return;
    }
    for (size_t k = 0; k < sum.size(); ++k) values_[k] = sum[k] / count;
    map_->data()->setSize(n_head_, n_layer_);
    map_->data()->setRange(QCPRange(0, n_head_ - 1), QCPRange(0, n_layer_ - 1));
    for (int l = 0; l < n_layer_; ++l) {
        for (int h = 0; h < n_head_; ++h) map_->data()->setCell(h, l, values_[static_cast<size_t>(l * n_head_ + h)]);
    }
    double lo = 0.0, hi = 0.0;
    for (double v : values_) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (store_.metric() == Metric::Dla) Plot::setDiverging(map_, std::max(std::fabs(lo), std::fabs(hi))); // signed: 0 is neutral
    else Plot::setSequential(map_, QCPRange(lo, hi));
    // Subsystem boundaries (from layer 0 of the map) and labels under the heads.
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    if (model->head_map) {
        int start = 0;
        for (int h = 1; h <= n_head_; ++h) {
            const int s = model->head_map->subsystem_of(0, start);
            if (h < n_head_ && model->head_map->subsystem_of(0, h) == s) continue;
            ticker->addTick((start + h - 1) / 2.0, head_group_short(*model, s));
            if (h < n_head_) {
                auto* line = new QCPItemStraightLine(plot_);
                line->point1->setCoords(h - 0.5, 0);
                line->point2->setCoords(h - 0.5, 1);
                line->setPen(QPen(palette().color(QPalette::WindowText), 1.5));
            }
            start = h;
        }
    }
    plot_->xAxis->setTicker(ticker);
    // Whole layers only, at most ~16 labels; a sliding-window layer is marked "w<window>" (it sees
    // only that many of the latest positions) and every such layer gets a tick.
    QSharedPointer<QCPAxisTickerText> layers(new QCPAxisTickerText);
    const int step = std::max(1, (n_layer_ + 15) / 16);
    int64_t window = 0;
    for (int l = 0; l < n_layer_; ++l) {
        const int64_t w = static_cast<size_t>(l) < model->layer_windows.size() ? model->layer_windows[static_cast<size_t>(l)] : 0;
        if (w > 0) {
            window = w;
            layers->addTick(l, QStringLiteral("%1 w%2").arg(l).arg(w));
        } else if (l % step == 0) {
            layers->addTick(l, QString::number(l));
        }
    }
    plot_->yAxis->setTicker(layers);
    plot_->yAxis->setLabel(window > 0 ? tr("layer (w%1: sliding window of %1 positions)").arg(window) : tr("layer"));
    plot_->setHome(QCPRange(-0.5, n_head_ - 0.5), QCPRange(-0.5, n_layer_ - 0.5));
    map_->colorScale()->axis()->setLabel(metric_label());
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// Side by side while every group's label fits the width of its heads, else turned upright.
void HeadHeatmapView::fitGroupLabels() {
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(plot_->xAxis->ticker().data()); // ticks() is not const
    if (!ticker || ticker->ticks().isEmpty() || n_head_ == 0) return;
    const QFontMetrics metrics(plot_->xAxis->tickLabelFont());
    int widest = 0;
    for (const QString& label : ticker->ticks()) widest = std::max(widest, metrics.horizontalAdvance(label));
    const double per_label = plot_->axisRect()->width() / static_cast<double>(ticker->ticks().size());
    const double rotation = widest > per_label ? -90 : 0;
    if (plot_->xAxis->tickLabelRotation() == rotation) return;
    plot_->xAxis->setTickLabelRotation(rotation);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
