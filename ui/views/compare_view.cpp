#include "ui/views/compare_view.h"

#include <QGridLayout>
#include <QLabel>
#include <QTextBrowser>

#include <cmath>

#include "qcustomplot.h"
#include "ui/support/plot_style.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

namespace {

QString piece_html(const std::string& bytes) {
    return QString::fromUtf8(bytes).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("↵<br>"));
}

// The prompt in grey, then the generated tokens; the first divergent one marked.
QString side_html(const RunRecord& run, std::optional<size_t> divergence, const QColor& mark) {
    QString html = QStringLiteral("<span style='color:gray'>%1</span> ").arg(run.prompt_text().toHtmlEscaped());
    for (size_t i = 0; i < run.n_generated(); ++i) {
        const QString piece = piece_html(run.tokens()[run.n_prompt() + i].bytes);
        if (divergence && i == *divergence) {
            html += QStringLiteral("<span style='background:%1;font-weight:bold'>%2</span>").arg(mark.name(), piece);
        } else if (divergence && i > *divergence) {
            html += QStringLiteral("<i>%1</i>").arg(piece);
        } else {
            html += piece;
        }
    }
    if (divergence && *divergence == run.n_generated()) {
        html += QStringLiteral("<span style='background:%1'>⏹</span>").arg(mark.name()); // this run stopped here
    }
    return html;
}

QString token_text(const RunRecord& run, size_t index) {
    if (index >= run.n_generated()) return QObject::tr("(end)");
    return QString::fromUtf8(run.tokens()[run.n_prompt() + index].bytes).toHtmlEscaped();
}

} // namespace

ComparedRun compared_run(const RunRecord& run, Metric metric) {
    ComparedRun c;
    bool all_shares = true;
    for (size_t i = run.n_prompt(); i < run.tokens().size(); ++i) {
        const TraceToken& t = run.tokens()[i];
        c.ids.push_back(t.id);
        c.logprobs.push_back(t.logprobs ? t.logprobs->logprob : 0.0);
        if (const auto& shares = t.metrics.get(metric)) c.shares.push_back(*shares);
        else all_shares = false;
        c.head_norms.push_back(t.probe.head_norms);
    }
    if (!all_shares) c.shares.clear();
    return c;
}

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    summary_ = new QLabel(tr("Use “Apply & compare” in the advisor to compare a prompt with its rewrite."), this);
    summary_->setObjectName(QStringLiteral("compareSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    side_a_ = new QTextBrowser(this);
    side_b_ = new QTextBrowser(this);
    logprobs_ = new QCustomPlot(this);
    shares_ = new QCustomPlot(this);
    heads_ = new QCustomPlot(this);
    logprobs_->setObjectName(QStringLiteral("compareLogprobPlot"));
    shares_->setObjectName(QStringLiteral("compareSharePlot"));
    heads_->setObjectName(QStringLiteral("compareHeadPlot"));
    for (QCustomPlot* plot : {logprobs_, shares_, heads_}) {
        apply_palette(*plot);
        plot->setMinimumHeight(60);
    }
    logprobs_->xAxis->setLabel(tr("generated token"));
    logprobs_->yAxis->setLabel(tr("log-prob B − A"));
    shares_->xAxis->setLabel(tr("subsystem"));
    shares_->yAxis->setLabel(tr("share B − A (points)"));
    head_map_ = add_color_map(*heads_, tr("norm B − A"));
    head_map_->setGradient(QCPColorGradient::gpPolar);
    heads_->xAxis->setLabel(tr("head"));
    heads_->yAxis->setLabel(tr("layer"));

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_, 0, 0, 1, 3);
    layout->addWidget(new QLabel(tr("<b>A</b>"), this), 1, 0);
    layout->addWidget(new QLabel(tr("<b>B</b>"), this), 1, 1);
    layout->addWidget(side_a_, 2, 0);
    layout->addWidget(side_b_, 2, 1);
    layout->addWidget(heads_, 1, 2, 3, 1);
    layout->addWidget(logprobs_, 3, 0);
    layout->addWidget(shares_, 3, 1);
    layout->setRowStretch(2, 1);
    layout->setRowStretch(3, 1);
    layout->setColumnStretch(0, 3);
    layout->setColumnStretch(1, 3);
    layout->setColumnStretch(2, 2);
}

void CompareView::showRuns(const RunRecord& a, const RunRecord& b, Metric metric, const QString& change, int n_layer,
                           int n_head) {
    const RunComparison c = compare_runs(compared_run(a, metric), compared_run(b, metric));
    comparison_ = c;
    const QColor mark(255, 170, 170);
    side_a_->setHtml(side_html(a, c.first_divergence, mark));
    side_b_->setHtml(side_html(b, c.first_divergence, mark));

    QStringList lines;
    if (!change.isEmpty()) lines << tr("<b>Changed:</b> %1.").arg(change.toHtmlEscaped());
    if (c.first_divergence) {
        lines << tr("The answers part at generated token %1: A “%2”, B “%3”.")
                     .arg(*c.first_divergence)
                     .arg(token_text(a, *c.first_divergence), token_text(b, *c.first_divergence));
    } else {
        lines << tr("Both runs generated the same %n token(s).", nullptr, static_cast<int>(a.n_generated()));
    }
    lines << tr("Mean log-prob per generated token: A %1, B %2 (%3%4).")
                 .arg(c.mean_logprob_a, 0, 'f', 3)
                 .arg(c.mean_logprob_b, 0, 'f', 3)
                 .arg(c.mean_logprob_b >= c.mean_logprob_a ? QStringLiteral("+") : QString())
                 .arg(c.mean_logprob_b - c.mean_logprob_a, 0, 'f', 3);
    if (c.share_delta) {
        std::array<int, kSubsystemCount> order = {};
        for (int k = 0; k < kSubsystemCount; ++k) order[static_cast<size_t>(k)] = k;
        std::sort(order.begin(), order.end(), [&](int x, int y) {
            return std::fabs((*c.share_delta)[static_cast<size_t>(x)]) > std::fabs((*c.share_delta)[static_cast<size_t>(y)]);
        });
        QStringList moved;
        for (int i = 0; i < 2; ++i) {
            const float d = (*c.share_delta)[static_cast<size_t>(order[static_cast<size_t>(i)])] * 100.0f;
            moved << tr("%1 %2%3 pts").arg(subsystem_id(order[static_cast<size_t>(i)]), d >= 0 ? QStringLiteral("+") : QString()).arg(d, 0, 'f', 1);
        }
        lines << tr("Subsystem shares (%1, mean over the answer), largest changes: %2.")
                     .arg(QString::fromUtf8(metric_name(metric)), moved.join(QStringLiteral(", ")));
    }
    if (c.largest_head_change && n_head > 0) {
        const int index = static_cast<int>(*c.largest_head_change);
        lines << tr("Largest head-norm change: layer %1, head %2: %3.")
                     .arg(index / n_head)
                     .arg(index % n_head)
                     .arg(c.head_delta[*c.largest_head_change], 0, 'f', 3);
    }
    summary_->setText(lines.join(QStringLiteral(" ")));
    plotLogprobs(c);
    plotShares(c);
    plotHeads(c, n_layer, n_head);
}

QString CompareView::summary() const { return summary_->text(); }

void CompareView::plotLogprobs(const RunComparison& c) {
    logprobs_->clearPlottables();
    auto* bars = new QCPBars(logprobs_->xAxis, logprobs_->yAxis);
    for (size_t i = 0; i < c.logprob_delta.size(); ++i) bars->addData(static_cast<double>(i), c.logprob_delta[i]);
    bars->setBrush(QColor(86, 180, 233));
    bars->setPen(Qt::NoPen);
    logprobs_->rescaleAxes();
    logprobs_->xAxis->setRange(-1, std::max<double>(1.0, static_cast<double>(c.logprob_delta.size())));
    logprobs_->replot(QCustomPlot::rpQueuedReplot);
}

void CompareView::plotShares(const RunComparison& c) {
    shares_->clearPlottables();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int k = 0; k < kSubsystemCount; ++k) {
        ticker->addTick(k, subsystem_id(k));
        if (!c.share_delta) continue;
        auto* bar = new QCPBars(shares_->xAxis, shares_->yAxis);
        bar->addData(k, (*c.share_delta)[static_cast<size_t>(k)] * 100.0);
        bar->setBrush(subsystem_color(k));
        bar->setPen(Qt::NoPen);
    }
    shares_->xAxis->setTicker(ticker);
    shares_->rescaleAxes();
    shares_->xAxis->setRange(-0.7, kSubsystemCount - 0.3);
    shares_->replot(QCustomPlot::rpQueuedReplot);
}

void CompareView::plotHeads(const RunComparison& c, int n_layer, int n_head) {
    head_map_->data()->clear();
    if (c.head_delta.size() == static_cast<size_t>(n_layer * n_head) && n_layer > 0 && n_head > 0) {
        head_map_->data()->setSize(n_head, n_layer);
        head_map_->data()->setRange(QCPRange(0, n_head - 1), QCPRange(0, n_layer - 1));
        float extent = 1e-6f;
        for (float d : c.head_delta) extent = std::max(extent, std::fabs(d));
        for (int l = 0; l < n_layer; ++l) {
            for (int h = 0; h < n_head; ++h) head_map_->data()->setCell(h, l, c.head_delta[static_cast<size_t>(l * n_head + h)]);
        }
        head_map_->setDataRange(QCPRange(-extent, extent)); // symmetric: black is "no change"
        heads_->rescaleAxes();
    }
    heads_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
