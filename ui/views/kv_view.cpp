#include "ui/views/kv_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QVBoxLayout>

#include <cmath>

#include "ui/support/retranslate.h"
#include "ui/support/plot.h"
#include "ui/session/run_store.h"
#include "ui/support/internals_note.h"

namespace octo::ui {

namespace {

QColor state_color(KvBlockState s, const QPalette& pal) {
    switch (s) {
    case KvBlockState::Used: return QColor(0x00, 0x72, 0xB2);
    case KvBlockState::Shared: return QColor(0xE6, 0x9F, 0x00);
    case KvBlockState::Cached: return QColor(0x56, 0xB4, 0xE9);
    case KvBlockState::Free: break;
    }
    return pal.color(QPalette::Button);
}

} // namespace

KvBlockGrid::KvBlockGrid(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(60);
    setToolTip(tr("KV pool blocks: dark blue used, orange shared by several sequences, light blue cached prefix "
                  "(idle, reusable), grey free"));
}

void KvBlockGrid::setBlocks(std::vector<KvBlockState> blocks) {
    blocks_ = std::move(blocks);
    update();
}

void KvBlockGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (blocks_.empty()) return;
    const int n = static_cast<int>(blocks_.size());
    const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(n * double(width()) / std::max(1, height())))));
    const int rows = (n + cols - 1) / cols;
    const double cw = double(width()) / cols, ch = double(height()) / rows;
    for (int i = 0; i < n; ++i) {
        const QRectF r((i % cols) * cw, (i / cols) * ch, cw - 1, ch - 1);
        p.fillRect(r, state_color(blocks_[static_cast<size_t>(i)], palette()));
    }
}

KvView::KvView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    internals_ = new InternalsNote(this);
    grid_ = new KvBlockGrid(this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    plot_ = new Plot(QStringLiteral("kvPlot"), this);
    plot_->setWholeNumbers(plot_->xAxis);
    plot_->setWholeNumbers(plot_->yAxis);
    for (const QColor& color : {QColor(0x00, 0x72, 0xB2), QColor(0x56, 0xB4, 0xE9), QColor(0xE6, 0x9F, 0x00)}) { // used, cached, shared
        QCPGraph* g = plot_->addGraph();
        g->setPen(QPen(color, 1.5));
        g->setLineStyle(QCPGraph::lsStepLeft);
    }
    plot_->legend->setFont(font());
    plot_->placeLegendRight();
    plot_->setHoverText([this](double x, double) -> QString {
        const RunRecord* run = store_.current();
        if (!run || !run->trace.outcome) return {};
        const KvPoolSample* at = nullptr; // the step the mouse is over: the last sample at or before it
        for (const KvPoolSample& s : run->trace.outcome->kv_history) {
            if (double(s.step) <= x + 0.5) at = &s;
        }
        return at ? tr("operation %1: %2 used, %3 cached, %4 shared").arg(at->step).arg(at->blocks_used).arg(at->blocks_cached).arg(at->blocks_shared)
                  : QString();
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    // The block grid and its summary side by side: the short bottom dock keeps its height for
    // the plot and its axis titles.
    auto* top = new QHBoxLayout;
    grid_->setFixedWidth(160);
    top->addWidget(grid_);
    top->addWidget(summary_, 1);
    layout->addLayout(top);
    layout->addWidget(plot_, 1);
    connect(&store_, &RunStore::runFinished, this, &KvView::refresh);
    connect(&store_, &RunStore::runChanged, this, &KvView::refresh);
    connect(&store_, &RunStore::modelLoaded, this, &KvView::refresh);
    on_language_change(this, [this] {
        plot_->xAxis->setLabel(tr("pool operation"));
        plot_->yAxis->setLabel(tr("blocks"));
        plot_->graph(0)->setName(tr("used"));
        plot_->graph(1)->setName(tr("cached"));
        plot_->graph(2)->setName(tr("shared"));
        refresh(); // the empty state until a model and a run
    });
}

QString KvView::summary() const { return summary_->text(); }

// How the pool stores keys and values and what one block takes; empty where the bytes are not
// known (a capture's recorded pool).
QString KvView::storage(const ModelInfo& model) const {
    if (model.kv_bytes == 0 || model.kv_blocks <= 0) return {};
    const auto upper = [](TensorType t) { return QString::fromLatin1(kv_type_name(t).data()).toUpper(); };
    const QString block = QLocale().formattedDataSize(static_cast<qint64>(model.kv_bytes / static_cast<uint64_t>(model.kv_blocks)));
    QString text = model.kv_latent > 0
                       // latent attention: one row a position and layer, rebuilt into every head's key and value
                       ? tr(" Latent cache (multi-head latent attention): per position and layer one row of %1 values, "
                            "the RoPE key part and the latent every head's key and value come from, as %2: %3 a block.")
                             .arg(model.kv_latent)
                             .arg(upper(model.kv_types.k), block)
                       : tr(" Keys %1, values %2: %3 a block.").arg(upper(model.kv_types.k), upper(model.kv_types.v), block);
    if (!model.kv_note.empty()) text += QLatin1Char(' ') + QString::fromStdString(model.kv_note) + QLatin1Char('.');
    return text;
}

void KvView::refresh() {
    const auto& model = store_.shown_model();
    const RunRecord* run = store_.current();
    internals_->showFor(run);
    if (!model) {
        plot_->showNoData(tr("No model loaded."));
        return;
    }
    const QLocale locale;
    if (model->engine) return showServerPool(run); // a server's pool: the totals its answers report
    grid_->show();
    if (!run || !run->trace.outcome) {
        grid_->setBlocks(std::vector<KvBlockState>(static_cast<size_t>(model->kv_blocks), KvBlockState::Free));
        summary_->setText(tr("%1 blocks of %2 tokens, %3 allocated once")
                              .arg(model->kv_blocks)
                              .arg(model->kv_block_size)
                              .arg(locale.formattedDataSize(static_cast<qint64>(model->kv_bytes))) +
                          storage(*model));
        plot_->showNoData(run ? tr("The pool's history appears when the run ends.") : tr("No run yet: the pool's history appears after one."));
        return;
    }
    const RunOutcome& f = *run->trace.outcome;
    grid_->setBlocks(f.kv_blocks);
    const double block_bytes = double(model->kv_bytes) / std::max(1, f.kv.blocks_total);
    summary_->setText(tr("%1 of %2 blocks used (%3), %4 cached, %5 free; %6 evictions. Last run: %7 tokens reused, "
                         "%8 evaluated.")
                          .arg(f.kv.blocks_used)
                          .arg(f.kv.blocks_total)
                          .arg(model->kv_bytes > 0 ? locale.formattedDataSize(static_cast<qint64>(block_bytes * f.kv.blocks_used))
                                                   : tr("bytes not recorded")) // a capture's pool
                          .arg(f.kv.blocks_cached)
                          .arg(f.kv.blocks_free)
                          .arg(f.kv.evictions)
                          .arg(f.reused_tokens)
                          .arg(f.evaluated_tokens) +
                      storage(*model));
    QVector<double> x, used, cached, shared;
    for (const KvPoolSample& s : f.kv_history) {
        x << double(s.step);
        used << s.blocks_used;
        cached << s.blocks_cached;
        shared << s.blocks_shared;
    }
    plot_->graph(0)->setData(x, used);
    plot_->graph(1)->setData(x, cached);
    plot_->graph(2)->setData(x, shared);
    if (x.isEmpty()) {
        plot_->showNoData(tr("This run recorded no pool operations."));
        return;
    }
    const double last = x.back();
    plot_->setHome(QCPRange(x.front() - 0.5, std::max(x.front() + 1.0, last) + 0.5), QCPRange(0, f.kv.blocks_total + 1));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void KvView::showServerPool(const RunRecord* run) {
    grid_->setBlocks({}); // block by block is not reported: nothing drawn rather than made up
    grid_->hide();
    for (int g = 0; g < plot_->graphCount(); ++g) plot_->graph(g)->data()->clear();
    plot_->showNoData(tr("The server reports its pool's totals only, not the history of its operations."));
    const RunOutcome* f = run && run->trace.outcome ? &*run->trace.outcome : nullptr;
    if (!f || f->kv.blocks_total <= 0) {
        summary_->setText(run && run->engine && !run->engine->octoscope
                              ? tr("This server does not report its KV pool.")
                              : tr("The server's KV pool: its totals arrive with each run's answer."));
        return;
    }
    summary_->setText(tr("The server's pool after this run: %1 of %2 blocks used, %3 cached, %4 free (%5 tokens a block). "
                         "Last run: %6 tokens reused, %7 evaluated.")
                          .arg(f->kv.blocks_used)
                          .arg(f->kv.blocks_total)
                          .arg(f->kv.blocks_cached)
                          .arg(f->kv.blocks_free)
                          .arg(f->kv.block_size)
                          .arg(f->reused_tokens)
                          .arg(f->evaluated_tokens));
}

} // namespace octo::ui
