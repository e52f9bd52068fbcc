#include "ui/views/attention_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

#include "engine/conversation/conversation_run.h"
#include "engine/instrumentation/subsystem.h"
#include "ui/support/retranslate.h"
#include "ui/support/plot.h"
#include "ui/views/linked_views.h"
#include "ui/views/token_chips.h"
#include "ui/session/run_store.h"
#include "ui/support/internals_note.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

AttentionView::AttentionView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    internals_ = new InternalsNote(this);
    mode_ = new QComboBox(this);
    mode_->addItem(QString());
    mode_->addItem(QString());
    layer_ = new QSpinBox(this);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("attentionNote"));
    plot_ = new Plot(QStringLiteral("attentionPlot"), this);
    plot_->setKeyboardCells(true); // Tab reaches it; the arrow keys walk its cells
    map_ = plot_->addColorMap(QString());
    plot_->setHoverText([this](double x, double y) { return hoverText(static_cast<int>(std::lround(x)), static_cast<int>(std::lround(y))); });
    plot_->yAxis->setRangeReversed(true);
    auto* controls = new QHBoxLayout;
    controls->addWidget(mode_);
    controls->addWidget(layer_);
    controls->addStretch(1);
    note_->setWordWrap(true); // its own line under the controls: a long note wraps, never widens the dock
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(controls);
    layout->addWidget(note_);
    layout->addWidget(plot_, 1);
    connect(mode_, &QComboBox::currentIndexChanged, this, &AttentionView::refresh);
    connect(layer_, &QSpinBox::valueChanged, this, &AttentionView::refresh);
    // Linked views: the focused layer is shown and its focused head framed; a click on a head's
    // row focuses it; the pointer's position and head are the hover; the positions' zoom is shared.
    const auto heads_shown = [this] { return mode_->currentIndex() == 0; };
    link_token_plot(
        *plot_, store_, [this] { return seen_; },
        [this, heads_shown](int token, double y) {
            const int row = static_cast<int>(std::lround(y));
            if (!heads_shown() || row < 0 || row >= map_->data()->valueSize()) return RunStore::Hover{.token = token};
            return RunStore::Hover{.token = token, .layer = layer_->value(), .head = row};
        },
        false);
    connect(plot_, &Plot::cellClicked, this, [this, heads_shown](double, double y) {
        const int row = static_cast<int>(std::lround(y));
        if (heads_shown() && row >= 0 && row < map_->data()->valueSize()) store_.set_focus({.layer = layer_->value(), .head = row});
    });
    connect(&store_, &RunStore::focusChanged, this, [this, heads_shown] {
        const int l = store_.focus().layer;
        if (heads_shown() && l >= 0 && l <= layer_->maximum() && l != layer_->value()) layer_->setValue(l); // refreshes
        else updateMarks();
    });
    connect(&store_, &RunStore::hoverChanged, this, &AttentionView::updateMarks);
    for (auto signal : {&RunStore::runChanged, &RunStore::runFinished, &RunStore::selectionChanged, &RunStore::modelLoaded}) {
        connect(&store_, signal, this, &AttentionView::refresh);
    }
    on_language_change(this, [this] {
        mode_->setItemText(0, tr("Heads of one layer"));
        mode_->setItemText(1, tr("Subsystems (mean over layers)"));
        layer_->setPrefix(tr("layer "));
        layer_->setToolTip(tr("Layer whose heads are shown"));
        map_->colorScale()->axis()->setLabel(tr("weight"));
        plot_->xAxis->setLabel(tr("attended position"));
        refresh(); // the empty state until a run
    });
}

void AttentionView::refresh() {
    const auto& model = store_.shown_model();
    const RunRecord* run = store_.current();
    internals_->showFor(run);
    if (model) layer_->setMaximum(static_cast<int>(model->n_layer) - 1);
    layer_->setEnabled(mode_->currentIndex() == 0);
    const int sel = store_.focused_token();
    map_->data()->clear();
    shown_token_ = -1;
    for (QCPAbstractItem* item : turn_items_) plot_->removeItem(item);
    turn_items_.clear();
    turn_marks_.clear();
    if (!model || !run || sel < 0 || run->tokens()[static_cast<size_t>(sel)].probe.attention.empty()) {
        note_->clear();
        plot_->showNoData(!run ? tr("No run yet: type a prompt and press Ctrl+Enter.")
                          : run->engine ? tr("A server sends no attention weights: this view shows runs on a local model only.")
                          : !run->trace.spec.record_attention ? tr("Attention was not recorded for this run. Tick “Record attention” and run again.")
                          : run->tokens().empty() ? tr("No tokens yet.")
                                                  : tr("No attention weights for this position: select another token."));
        return;
    }
    shown_token_ = sel;
    const TraceToken& t = run->tokens()[static_cast<size_t>(sel)];
    const int n_layer = static_cast<int>(model->n_layer), n_head = static_cast<int>(model->n_head);
    const int seen = static_cast<int>(t.probe.attention.size() / static_cast<size_t>(n_layer * n_head));
    seen_ = seen;
    // gpt-oss: each head's sink weight (what no position takes) as one more column after the positions
    const std::vector<float>& sink = t.probe.attention_sink;
    const bool sinks = sink.size() == static_cast<size_t>(n_layer * n_head);
    const int columns = seen + (sinks ? 1 : 0);
    // A generated token's values are those of the position that chose it: one before it.
    note_->setText(sinks ? tr("position %1 attends to positions 0 … %2; the last column is each head's sink, the weight no "
                              "position takes")
                               .arg(seen - 1)
                               .arg(seen - 1)
                         : tr("position %1 attends to positions 0 … %2").arg(seen - 1).arg(seen - 1));
    const bool by_subsystem = mode_->currentIndex() == 1;
    const int rows = by_subsystem ? kSubsystemCount : n_head;
    map_->data()->setSize(columns, rows);
    map_->data()->setRange(QCPRange(0, std::max(1, columns - 1)), QCPRange(0, rows - 1));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    if (by_subsystem && model->head_map) {
        for (int s = 0; s < kSubsystemCount; ++s) {
            ticker->addTick(s, head_group_short(*model, s));
            std::vector<double> sum(static_cast<size_t>(columns), 0.0);
            int heads = 0;
            for (int l = 0; l < n_layer; ++l) {
                for (int64_t h : model->head_map->heads_of(s, l)) {
                    ++heads;
                    for (int p = 0; p < seen; ++p) sum[static_cast<size_t>(p)] += t.probe.attention[static_cast<size_t>((l * n_head + h) * seen + p)];
                    if (sinks) sum[static_cast<size_t>(seen)] += sink[static_cast<size_t>(l * n_head + h)];
                }
            }
            for (int p = 0; p < columns; ++p) map_->data()->setCell(p, s, heads ? sum[static_cast<size_t>(p)] / heads : 0.0);
        }
    } else {
        const int l = layer_->value();
        for (int h = 0; h < n_head; ++h) {
            ticker->addTick(h, model->head_map ? QStringLiteral("%1 %2").arg(h).arg(head_group_short(*model, model->head_map->subsystem_of(l, h)))
                                               : QString::number(h));
            for (int p = 0; p < seen; ++p) map_->data()->setCell(p, h, t.probe.attention[static_cast<size_t>((l * n_head + h) * seen + p)]);
            if (sinks) map_->data()->setCell(seen, h, sink[static_cast<size_t>(l * n_head + h)]);
        }
    }
    plot_->yAxis->setTicker(ticker);
    QSharedPointer<QCPAxisTickerText> positions = position_ticks(*run, seen);
    if (sinks) positions->addTick(seen, tr("sink"));
    plot_->xAxis->setTicker(positions);
    markTurns(*run, seen);
    Plot::setSequential(map_, QCPRange(0.0, 1.0));
    plot_->setHome(QCPRange(-0.5, columns - 0.5), QCPRange(-0.5, rows - 0.5));
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// The focused head's row (in the layer shown) solid; the hovered position's column, or the
// hovered head's row, or the cell of both, dashed.
void AttentionView::updateMarks() {
    if (shown_token_ < 0) return plot_->setMarks({});
    const bool heads = mode_->currentIndex() == 0;
    const int rows = map_->data()->valueSize(), columns = map_->data()->keySize();
    const auto head_row = [&](int layer, int head) { return heads && layer == layer_->value() && head >= 0 && head < rows; };
    Plot::Marks marks;
    const RunStore::Focus& f = store_.focus();
    if (head_row(f.layer, f.head)) marks.selected = row_span(f.head, -0.5, columns - 0.5);
    const RunStore::Hover& h = store_.hover();
    const bool token = h.token >= 0 && h.token < seen_;
    if (token && head_row(h.layer, h.head)) marks.hovered = cell_span(h.token, h.head);
    else if (token) marks.hovered = column_span(h.token);
    else if (head_row(h.layer, h.head)) marks.hovered = row_span(h.head, -0.5, columns - 0.5);
    if (const RunRecord* run = store_.current()) marks.band = turn_band(*run, f.turn);
    plot_->setMarks(marks);
}

void AttentionView::markTurns(const RunRecord& run, int seen) {
    if (run.trace.spec.messages.empty()) return;
    const std::vector<ChatMessage>& messages = run.trace.spec.messages;
    const std::vector<ConversationTurn> turns = locate_turns(run.trace);
    for (const ConversationTurn& turn : turns) {
        if (turn.end_token <= turn.first_token || static_cast<int>(turn.first_token) >= seen) continue;
        const bool assistant = turn.message >= messages.size() || messages[turn.message].role == ChatRole::Assistant;
        const bool system = turn.message < messages.size() && messages[turn.message].role == ChatRole::System;
        //: The turn marks on the attention plot: U = user, A = assistant, S = system, and the turn's number
        const QString label = (assistant ? tr("A%1") : system ? tr("S%1") : tr("U%1")).arg(turn.message + 1);
        const double x = static_cast<double>(turn.first_token) - 0.5;
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setPen(QPen(QColor(255, 255, 255, 210), 1.5, Qt::DashLine)); // seen on the dark end of the colour scale
        auto* text = new QCPItemText(plot_);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(x + 0.2, 0.0);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setText(label);
        text->setColor(palette().color(QPalette::WindowText));
        text->setBrush(QBrush(palette().color(QPalette::Base)));
        turn_items_.push_back(line);
        turn_items_.push_back(text);
        turn_marks_.emplace_back(static_cast<int>(turn.first_token), label);
    }
}

// The attended positions labelled with their token text (every position while they fit, else
// every k-th), so an axis reads as the prompt rather than as numbers.
QSharedPointer<QCPAxisTickerText> AttentionView::position_ticks(const RunRecord& run, int seen) const {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int fit = std::max(1, plot_->axisRect()->width() / 34);
    const int step = std::max(1, (seen + fit - 1) / fit);
    for (int p = 0; p < seen && p < static_cast<int>(run.tokens().size()); p += step) {
        QString text = token_display_text(run.tokens()[static_cast<size_t>(p)].bytes);
        if (text.size() > 6) text = text.left(5) + QChar(0x2026);
        ticker->addTick(p, QStringLiteral("%1\n%2").arg(p).arg(text));
    }
    return ticker;
}

QString AttentionView::hoverText(int position, int row) const {
    const RunRecord* run = store_.current();
    const auto& model = store_.shown_model();
    if (!run || !model || shown_token_ < 0 || position < 0 || row < 0) return {};
    QCPColorMapData* cells = map_->data();
    if (position >= cells->keySize() || row >= cells->valueSize() || seen_ > static_cast<int>(run->tokens().size())) return {};
    const bool by_subsystem = mode_->currentIndex() == 1;
    const QString who = by_subsystem ? head_group_label(*model, row) : tr("layer %1, head %2").arg(layer_->value()).arg(row);
    const int query = seen_ - 1;
    const QString query_text = token_display_text(run->tokens()[static_cast<size_t>(query)].bytes);
    if (position == seen_) { // the sink column
        return tr("%1\nposition %2 “%3” → sink\nweight %4 (the share no position takes)")
            .arg(who)
            .arg(query)
            .arg(query_text)
            .arg(cells->cell(position, row), 0, 'f', 4);
    }
    if (position > query) return {};
    return tr("%1\nposition %2 “%3” → position %4 “%5”\nweight %6")
        .arg(who)
        .arg(query)
        .arg(query_text)
        .arg(position)
        .arg(token_display_text(run->tokens()[static_cast<size_t>(position)].bytes))
        .arg(cells->cell(position, row), 0, 'f', 4);
}

} // namespace octo::ui
