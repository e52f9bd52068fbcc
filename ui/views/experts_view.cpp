#include "ui/views/experts_view.h"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "engine/instrumentation/expert_routing.h"
#include "ui/support/retranslate.h"
#include "ui/session/run_store.h"
#include "ui/support/internals_note.h"
#include "ui/support/plot.h"
#include "ui/views/linked_views.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Integer ticks only, at most about 16 labels: [first, last] with "shared" for the extra column.
QSharedPointer<QCPAxisTickerText> whole_ticks(int count, int shared_column = -1) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int step = std::max(1, (count + 15) / 16);
    for (int i = 0; i < count; ++i) {
        if (i == shared_column) ticker->addTick(i, QObject::tr("shared"));
        else if (i % step == 0) ticker->addTick(i, QString::number(i));
    }
    return ticker;
}

Plot* new_plot(QWidget* parent, const char* name) { return new Plot(QString::fromLatin1(name), parent); }

} // namespace

ExpertsView::ExpertsView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    internals_ = new InternalsNote(this);
    scope_ = new_scope_box(this);
    layer_ = new QSpinBox(this);
    map_plot_ = new_plot(this, "expertMapPlot");
    map_ = map_plot_->addColorMap(QString());
    strip_plot_ = new_plot(this, "expertStripPlot");
    strip_ = strip_plot_->addColorMap(QString());
    load_plot_ = new_plot(this, "expertLoadPlot");
    bars_ = new QCPBars(load_plot_->xAxis, load_plot_->yAxis);
    bars_->setBrush(palette().color(QPalette::Highlight));
    bars_->setPen(Qt::NoPen);
    for (int s = 0; s < kSubsystemCount; ++s) {
        auto* bars = new QCPBars(load_plot_->xAxis, load_plot_->yAxis);
        bars->setBrush(subsystem_color(s));
        bars->setPen(Qt::NoPen);
        bars->setName(subsystem_id(s));
        subsystem_bars_.push_back(bars);
    }

    tabs_ = new QTabWidget(this);
    tabs_->addTab(map_plot_, QString());
    tabs_->addTab(strip_plot_, QString());
    tabs_->addTab(load_plot_, QString());
    none_ = new QLabel(this);
    none_->setWordWrap(true);
    none_->setAlignment(Qt::AlignCenter);
    auto* plots = new QWidget(this);
    auto* controls = new QHBoxLayout;
    controls->addWidget(scope_, 1);
    controls->addWidget(layer_);
    verdict_ = new QLabel(this);
    verdict_->setWordWrap(true);
    verdict_->setObjectName(QStringLiteral("expertMapVerdict"));
    auto* plots_layout = new QVBoxLayout(plots);
    plots_layout->setContentsMargins(0, 0, 0, 0);
    plots_layout->addLayout(controls);
    plots_layout->addWidget(verdict_);
    plots_layout->addWidget(tabs_, 1);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(plots);
    stack_->addWidget(none_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(stack_);

    connect(scope_, &QComboBox::currentIndexChanged, this, &ExpertsView::refresh);
    connect(layer_, &QSpinBox::valueChanged, this, &ExpertsView::refresh);
    for (auto signal : {&RunStore::runChanged, &RunStore::runFinished, &RunStore::selectionChanged}) {
        connect(&store_, signal, this, &ExpertsView::refresh);
    }
    connect(&store_, &RunStore::tokensAppended, this, &ExpertsView::refresh);
    connect(&store_, &RunStore::expertMapChanged, this, &ExpertsView::refresh);
    linkViews();
    map_plot_->installEventFilter(this);
    map_plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(map_plot_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const int expert = static_cast<int>(std::lround(map_plot_->xAxis->pixelToCoord(pos.x())));
        const int layer = static_cast<int>(std::lround(map_plot_->yAxis->pixelToCoord(pos.y())));
        if (layer < 0 || layer >= n_layer_ || expert < 0 || expert >= n_expert_) return;
        QMenu menu(this);
        menu.addAction(tr("Leave expert %1 of layer %2 out of the next run").arg(expert).arg(layer), this,
                       [this, layer, expert] { emit expertSwitchRequested(ExpertSwitch{layer, expert}); });
        menu.addAction(tr("Leave expert %1 out in every layer").arg(expert), this,
                       [this, expert] { emit expertSwitchRequested(ExpertSwitch{-1, expert}); });
        menu.exec(map_plot_->mapToGlobal(pos));
    });
    on_language_change(this, [this] {
        scope_->setToolTip(tr("Which positions the layers × experts weights come from"));
        layer_->setPrefix(tr("layer "));
        layer_->setToolTip(tr("The layer of the tokens × experts strip and of the load"));
        map_->colorScale()->axis()->setLabel(tr("weight"));
        strip_->colorScale()->axis()->setLabel(tr("weight"));
        map_plot_->xAxis->setLabel(tr("expert"));
        map_plot_->yAxis->setLabel(tr("layer"));
        strip_plot_->xAxis->setLabel(tr("token (prompt, then answer)"));
        strip_plot_->yAxis->setLabel(tr("expert"));
        load_plot_->xAxis->setLabel(tr("expert"));
        load_plot_->yAxis->setLabel(tr("positions"));
        tabs_->setTabText(0, tr("Layers × experts"));
        tabs_->setTabText(1, tr("Tokens × experts"));
        tabs_->setTabText(2, tr("Load"));
        none_->setText(tr("This model has no experts: every token runs through the same feed-forward block. "
                          "The routing shown here exists in mixture-of-experts models (Mixtral, OLMoE, Qwen-MoE)."));
        refresh();
    });
}

int ExpertsView::subsystemOf(int layer, int expert) const {
    const auto& model = store_.shown_model();
    if (!model || !model->expert_map || layer < 0 || expert < 0 || layer >= n_layer_ || expert >= n_expert_) return -1;
    return model->expert_map->map.subsystem_of(layer, expert);
}

QString ExpertsView::verdict() const { return verdict_->isVisibleTo(this) ? verdict_->text() : QString(); }

bool ExpertsView::showsExperts() const { return stack_->currentIndex() == 0; }

void ExpertsView::setScope(TokenScope scope) { scope_->setCurrentIndex(static_cast<int>(scope)); }

void ExpertsView::setLayer(int layer) { layer_->setValue(layer); }

void ExpertsView::linkViews() {
    // Linked views: a map cell focuses its layer and expert (the strip and the load follow that
    // layer, as does every view with layers); the pointer's cell is the hover; the strip's token
    // axis is shared with the other token plots.
    link_layer_map(*map_plot_, store_, MapUnit::Expert, [this] { return std::pair{n_layer_, n_expert_}; });
    link_token_plot(*strip_plot_, store_, [this] { return store_.current() ? static_cast<int>(store_.current()->tokens().size()) : 0; });
    connect(&store_, &RunStore::focusChanged, this, [this] {
        const int l = store_.focus().layer;
        if (l >= 0 && l < n_layer_ && l != layer_->value()) layer_->setValue(l); // refreshes
        else updateMarks();
    });
    connect(&store_, &RunStore::hoverChanged, this, &ExpertsView::updateMarks);
}

// The map: the focused expert's cell (or the focused layer's row) solid, the hovered one dashed;
// the strip: the focused expert's row in the shown layer, the hovered token's column.
void ExpertsView::updateMarks() {
    const auto map_mark = [this](int layer, int expert) -> std::optional<Plot::Span> {
        if (layer < 0 || layer >= n_layer_) return std::nullopt;
        if (expert >= 0 && expert < n_expert_) return cell_span(expert, layer);
        return row_span(layer, -0.5, n_cols_ - 0.5);
    };
    const RunStore::Focus& f = store_.focus();
    const RunStore::Hover& h = store_.hover();
    map_plot_->setMarks({.selected = map_mark(f.layer, f.expert), .hovered = map_mark(h.layer, h.expert), .band = std::nullopt});
    const int n = store_.current() ? static_cast<int>(store_.current()->tokens().size()) : 0;
    Plot::Marks strip;
    if (f.layer == layer_->value() && f.expert >= 0 && f.expert < n_expert_) strip.selected = row_span(f.expert, -0.5, n - 0.5);
    if (h.token >= 0 && h.token < n) strip.hovered = column_span(h.token);
    if (const RunRecord* run = store_.current()) strip.band = turn_band(*run, f.turn);
    strip_plot_->setMarks(strip);
}

double ExpertsView::cell(int layer, int expert) const {
    if (layer < 0 || expert < 0 || layer >= n_layer_ || expert >= n_cols_) return kNaN;
    return weights_[static_cast<size_t>(layer * n_cols_ + expert)];
}

int ExpertsView::load(int expert) const {
    return expert >= 0 && expert < static_cast<int>(load_.size()) ? load_[static_cast<size_t>(expert)] : 0;
}

QString ExpertsView::cellText(int layer, int expert) const {
    const double w = cell(layer, expert);
    if (std::isnan(w)) return {};
    const bool shared = expert == n_expert_;
    const auto scope = static_cast<TokenScope>(scope_->currentData().toInt());
    QString text = shared ? tr("layer %1, shared expert: gate %2").arg(layer).arg(w, 0, 'f', 3)
                          : tr("layer %1, expert %2: weight %3").arg(layer).arg(expert).arg(w, 0, 'f', 3);
    if (scope == TokenScope::SelectedToken && !shared) {
        const int rank = ranks_[static_cast<size_t>(layer * n_cols_ + expert)];
        text += rank >= 0 ? tr(", rank %1 of the chosen").arg(rank + 1) : tr(", not chosen");
    } else if (scope != TokenScope::SelectedToken) {
        text += tr(" (mean)");
    }
    // gpt-oss: the router adds a bias of its own to each expert's logit
    const auto& model = store_.shown_model();
    const size_t at = static_cast<size_t>(layer) * static_cast<size_t>(n_expert_) + static_cast<size_t>(expert);
    if (!shared && model && model->router_bias.size() == static_cast<size_t>(model->n_layer * model->n_expert) &&
        at < model->router_bias.size()) {
        text += tr("; router bias %1").arg(model->router_bias[at], 0, 'f', 3);
    }
    return text;
}

bool ExpertsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != map_plot_ || event->type() != QEvent::ToolTip) return QWidget::eventFilter(watched, event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int expert = static_cast<int>(std::lround(map_plot_->xAxis->pixelToCoord(help->pos().x())));
    const int layer = static_cast<int>(std::lround(map_plot_->yAxis->pixelToCoord(help->pos().y())));
    const QString text = cellText(layer, expert);
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), text, map_plot_);
    return true;
}

void ExpertsView::refresh() {
    const RunRecord* run = store_.current();
    internals_->showFor(run);
    const auto& model = store_.shown_model();
    const bool experts = model && model->n_expert > 0;
    stack_->setCurrentIndex(experts ? 0 : 1);
    n_layer_ = experts ? static_cast<int>(model->n_layer) : 0;
    n_expert_ = experts ? static_cast<int>(model->n_expert) : 0;
    n_cols_ = n_expert_ + (experts && model->shared_expert ? 1 : 0);
    weights_.assign(static_cast<size_t>(n_layer_ * n_cols_), kNaN);
    ranks_.assign(weights_.size(), -1);
    load_.assign(static_cast<size_t>(n_expert_), 0);
    layer_->setRange(0, std::max(0, n_layer_ - 1));
    // The calibrated expert map's null test, said plainly (docs/moe.md).
    if (experts && model->expert_map) {
        const ExpertMap& m = *model->expert_map;
        const QString token_null = m.token_null_separation ? QString::number(*m.token_null_separation, 'f', 2) : QStringLiteral("—");
        verdict_->setText(m.specialises()
                              ? tr("Expert map: separation %1 against %2 with shuffled labels and %3 with token identity "
                                   "alone — the routing tells the probe set's subsystems apart beyond what the probes' "
                                   "surface tokens give. Try prompts of your own.")
                                    .arg(m.separation, 0, 'f', 2)
                                    .arg(m.null_separation, 0, 'f', 2)
                                    .arg(token_null)
                              : tr("Expert map: separation %1 against %2 with shuffled labels and %3 with token identity "
                                   "alone — the routing does not tell the probe set's subsystems apart beyond what random "
                                   "weights reach; the experts metric says little about subsystems and the claims lab does "
                                   "not use it.")
                                    .arg(m.separation, 0, 'f', 2)
                                    .arg(m.null_separation, 0, 'f', 2)
                                    .arg(token_null));
    }
    verdict_->setVisible(experts && model->expert_map.has_value());
    if (!experts || !run) {
        for (QCPColorMap* m : {map_, strip_}) m->data()->clear();
        bars_->data()->clear();
        for (QCPBars* b : subsystem_bars_) b->data()->clear();
        map_plot_->clearItems();
        const QString why = !experts ? tr("This model has no experts.") : tr("No run yet: type a prompt and press Ctrl+Enter.");
        for (Plot* p : {map_plot_, strip_plot_, load_plot_}) p->showNoData(why);
        return;
    }
    refreshMap(*run);
    refreshStrip(*run);
    refreshLoad(*run);
}

void ExpertsView::refreshMap(const RunRecord& run) {
    const auto [begin, end] = token_range(static_cast<TokenScope>(scope_->currentData().toInt()), run, store_.focused_token());
    std::vector<double> sum(weights_.size(), 0.0);
    int count = 0;
    for (size_t i = begin; i < end; ++i) {
        const TokenProbe& p = run.tokens()[i].probe;
        if (p.expert_ids.empty()) continue;
        for (int l = 0; l < n_layer_; ++l) {
            for (const ExpertChoice& c : chosen_experts(p, l, n_layer_)) {
                if (c.id < 0 || c.id >= n_expert_) continue;
                sum[static_cast<size_t>(l * n_cols_ + c.id)] += c.weight;
                if (end - begin == 1) ranks_[static_cast<size_t>(l * n_cols_ + c.id)] = c.rank;
            }
            if (n_cols_ > n_expert_ && static_cast<int>(p.shared_gate.size()) == n_layer_) {
                sum[static_cast<size_t>(l * n_cols_ + n_expert_)] += p.shared_gate[static_cast<size_t>(l)];
            }
        }
        ++count;
    }
    if (count > 0) {
        for (size_t k = 0; k < sum.size(); ++k) weights_[k] = sum[k] / count;
    }
    map_->data()->setSize(n_cols_, n_layer_);
    map_->data()->setRange(QCPRange(0, n_cols_ - 1), QCPRange(0, n_layer_ - 1));
    for (int l = 0; l < n_layer_; ++l) {
        for (int e = 0; e < n_cols_; ++e) map_->data()->setCell(e, l, weights_[static_cast<size_t>(l * n_cols_ + e)]);
    }
    // weights are probabilities: one scale for every token, up to the model's scale where it
    // multiplies them (deepseek2's expert_weights_scale)
    const double top = weights_.empty() ? 1.0 : *std::max_element(weights_.begin(), weights_.end());
    map_->setDataRange(QCPRange(0.0, std::max(1.0, top)));
    map_plot_->clearItems();
    for (int l = 0; l < n_layer_ && subsystemOf(0, 0) >= 0; ++l) { // the map's subsystem of each expert
        for (int e = 0; e < n_expert_; ++e) {
            auto* mark = new QCPItemRect(map_plot_);
            mark->topLeft->setCoords(e - 0.5, l + 0.5);
            mark->bottomRight->setCoords(e - 0.32, l - 0.5);
            mark->setPen(Qt::NoPen);
            mark->setBrush(subsystem_color(subsystemOf(l, e)));
        }
    }
    map_plot_->xAxis->setTicker(whole_ticks(n_cols_, n_cols_ > n_expert_ ? n_expert_ : -1));
    map_plot_->yAxis->setTicker(whole_ticks(n_layer_));
    map_plot_->setHome(QCPRange(-0.5, n_cols_ - 0.5), QCPRange(-0.5, n_layer_ - 0.5));
    map_plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ExpertsView::refreshStrip(const RunRecord& run) {
    const int layer = layer_->value();
    const int n = static_cast<int>(run.tokens().size());
    strip_->data()->setSize(std::max(1, n), n_expert_);
    strip_->data()->setRange(QCPRange(0, std::max(1, n) - 1), QCPRange(0, n_expert_ - 1));
    for (int t = 0; t < n; ++t) {
        for (int e = 0; e < n_expert_; ++e) strip_->data()->setCell(t, e, 0.0);
        for (const ExpertChoice& c : chosen_experts(run.tokens()[static_cast<size_t>(t)].probe, layer, n_layer_)) {
            if (c.id >= 0 && c.id < n_expert_) strip_->data()->setCell(t, c.id, c.weight);
        }
    }
    strip_->setDataRange(QCPRange(0.0, 1.0));
    strip_plot_->xAxis->setTicker(whole_ticks(n));
    strip_plot_->xAxis->setLabel(tr("token (prompt, then answer): layer %1").arg(layer));
    QSharedPointer<QCPAxisTickerText> experts = whole_ticks(n_expert_);
    if (subsystemOf(layer, 0) >= 0 && n_expert_ <= 16) { // "3 rte-c": the map's subsystem of each
        experts->clear();
        for (int e = 0; e < n_expert_; ++e) experts->addTick(e, QStringLiteral("%1 %2").arg(e).arg(subsystem_id(subsystemOf(layer, e))));
    }
    strip_plot_->yAxis->setTicker(experts);
    strip_plot_->setHome(QCPRange(-0.5, std::max(1, n) - 0.5), QCPRange(-0.5, n_expert_ - 0.5));
    updateMarks();
    strip_plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ExpertsView::refreshLoad(const RunRecord& run) {
    // Every evaluated position once: the prompt's, then each generated token's but the last (a
    // generated token's probe is the position that chose it).
    std::vector<const TokenProbe*> positions;
    for (size_t i = 0; i < run.tokens().size(); ++i) {
        if (i == run.n_prompt() && run.n_prompt() > 0) continue; // the last prompt position again
        positions.push_back(&run.tokens()[i].probe);
    }
    const std::vector<int64_t> all = expert_load(positions, n_layer_, n_expert_);
    const int layer = layer_->value();
    QVector<double> keys, values;
    double most = 1.0;
    for (int e = 0; e < n_expert_; ++e) {
        load_[static_cast<size_t>(e)] = static_cast<int>(all[static_cast<size_t>(layer * n_expert_ + e)]);
        keys.push_back(e);
        values.push_back(load_[static_cast<size_t>(e)]);
        most = std::max(most, values.back());
    }
    const bool mapped = subsystemOf(layer, 0) >= 0;
    bars_->setData(mapped ? QVector<double>() : keys, mapped ? QVector<double>() : values, true);
    for (int s = 0; s < kSubsystemCount; ++s) {
        QVector<double> k, v;
        for (int e = 0; mapped && e < n_expert_; ++e) {
            if (subsystemOf(layer, e) != s) continue;
            k.push_back(e);
            v.push_back(values[e]);
        }
        subsystem_bars_[static_cast<size_t>(s)]->setData(k, v, true);
    }
    load_plot_->xAxis->setTicker(whole_ticks(n_expert_));
    load_plot_->setWholeNumbers(load_plot_->yAxis); // whole positions only
    load_plot_->setHome(QCPRange(-0.6, n_expert_ - 0.4), QCPRange(0, most * 1.1));
    load_plot_->xAxis->setLabel(tr("expert (layer %1)").arg(layer));
    load_plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
