#include "ui/views/conversation_turns_plot.h"

#include <QVBoxLayout>

#include <algorithm>

#include "ui/session/conversation_store.h"
#include "ui/session/run_store.h"
#include "ui/support/plot.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

ConversationTurnsPlot::ConversationTurnsPlot(ConversationStore& conversations, RunStore& runs, QWidget* parent)
    : QWidget(parent), conversations_(conversations), runs_(runs) {
    plot_ = new Plot(QStringLiteral("conversationTurnsPlot"), this);
    reused_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    evaluated_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    evaluated_->moveAbove(reused_);
    const QColor reused_colour(86, 180, 233), evaluated_colour(0, 114, 178); // Okabe–Ito sky blue and blue
    reused_->setBrush(reused_colour);
    reused_->setPen(QPen(reused_colour.darker(120)));
    evaluated_->setBrush(evaluated_colour);
    evaluated_->setPen(QPen(evaluated_colour.darker(120)));
    reused_->setWidth(0.6);
    evaluated_->setWidth(0.6);
    prefill_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    prefill_->setPen(QPen(QColor(213, 94, 0), 2)); // vermillion
    prefill_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    plot_->yAxis2->setVisible(true);
    plot_->setWholeNumbers(plot_->xAxis);
    plot_->setWholeNumbers(plot_->yAxis);
    plot_->legend->setVisible(true);
    plot_->placeLegendBelow(3);
    plot_->setHoverText([this](double x, double) { return hoverText(static_cast<int>(std::lround(x)) - 1); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    connect(&conversations_, &ConversationStore::shownChanged, this, &ConversationTurnsPlot::refresh);
    connect(&conversations_, &ConversationStore::turnsChanged, this, &ConversationTurnsPlot::refresh);
    connect(&runs_, &RunStore::runSettled, this, &ConversationTurnsPlot::refresh);
    on_language_change(this, [this] {
        reused_->setName(tr("reused from the KV pool"));
        evaluated_->setName(tr("evaluated"));
        prefill_->setName(tr("prefill ms"));
        plot_->xAxis->setLabel(tr("turn"));
        plot_->yAxis->setLabel(tr("prompt tokens"));
        plot_->yAxis2->setLabel(tr("prefill ms"));
        refresh();
    });
}

QString ConversationTurnsPlot::hoverText(int turn) const {
    for (const Point& p : points_) {
        if (p.turn != turn) continue;
        return tr("turn %1: %2 prompt tokens, %3 reused, %4 evaluated; prefill %5 ms")
            .arg(turn + 1)
            .arg(p.reused + p.evaluated)
            .arg(p.reused)
            .arg(p.evaluated)
            .arg(p.prefill_ms, 0, 'f', 1);
    }
    return {};
}

void ConversationTurnsPlot::refresh() {
    points_.clear();
    if (const ConversationRecord* c = conversations_.current()) {
        for (size_t t = 0; t < c->turns.size(); ++t) {
            const RunRecord* r = c->turns[t].run ? runs_.run(*c->turns[t].run) : nullptr;
            if (!r || !r->trace.outcome) continue;
            const RunOutcome& o = *r->trace.outcome;
            points_.push_back({static_cast<int>(t), static_cast<double>(o.reused_tokens), static_cast<double>(static_cast<int64_t>(r->n_prompt()) - o.reused_tokens), o.prefill_ms});
        }
    }
    QVector<double> x, reused, evaluated, ms;
    double top = 0.0, top_ms = 0.0;
    for (const Point& p : points_) {
        x.push_back(p.turn + 1);
        reused.push_back(p.reused);
        evaluated.push_back(p.evaluated);
        ms.push_back(p.prefill_ms);
        top = std::max(top, p.reused + p.evaluated);
        top_ms = std::max(top_ms, p.prefill_ms);
    }
    reused_->setData(x, reused, true);
    evaluated_->setData(x, evaluated, true);
    prefill_->setData(x, ms, true);
    if (points_.empty()) {
        plot_->showNoData(tr("No turn has run yet: each assistant turn's prompt tokens (reused and evaluated) and prefill time "
                             "appear here."));
        return;
    }
    const double last = x.back();
    plot_->yAxis2->setRange(0.0, std::max(1.0, top_ms * 1.15));
    plot_->setHome(QCPRange(0.4, last + 0.6), QCPRange(0.0, std::max(1.0, top * 1.15)));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
