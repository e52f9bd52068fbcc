#include "ui/views/latency_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/support/retranslate.h"
#include "ui/support/plot.h"
#include "ui/views/linked_views.h"
#include "ui/session/run_store.h"
#include "ui/views/token_chips.h"

namespace octo::ui {

LatencyView::LatencyView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("latencySummary"));
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setWordWrap(true); // wraps in a narrow dock instead of widening it
    low_ = new QSpinBox(this);
    high_ = new QSpinBox(this);
    for (QSpinBox* s : {low_, high_}) s->setRange(1, 100000);
    low_->setValue(250);
    high_->setValue(800);
    tokens_ = new Plot(QStringLiteral("latencyPlot"), this);
    histogram_ = new Plot(QStringLiteral("latencyHistogram"), this);
    tokens_->setWholeNumbers(tokens_->xAxis);
    histogram_->setWholeNumbers(histogram_->yAxis);
    tokens_->setHoverText([this](double x, double) -> QString {
        const RunRecord* run = store_.current();
        const auto i = static_cast<long long>(std::llround(x));
        if (!run || i < 0 || static_cast<size_t>(i) >= run->n_generated()) return {};
        const TraceToken& t = run->tokens()[run->n_prompt() + static_cast<size_t>(i)];
        return tr("generated token %1 “%2”: %3 ms").arg(i).arg(token_display_text(t.bytes)).arg(t.ms, 0, 'f', 2);
    });
    tokens_->addGraph()->setPen(QPen(QColor(0x00, 0x72, 0xB2), 1.5));
    tokens_->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 3));
    new QCPBars(histogram_->xAxis, histogram_->yAxis);
    auto* bands = new QHBoxLayout;
    auto* bands_label = new QLabel(this);
    bands->addWidget(bands_label);
    bands->addWidget(low_);
    bands->addWidget(high_);
    bands->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(summary_);
    layout->addLayout(bands);
    layout->addWidget(tokens_, 1);
    layout->addWidget(histogram_, 1);
    connect(low_, &QSpinBox::valueChanged, this, [this] {
        refresh();
        emit bandsChanged(low_->value(), high_->value());
    });
    connect(high_, &QSpinBox::valueChanged, this, [this] {
        refresh();
        emit bandsChanged(low_->value(), high_->value());
    });
    for (auto signal : {&RunStore::runChanged, &RunStore::runFinished}) connect(&store_, signal, this, &LatencyView::refresh);
    // Linked views: its x axis counts generated tokens (not positions, so its zoom is its own);
    // the pointer's token is the hover, a click selects it, and the selected and hovered tokens
    // are framed wherever they were picked.
    const auto generated_at = [this](double x) {
        const RunRecord* run = store_.current();
        const int i = static_cast<int>(std::lround(x));
        return run && i >= 0 && static_cast<size_t>(i) < run->n_generated() ? static_cast<int>(run->n_prompt()) + i : -1;
    };
    connect(tokens_, &Plot::pointerAt, this, [this, generated_at](double x, double) {
        const int t = generated_at(x);
        store_.set_hover(t >= 0 ? RunStore::Hover{.token = t} : RunStore::Hover{});
    });
    connect(tokens_, &Plot::pointerLeft, this, [this] { store_.set_hover({}); });
    connect(tokens_, &Plot::cellClicked, this, [this, generated_at](double x, double) {
        if (const int t = generated_at(x); t >= 0) store_.select_token(t);
    });
    connect(&store_, &RunStore::selectionChanged, this, &LatencyView::updateMarks);
    connect(&store_, &RunStore::hoverChanged, this, &LatencyView::updateMarks);
    connect(&store_, &RunStore::tokensAppended, this, &LatencyView::refresh);
    on_language_change(this, [this, bands_label] {
        const QString bands_tip = tr("Band thresholds. Defaults are the article's claimed bands for GPT-4 (under 250 ms: "
                                     "cache hit; 250–800 ms: standard; over 800 ms: degraded) — claims, not measurements.");
        for (QSpinBox* s : {low_, high_}) {
            s->setSuffix(tr(" ms"));
            s->setToolTip(bands_tip);
        }
        tokens_->xAxis->setLabel(tr("generated token"));
        tokens_->yAxis->setLabel(tr("ms"));
        histogram_->xAxis->setLabel(tr("ms per token"));
        histogram_->yAxis->setLabel(tr("tokens"));
        bands_label->setText(tr("Bands (article's):"));
        refresh(); // the empty state until a run
    });
}

void LatencyView::updateMarks() {
    const RunRecord* run = store_.current();
    const auto column = [run](int token) -> std::optional<Plot::Span> {
        if (!run || token < static_cast<int>(run->n_prompt()) || token >= static_cast<int>(run->tokens().size())) return std::nullopt;
        return column_span(token - static_cast<int>(run->n_prompt()));
    };
    tokens_->setMarks({.selected = column(store_.selected_token()), .hovered = column(store_.hover().token), .band = std::nullopt});
}

QString LatencyView::summary() const { return summary_->text(); }
int LatencyView::lowBand() const { return low_->value(); }
int LatencyView::highBand() const { return high_->value(); }

void LatencyView::setBands(int low_ms, int high_ms) {
    low_->setValue(low_ms);
    high_->setValue(high_ms);
}

void LatencyView::refresh() {
    const RunRecord* run = store_.current();
    QVector<double> x, ms;
    if (run) {
        for (size_t i = run->n_prompt(); i < run->tokens().size(); ++i) {
            x << double(i - run->n_prompt());
            ms << run->tokens()[i].ms;
        }
    }
    tokens_->graph(0)->setData(x, ms);
    tokens_->clearItems();
    histogram_->clearItems();
    const double max_ms = ms.isEmpty() ? 1.0 : *std::max_element(ms.begin(), ms.end());
    for (int band : {low_->value(), high_->value()}) {
        for (QCustomPlot* p : {tokens_, histogram_}) {
            auto* line = new QCPItemStraightLine(p);
            const bool horizontal = p == tokens_;
            line->point1->setCoords(horizontal ? 0 : band, horizontal ? band : 0);
            line->point2->setCoords(horizontal ? 1 : band, horizontal ? band : 1);
            line->setPen(QPen(QColor(0xD5, 0x5E, 0x00), 1, Qt::DashLine));
        }
    }
    // Histogram: 20 bins over [0, max].
    const int bins = 20;
    const double width = std::max(1e-3, max_ms / bins);
    QVector<double> centers(bins), counts(bins, 0.0);
    for (int b = 0; b < bins; ++b) centers[b] = (b + 0.5) * width;
    for (double v : ms) counts[std::min(bins - 1, static_cast<int>(v / width))] += 1.0;
    auto* bars = qobject_cast<QCPBars*>(histogram_->plottable(0));
    bars->setWidth(width * 0.9);
    bars->setData(centers, counts);
    bars->setBrush(QColor(0x56, 0xB4, 0xE9));
    if (ms.isEmpty()) {
        const QString why = run ? tr("No generated tokens yet.") : tr("No run yet: the time of every generated token appears here.");
        tokens_->showNoData(why);
        histogram_->showNoData(why);
    } else {
        const double top = max_ms * 1.1; // the data's range; a band line shows where it falls inside
        tokens_->setHome(QCPRange(-0.5, std::max(1.0, double(ms.size()) - 0.5)), QCPRange(0, top));
        const double most = *std::max_element(counts.begin(), counts.end());
        histogram_->setHome(QCPRange(0, max_ms * 1.05), QCPRange(0, most * 1.1 + 0.5));
        updateMarks();
        tokens_->replot(QCustomPlot::rpQueuedReplot);
        histogram_->replot(QCustomPlot::rpQueuedReplot);
    }
    if (!run || !run->trace.outcome) {
        summary_->setText(run ? tr("running: %1 tokens").arg(run->n_generated()) : QString());
        return;
    }
    const RunOutcome& f = *run->trace.outcome;
    if (run->engine) { // times seen from here, as the stream arrived
        const double arrival_tps = f.decode_ms > 0 && f.n_decoded > 1 ? 1000.0 * double(f.n_decoded - 1) / f.decode_ms : 0.0;
        summary_->setText(tr("time to first token %1 ms, seen from here (network included) from %2; then %3 tokens/s as they "
                             "arrived")
                              .arg(f.prefill_ms, 0, 'f', 1)
                              .arg(QString::fromStdString(run->engine->url))
                              .arg(arrival_tps, 0, 'f', 1));
        return;
    }
    const double ttft = ms.isEmpty() ? f.prefill_ms : ms.front();
    const double tps = f.decode_ms > 0 ? 1000.0 * double(f.n_decoded) / f.decode_ms : 0.0;
    summary_->setText(tr("time to first token %1 ms (prefill %2 ms for %3 evaluated prompt tokens); decode %4 tokens/s")
                          .arg(ttft, 0, 'f', 1)
                          .arg(f.prefill_ms, 0, 'f', 1)
                          .arg(static_cast<qlonglong>(run->n_prompt()) - f.reused_tokens)
                          .arg(tps, 0, 'f', 1));
}

} // namespace octo::ui
