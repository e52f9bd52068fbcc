#include "ui/views/subsystem_strip_view.h"

#include <QVBoxLayout>

#include <cmath>

#include "engine/instrumentation/subsystem.h"
#include "ui/support/plot.h"
#include "ui/views/linked_views.h"
#include "ui/views/token_chips.h"
#include "ui/session/run_store.h"
#include "ui/support/internals_note.h"
#include "ui/support/subsystem_palette.h"
#include "ui/support/engine_labels.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

SubsystemStripView::SubsystemStripView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    internals_ = new InternalsNote(this);
    plot_ = new Plot(QStringLiteral("subsystemStripPlot"), this);
    plot_->setKeyboardCells(true); // Tab reaches it; the arrow keys walk its cells
    map_ = plot_->addColorMap(QString()); // the metric's label: refresh
    plot_->setWholeNumbers(plot_->xAxis);
    plot_->yAxis->setRangeReversed(true);
    plot_->setHoverText([this](double x, double y) { return hoverText(static_cast<int>(std::lround(x)), static_cast<int>(std::lround(y))); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(plot_);
    for (auto signal : {&RunStore::runChanged, &RunStore::runFinished, &RunStore::metricChanged, &RunStore::selectionChanged}) {
        connect(&store_, signal, this, &SubsystemStripView::refresh);
    }
    connect(&store_, &RunStore::tokensAppended, this, &SubsystemStripView::refresh);
    link_token_plot(*plot_, store_, [this] { return store_.current() ? static_cast<int>(store_.current()->tokens().size()) : 0; });
    connect(&store_, &RunStore::hoverChanged, this, &SubsystemStripView::updateMarks);
    connect(&store_, &RunStore::focusChanged, this, &SubsystemStripView::updateMarks);
    on_language_change(this, [this] {
        plot_->xAxis->setLabel(tr("token"));
        refresh(); // the empty state until a run
    });
}

// The hovered token's column dashed, the selected conversation turn's positions tinted.
void SubsystemStripView::updateMarks() {
    const RunRecord* run = store_.current();
    const int t = store_.hover().token;
    plot_->setMarks({.selected = std::nullopt,
                     .hovered = t >= 0 ? std::optional(column_span(t)) : std::nullopt,
                     .band = run ? turn_band(*run, store_.focus().turn) : std::nullopt});
}

QString SubsystemStripView::hoverText(int token, int group) const {
    const RunRecord* run = store_.current();
    const auto& model = store_.shown_model();
    if (!run || !model || token < 0 || group < 0 || group >= kSubsystemCount || token >= static_cast<int>(run->tokens().size())) return {};
    const TraceToken& t = run->tokens()[static_cast<size_t>(token)];
    const auto& v = t.metrics.get(store_.metric());
    if (!v) return {};
    return tr("token %1 “%2” (%3)\n%4: %5 = %6")
        .arg(token)
        .arg(token_display_text(t.bytes), t.generated ? tr("generated") : tr("prompt"), head_group_label(*model, group),
             metric_label(store_.metric()))
        .arg((*v)[static_cast<size_t>(group)], 0, 'g', 4);
}

void SubsystemStripView::refresh() {
    const RunRecord* run = store_.current();
    internals_->showFor(run);
    plot_->clearItems();
    const auto& model = store_.shown_model();
    const int n = run ? static_cast<int>(run->tokens().size()) : 0;
    bool any = false;
    double extent = 0.0;
    for (int t = 0; t < n; ++t) {
        if (const auto& v = run->tokens()[static_cast<size_t>(t)].metrics.get(store_.metric())) {
            any = true;
            for (float x : *v) extent = std::max(extent, std::fabs(double(x)));
        }
    }
    if (!run || !model || !any) {
        map_->data()->clear();
        const Metric m = store_.metric();
        plot_->showNoData(!run || !model ? tr("No run yet: type a prompt and press Ctrl+Enter.")
                          : n == 0      ? tr("No tokens yet.")
                          : m == Metric::Dla ? tr("DLA was not recorded for this run. Tick “DLA” in the prompt panel and run again.")
                                             : tr("“%1” was not recorded for this run.").arg(metric_label(m)));
        return;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    // Head metrics: a group the head map gives no heads says so (its row is always empty).
    const Metric metric = store_.metric();
    const bool per_head = metric == Metric::NormShare || metric == Metric::Relative || metric == Metric::Dla;
    for (int s = 0; s < kSubsystemCount; ++s) {
        const QString label = head_group_short(*model, s);
        ticker->addTick(s, per_head && group_has_no_heads(*model, s) ? tr("%1 (no heads)").arg(label) : label);
    }
    plot_->yAxis->setTicker(ticker);
    map_->data()->setSize(std::max(1, n), kSubsystemCount);
    map_->data()->setRange(QCPRange(0, std::max(1, n - 1)), QCPRange(0, kSubsystemCount - 1));
    map_->data()->fill(std::numeric_limits<double>::quiet_NaN());
    for (int t = 0; t < n; ++t) {
        const auto& v = run->tokens()[static_cast<size_t>(t)].metrics.get(store_.metric());
        if (!v) continue;
        for (int s = 0; s < kSubsystemCount; ++s) map_->data()->setCell(t, s, (*v)[static_cast<size_t>(s)]);
    }
    if (store_.metric() == Metric::Dla) Plot::setDiverging(map_, extent); // signed logits: 0 is neutral
    else Plot::setSequential(map_, QCPRange(0.0, 1.0));
    map_->colorScale()->axis()->setLabel(metric_label(store_.metric()));
    if (run->n_prompt() > 0 && run->n_generated() > 0) {
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(static_cast<double>(run->n_prompt()) - 0.5, 0);
        line->point2->setCoords(static_cast<double>(run->n_prompt()) - 0.5, 1);
        line->setPen(QPen(Qt::red, 1.5, Qt::DashLine));
    }
    cursor_ = store_.selected_token() < n ? store_.selected_token() : -1;
    if (cursor_ >= 0) { // the selected token: a white frame inside a black one, visible on any cell colour
        for (const auto& [pen, inset] : {std::pair{QPen(Qt::black, 4), 0.0}, std::pair{QPen(Qt::white, 2), 0.0}}) {
            auto* frame = new QCPItemRect(plot_);
            frame->topLeft->setCoords(cursor_ - 0.5 + inset, -0.5);
            frame->bottomRight->setCoords(cursor_ + 0.5 - inset, kSubsystemCount - 0.5);
            frame->setPen(pen);
        }
    }
    plot_->setHome(QCPRange(-0.5, std::max(8, n) - 0.5), QCPRange(-0.5, kSubsystemCount - 0.5));
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
