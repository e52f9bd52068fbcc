#include "ui/views/subsystem_strip_view.h"

#include <QVBoxLayout>

#include "engine/instrumentation/subsystem.h"
#include "ui/support/plot_style.h"
#include "ui/session/run_store.h"
#include "ui/support/internals_note.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

SubsystemStripView::SubsystemStripView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    internals_ = new InternalsNote(this);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("subsystemStripPlot"));
    apply_palette(*plot_);
    map_ = add_color_map(*plot_, tr("share"));
    plot_->xAxis->setLabel(tr("token"));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int s = 0; s < kSubsystemCount; ++s) ticker->addTick(s, subsystem_id(s));
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRangeReversed(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(plot_);
    for (auto signal : {&RunStore::runChanged, &RunStore::runFinished, &RunStore::metricChanged, &RunStore::selectionChanged}) {
        connect(&store_, signal, this, &SubsystemStripView::refresh);
    }
    connect(&store_, &RunStore::tokensAppended, this, &SubsystemStripView::refresh);
}

void SubsystemStripView::refresh() {
    const RunRecord* run = store_.current();
    internals_->showFor(run);
    plot_->clearItems();
    const int n = run ? static_cast<int>(run->tokens().size()) : 0;
    map_->data()->setSize(std::max(1, n), kSubsystemCount);
    map_->data()->setRange(QCPRange(0, std::max(1, n - 1)), QCPRange(0, kSubsystemCount - 1));
    map_->data()->fill(std::numeric_limits<double>::quiet_NaN());
    for (int t = 0; t < n; ++t) {
        const auto& v = run->tokens()[static_cast<size_t>(t)].metrics.get(store_.metric());
        if (!v) continue;
        for (int s = 0; s < kSubsystemCount; ++s) map_->data()->setCell(t, s, (*v)[static_cast<size_t>(s)]);
    }
    map_->setDataRange(QCPRange(0.0, 1.0));
    if (run && run->n_prompt() > 0 && run->n_generated() > 0) {
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(static_cast<double>(run->n_prompt()) - 0.5, 0);
        line->point2->setCoords(static_cast<double>(run->n_prompt()) - 0.5, 1);
        line->setPen(QPen(Qt::red, 1.5, Qt::DashLine));
    }
    cursor_ = run && store_.selected_token() < n ? store_.selected_token() : -1;
    if (cursor_ >= 0) { // the selected token (timeline, token view): a frame around its column
        auto* frame = new QCPItemRect(plot_);
        frame->topLeft->setCoords(cursor_ - 0.5, -0.5);
        frame->bottomRight->setCoords(cursor_ + 0.5, kSubsystemCount - 0.5);
        frame->setPen(QPen(palette().color(QPalette::WindowText), 2));
    }
    plot_->xAxis->setRange(-0.5, std::max(8, n) - 0.5);
    plot_->yAxis->setRange(-0.5, kSubsystemCount - 0.5);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
