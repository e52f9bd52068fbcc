#include "ui/views/lens_groups_plot.h"

#include <QVBoxLayout>

#include <cmath>

#include "engine/instrumentation/subsystem.h"
#include "ui/session/run_store.h"
#include "ui/support/plot.h"
#include "ui/support/subsystem_palette.h"
#include "ui/views/linked_views.h"
#include "ui/views/token_chips.h"

namespace octo::ui {

std::optional<std::vector<double>> lens_group_logits(const RunRecord& run, int token, const HeadMap& map) {
    const auto& tokens = run.tokens();
    if (token < 1 || token >= static_cast<int>(tokens.size())) return std::nullopt;
    // The probe of position token-1: a generated token carries the position that chose it; a
    // prompt token's own probe is of its own position.
    const size_t n_prompt = run.n_prompt();
    const TokenProbe& probe = static_cast<size_t>(token) >= n_prompt ? tokens[static_cast<size_t>(token)].probe
                                                                     : tokens[static_cast<size_t>(token) - 1].probe;
    const int64_t n_layer = map.n_layer(), n_head = map.n_head();
    if (probe.dla.size() != static_cast<size_t>(n_layer * n_head) || probe.dla_target != tokens[static_cast<size_t>(token)].id) {
        return std::nullopt;
    }
    std::vector<double> out(static_cast<size_t>(n_layer * kSubsystemCount), 0.0);
    for (int64_t l = 0; l < n_layer; ++l) {
        for (int64_t h = 0; h < n_head; ++h) {
            const int g = map.subsystem_of(l, h);
            if (g >= 0 && g < kSubsystemCount) out[static_cast<size_t>(l * kSubsystemCount + g)] += probe.dla[static_cast<size_t>(l * n_head + h)];
        }
    }
    return out;
}

LensGroupsPlot::LensGroupsPlot(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    plot_ = new Plot(QStringLiteral("lensGroupsPlot"), this);
    plot_->addColorMap(tr("logits toward the token"));
    plot_->setWholeNumbers(plot_->yAxis);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setHoverText([this](double x, double y) -> QString {
        const int g = static_cast<int>(std::lround(x)), l = static_cast<int>(std::lround(y));
        const auto& model = store_.shown_model();
        if (!model || g < 0 || g >= kSubsystemCount || l < 0 || l >= n_layer_) return {};
        return tr("layer %1, %2: %3 logits toward the token, written directly by the group's heads")
            .arg(l)
            .arg(head_group_label(*model, g))
            .arg(values_[static_cast<size_t>(l * kSubsystemCount + g)], 0, 'f', 3);
    });
    connect(plot_, &Plot::cellClicked, this, [this](double, double y) {
        const int l = static_cast<int>(std::lround(y));
        if (l >= 0 && l < n_layer_) store_.set_focus({.layer = l});
    });
    connect(&store_, &RunStore::focusChanged, this, [this] {
        const int l = store_.focus().layer;
        plot_->setMarks({.selected = l >= 0 && l < n_layer_ ? std::optional(row_span(l, -0.5, kSubsystemCount - 0.5)) : std::nullopt,
                         .hovered = std::nullopt,
                         .band = std::nullopt});
    });
}

void LensGroupsPlot::refresh() {
    const RunRecord* r = store_.current();
    const auto& model = store_.shown_model();
    const int t = store_.focused_token();
    auto* map = qobject_cast<QCPColorMap*>(plot_->plottable(0));
    std::optional<std::vector<double>> v;
    if (r && model && model->head_map) v = lens_group_logits(*r, t, *model->head_map);
    if (!v) {
        values_.clear();
        n_layer_ = 0;
        map->data()->clear();
        plot_->showNoData(tr("Each head group's direct part needs the run's DLA: tick “DLA” in the prompt panel and run again."));
        return;
    }
    values_ = std::move(*v);
    n_layer_ = static_cast<int>(model->n_layer);
    map->data()->setSize(kSubsystemCount, n_layer_);
    map->data()->setRange(QCPRange(0, kSubsystemCount - 1), QCPRange(0, std::max(1, n_layer_ - 1)));
    double extent = 0.0;
    for (int l = 0; l < n_layer_; ++l) {
        for (int g = 0; g < kSubsystemCount; ++g) {
            const double x = values_[static_cast<size_t>(l * kSubsystemCount + g)];
            map->data()->setCell(g, l, x);
            extent = std::max(extent, std::fabs(x));
        }
    }
    Plot::setDiverging(map, extent > 0.0 ? extent : 1.0);
    QSharedPointer<QCPAxisTickerText> groups(new QCPAxisTickerText);
    for (int g = 0; g < kSubsystemCount; ++g) groups->addTick(g, head_group_short(*model, g));
    plot_->xAxis->setTicker(groups);
    plot_->yAxis->setLabel(tr("layer"));
    plot_->xAxis->setLabel(tr("head group: direct part toward “%1”").arg(token_display_text(r->tokens()[static_cast<size_t>(t)].bytes)));
    plot_->setHome(QCPRange(-0.5, kSubsystemCount - 0.5), QCPRange(-0.5, n_layer_ - 0.5));
    const int l = store_.focus().layer;
    plot_->setMarks({.selected = l >= 0 && l < n_layer_ ? std::optional(row_span(l, -0.5, kSubsystemCount - 0.5)) : std::nullopt,
                     .hovered = std::nullopt,
                     .band = std::nullopt});
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace octo::ui
