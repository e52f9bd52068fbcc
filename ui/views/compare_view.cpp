#include "ui/views/compare_view.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QTextBrowser>

#include <cmath>

#include "qcustomplot.h"
#include "ui/support/plot.h"
#include "ui/support/subsystem_palette.h"
#include "ui/support/engine_labels.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {

QString piece_html(const std::string& bytes) {
    return QString::fromUtf8(bytes).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("↵<br>"));
}

// The run's last generated token is the model's end-of-generation token (its text, "<|eos|>"
// or "</s>", is no part of the answer: it is shown as the end it stands for).
bool ends_the_text(const RunRecord& run, size_t index) {
    return run.trace.outcome && run.trace.outcome->stop_reason == StopReason::EndOfGeneration && index + 1 == run.n_generated();
}

QString end_of_text() { return QObject::tr("[end of text]"); }

// The prompt in grey, then the generated tokens; the first divergent one marked.
QString side_html(const RunRecord& run, std::optional<size_t> divergence, const QColor& mark) {
    QString html = QStringLiteral("<span style='color:gray'>%1</span> ").arg(run.prompt_text().toHtmlEscaped());
    for (size_t i = 0; i < run.n_generated(); ++i) {
        const QString piece = ends_the_text(run, i) ? QStringLiteral("<span style='color:gray'>%1</span>").arg(end_of_text().toHtmlEscaped())
                                                    : piece_html(run.tokens()[run.n_prompt() + i].bytes);
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
    if (ends_the_text(run, index)) return end_of_text().toHtmlEscaped();
    return QString::fromUtf8(run.tokens()[run.n_prompt() + index].bytes).toHtmlEscaped();
}

} // namespace

ComparedRun compared_run(const RunRecord& run, Metric metric, TokenTextIds* by_text, int64_t n_layer) {
    ComparedRun c;
    bool all_shares = true;
    bool all_routed = n_layer > 0;
    for (size_t i = run.n_prompt(); i < run.tokens().size(); ++i) {
        const TraceToken& t = run.tokens()[i];
        c.ids.push_back(by_text ? by_text->of(t.bytes) : t.id);
        c.logprobs.push_back(t.logprobs ? t.logprobs->logprob : 0.0);
        if (const auto& shares = t.metrics.get(metric)) c.shares.push_back(*shares);
        else all_shares = false;
        c.head_norms.push_back(t.probe.head_norms);
        if (all_routed && !t.probe.expert_ids.empty()) c.experts.push_back(t.probe.expert_ids);
        else all_routed = false;
    }
    if (!all_shares) c.shares.clear();
    if (!all_routed) c.experts.clear();
    for (size_t i = 0; n_layer > 0 && i < run.n_prompt() && i < run.tokens().size(); ++i) {
        if (run.tokens()[i].probe.expert_ids.empty()) { // a capture without them, a position reused from the pool
            c.prompt_experts.clear();
            break;
        }
        c.prompt_experts.push_back(run.tokens()[i].probe.expert_ids);
    }
    if (!c.experts.empty() || !c.prompt_experts.empty()) c.n_layer = n_layer;
    return c;
}

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("compareSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    verdict_ = new QLabel(this);
    verdict_->setObjectName(QStringLiteral("compareVerdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::RichText);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    verdict_->hide();
    side_a_ = new QTextBrowser(this);
    side_b_ = new QTextBrowser(this);
    logprobs_ = new Plot(QStringLiteral("compareLogprobPlot"), this);
    shares_ = new Plot(QStringLiteral("compareSharePlot"), this);
    heads_ = new Plot(QStringLiteral("compareHeadPlot"), this);
    shares_->keepLabelsApart(shares_->xAxis);
    logprobs_->setWholeNumbers(logprobs_->xAxis);
    heads_->setWholeNumbers(heads_->xAxis);
    heads_->setWholeNumbers(heads_->yAxis);
    head_map_ = heads_->addColorMap(QString());

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_, 0, 0, 1, 3);
    layout->addWidget(verdict_, 1, 0, 1, 3);
    layout->addWidget(new QLabel(QStringLiteral("<b>A</b>"), this), 2, 0);
    layout->addWidget(new QLabel(QStringLiteral("<b>B</b>"), this), 2, 1);
    layout->addWidget(side_a_, 3, 0);
    layout->addWidget(side_b_, 3, 1);
    layout->addWidget(heads_, 2, 2, 3, 1);
    layout->addWidget(logprobs_, 4, 0);
    layout->addWidget(shares_, 4, 1);
    layout->setRowStretch(3, 1);
    layout->setRowStretch(4, 1);
    layout->setColumnStretch(0, 3);
    layout->setColumnStretch(1, 3);
    layout->setColumnStretch(2, 2);
    heads_->setMinimumWidth(200); // the layers × heads difference keeps readable cells beside two text columns
    on_language_change(this, [this] {
        logprobs_->xAxis->setLabel(tr("generated token"));
        logprobs_->yAxis->setLabel(tr("log-prob B − A"));
        shares_->xAxis->setLabel(tr("subsystem"));
        shares_->yAxis->setLabel(tr("share B − A (points)"));
        head_map_->colorScale()->axis()->setLabel(tr("norm B − A"));
        heads_->xAxis->setLabel(tr("head"));
        heads_->yAxis->setLabel(tr("layer"));
        if (!comparison_) { // nothing compared yet (AdvisorController shows a comparison again)
            summary_->setText(tr("Use “Apply & compare” in the advisor to compare a prompt with its rewrite."));
            for (Plot* plot : {logprobs_, shares_, heads_}) plot->showNoData(tr("No comparison yet."));
        }
        for (Plot* plot : {logprobs_, shares_, heads_}) plot->replot();
    });
}

void CompareView::showRuns(const RunRecord& a, const RunRecord& b, Metric metric, const QString& change, const ModelInfo& model,
                           const std::optional<ModelInfo>& model_b) {
    setVerdict({});
    model_ = model;
    run_a_ = a.id;
    run_b_ = b.id;
    const bool two_models = model_b.has_value();
    const bool same_heads = !model_b || (model.n_layer == model_b->n_layer && model.n_head == model_b->n_head);
    const int n_layer = static_cast<int>(model.n_layer), n_head = static_cast<int>(model.n_head);
    TokenTextIds texts;
    const int64_t routed_b = model_b ? model_b->n_layer : model.n_layer;
    ComparedRun ca = compared_run(a, metric, two_models ? &texts : nullptr, model.n_expert > 0 ? model.n_layer : 0);
    ComparedRun cb = compared_run(b, metric, two_models ? &texts : nullptr, (model_b ? model_b->n_expert : model.n_expert) > 0 ? routed_b : 0);
    if (!same_heads) {
        ca.head_norms.clear();
        cb.head_norms.clear();
    }
    const RunComparison c = compare_runs(ca, cb);
    comparison_ = c;
    const QColor mark(255, 170, 170);
    side_a_->setHtml(side_html(a, c.first_divergence, mark));
    side_b_->setHtml(side_html(b, c.first_divergence, mark));

    QStringList lines;
    if (two_models) {
        const auto name = [](const ModelInfo& m) { return QFileInfo(QString::fromStdString(m.path)).fileName().toHtmlEscaped(); };
        lines << tr("<b>Two models:</b> A ran on %1, B on %2; tokens aligned by their text.").arg(name(model), name(*model_b));
        if (!same_heads) lines << tr("Their heads are laid out differently: head norms are not compared.");
    }
    if (!change.isEmpty()) lines << tr("<b>Changed:</b> %1.").arg(change.toHtmlEscaped());
    if (c.first_divergence) {
        lines << tr("The answers part at generated token %1: A “%2”, B “%3”.")
                     .arg(*c.first_divergence)
                     .arg(token_text(a, *c.first_divergence), token_text(b, *c.first_divergence));
    } else {
        lines << (a.n_generated() == 1 ? tr("Both runs generated the same token.") : tr("Both runs generated the same %1 tokens.").arg(a.n_generated()));
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
            moved << tr("%1 %2%3 pts").arg(head_group_short(model, order[static_cast<size_t>(i)]), d >= 0 ? QStringLiteral("+") : QString()).arg(d, 0, 'f', 1);
        }
        lines << tr("Subsystem shares (%1, mean over the answer), largest changes: %2.")
                     .arg(metric_label(metric), moved.join(QStringLiteral(", ")));
    }
    if (c.largest_head_change && n_head > 0) {
        const int index = static_cast<int>(*c.largest_head_change);
        lines << tr("Largest head-norm change: layer %1, head %2: %3.")
                     .arg(index / n_head)
                     .arg(index % n_head)
                     .arg(c.head_delta[*c.largest_head_change], 0, 'f', 3);
    }
    if (c.mean_expert_overlap) {
        int least = -1;
        for (size_t l = 0; l < c.expert_overlap.size(); ++l) {
            if (c.expert_overlap[l] >= 0.0 && (least < 0 || c.expert_overlap[l] < c.expert_overlap[static_cast<size_t>(least)])) least = static_cast<int>(l);
        }
        lines << tr("Expert routing where the context is the same (the prompt, and the answers until they part): %1 % of the chosen experts the same (overlap per position), least in layer %2 (%3 %).")
                     .arg(100.0 * *c.mean_expert_overlap, 0, 'f', 1)
                     .arg(least)
                     .arg(100.0 * c.expert_overlap[static_cast<size_t>(least)], 0, 'f', 1);
    }
    summary_->setText(lines.join(QStringLiteral(" ")));
    plotLogprobs(c);
    plotShares(c);
    plotHeads(c, n_layer, n_head);
}

QString CompareView::summary() const { return summary_->text(); }

void CompareView::setVerdict(const QString& html) {
    verdict_->setText(html);
    verdict_->setVisible(!html.isEmpty());
}

QString CompareView::verdict() const { return verdict_->text(); }

// A range holding 0 and every value, with a margin: bars never run past it.
static QCPRange signed_range(const std::vector<double>& values) {
    double lo = 0.0, hi = 0.0;
    for (double v : values) {
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const double pad = std::max(1e-6, 0.08 * (hi - lo));
    return QCPRange(lo < 0 ? lo - pad : 0.0, hi > 0 ? hi + pad : (lo < 0 ? pad : 1.0));
}

void CompareView::plotLogprobs(const RunComparison& c) {
    logprobs_->clearPlottables();
    if (c.logprob_delta.empty()) {
        logprobs_->showNoData(tr("Neither run generated a token."));
        return;
    }
    auto* bars = new QCPBars(logprobs_->xAxis, logprobs_->yAxis);
    std::vector<double> values;
    for (size_t i = 0; i < c.logprob_delta.size(); ++i) {
        bars->addData(static_cast<double>(i), c.logprob_delta[i]);
        values.push_back(c.logprob_delta[i]);
    }
    bars->setBrush(QColor(86, 180, 233));
    bars->setPen(Qt::NoPen);
    logprobs_->setHome(QCPRange(-0.7, static_cast<double>(c.logprob_delta.size()) - 0.3), signed_range(values));
    logprobs_->replot(QCustomPlot::rpQueuedReplot);
}

void CompareView::plotShares(const RunComparison& c) {
    shares_->clearPlottables();
    if (!c.share_delta) {
        shares_->showNoData(tr("Subsystem shares were not recorded for both runs."));
        return;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    std::vector<double> values;
    for (int k = 0; k < kSubsystemCount; ++k) {
        ticker->addTick(k, model_ ? head_group_short(*model_, k) : subsystem_id(k));
        auto* bar = new QCPBars(shares_->xAxis, shares_->yAxis);
        const double v = (*c.share_delta)[static_cast<size_t>(k)] * 100.0;
        bar->addData(k, v);
        values.push_back(v);
        bar->setBrush(subsystem_color(k));
        bar->setPen(Qt::NoPen);
    }
    shares_->xAxis->setTicker(ticker);
    shares_->setHome(QCPRange(-0.7, kSubsystemCount - 0.3), signed_range(values));
    shares_->replot(QCustomPlot::rpQueuedReplot);
}

void CompareView::plotHeads(const RunComparison& c, int n_layer, int n_head) {
    head_map_->data()->clear();
    if (c.head_delta.size() != static_cast<size_t>(n_layer * n_head) || n_layer <= 0 || n_head <= 0) {
        heads_->showNoData(tr("Head norms were not recorded for both runs."));
        return;
    }
    head_map_->data()->setSize(n_head, n_layer);
    head_map_->data()->setRange(QCPRange(0, n_head - 1), QCPRange(0, n_layer - 1));
    float extent = 0.0f;
    for (float d : c.head_delta) extent = std::max(extent, std::fabs(d));
    for (int l = 0; l < n_layer; ++l) {
        for (int h = 0; h < n_head; ++h) head_map_->data()->setCell(h, l, c.head_delta[static_cast<size_t>(l * n_head + h)]);
    }
    Plot::setDiverging(head_map_, extent > 0 ? extent : 1.0); // symmetric: the neutral colour is "no change"
    heads_->setHoverText([this, n_head, n_layer](double x, double y) -> QString {
        const int h = static_cast<int>(std::lround(x)), l = static_cast<int>(std::lround(y));
        if (h < 0 || l < 0 || h >= n_head || l >= n_layer) return {};
        return tr("layer %1, head %2: norm B − A = %3").arg(l).arg(h).arg(comparison_->head_delta[static_cast<size_t>(l * n_head + h)], 0, 'g', 4);
    });
    heads_->setHome(QCPRange(-0.5, n_head - 0.5), QCPRange(-0.5, n_layer - 0.5));
    heads_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
