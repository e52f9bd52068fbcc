#include "ui/views/head_heatmap_view.h"

#include <QComboBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "ui/support/plot_style.h"
#include "ui/session/run_store.h"
#include "ui/support/internals_note.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

HeadHeatmapView::HeadHeatmapView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    internals_ = new InternalsNote(this);
    scope_ = new_scope_box(this, tr("Which positions the layer × head values come from"));
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("headHeatmapPlot"));
    apply_palette(*plot_);
    map_ = add_color_map(*plot_, tr("value"));
    plot_->xAxis->setLabel(tr("head (subsystem)"));
    plot_->yAxis->setLabel(tr("layer"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(scope_);
    layout->addWidget(plot_, 1);
    connect(scope_, &QComboBox::currentIndexChanged, this, &HeadHeatmapView::refresh);
    for (auto signal : {&RunStore::runChanged, &RunStore::runFinished, &RunStore::selectionChanged, &RunStore::metricChanged}) {
        connect(&store_, signal, this, &HeadHeatmapView::refresh);
    }
    connect(&store_, &RunStore::tokensAppended, this, &HeadHeatmapView::refresh);
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

void HeadHeatmapView::refresh() {
    const RunRecord* run = store_.current();
    internals_->showFor(run);
    const auto& model = store_.shown_model();
    values_.clear();
    n_layer_ = n_head_ = 0;
    plot_->clearItems();
    if (!run || !model) {
        map_->data()->clear();
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    n_layer_ = static_cast<int>(model->n_layer);
    n_head_ = static_cast<int>(model->n_head);
    const auto [begin, end] = token_range(static_cast<TokenScope>(scope_->currentData().toInt()), *run, store_.selected_token());
    values_.assign(static_cast<size_t>(n_layer_ * n_head_), std::numeric_limits<double>::quiet_NaN());
    std::vector<double> sum(values_.size(), 0.0);
    int count = 0;
    for (size_t i = begin; i < end; ++i) {
        const std::vector<float> v = per_head(run->tokens()[i]);
        if (v.size() != sum.size()) continue;
        for (size_t k = 0; k < v.size(); ++k) sum[k] += v[k];
        ++count;
    }
    if (count > 0) {
        for (size_t k = 0; k < sum.size(); ++k) values_[k] = sum[k] / count;
    }
    map_->data()->setSize(n_head_, n_layer_);
    map_->data()->setRange(QCPRange(0, n_head_ - 1), QCPRange(0, n_layer_ - 1));
    for (int l = 0; l < n_layer_; ++l) {
        for (int h = 0; h < n_head_; ++h) map_->data()->setCell(h, l, values_[static_cast<size_t>(l * n_head_ + h)]);
    }
    map_->rescaleDataRange(true);
    // Subsystem boundaries (from layer 0 of the map) and labels under the heads.
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    if (model->head_map) {
        int start = 0;
        for (int h = 1; h <= n_head_; ++h) {
            const int s = model->head_map->subsystem_of(0, start);
            if (h < n_head_ && model->head_map->subsystem_of(0, h) == s) continue;
            ticker->addTick((start + h - 1) / 2.0, subsystem_id(s));
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
    plot_->xAxis->setRange(-0.5, n_head_ - 0.5);
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
    plot_->yAxis->setRange(-0.5, n_layer_ - 0.5);
    const Metric m = store_.metric();
    map_->colorScale()->axis()->setLabel(m == Metric::Dla ? tr("DLA (logits)") : m == Metric::Gates ? tr("gate") : tr("‖W_h z_h‖"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
