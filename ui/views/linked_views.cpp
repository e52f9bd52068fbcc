#include "ui/views/linked_views.h"

#include <cmath>
#include <utility>

#include "engine/conversation/conversation_run.h"
#include "ui/session/run_store.h"

namespace octo::ui {

void link_token_plot(Plot& plot, RunStore& store, std::function<int()> columns, std::function<RunStore::Hover(int, double)> hover,
                     bool click_selects) {
    plot.setTokenAxis(true);
    const auto show = [&plot, &store] {
        const auto& range = store.token_range();
        plot.showTokenRange(range ? std::optional<QCPRange>(QCPRange(range->first, range->second)) : std::nullopt);
    };
    QObject::connect(&store, &RunStore::tokenRangeChanged, &plot, show);
    QObject::connect(&plot, &Plot::tokenRangeChanged, &store, [&store](std::optional<QCPRange> range) {
        store.set_token_range(range ? std::optional(std::pair(range->lower, range->upper)) : std::nullopt);
    });
    const auto token_at = [columns](double x) {
        const int t = static_cast<int>(std::lround(x));
        return t >= 0 && t < columns() ? t : -1;
    };
    QObject::connect(&plot, &Plot::pointerAt, &store, [&store, token_at, hover](double x, double y) {
        const int t = token_at(x);
        store.set_hover(t < 0 ? RunStore::Hover{} : hover ? hover(t, y) : RunStore::Hover{.token = t});
    });
    QObject::connect(&plot, &Plot::pointerLeft, &store, [&store] { store.set_hover({}); });
    if (click_selects) {
        QObject::connect(&plot, &Plot::cellClicked, &store, [&store, token_at](double x, double) {
            if (const int t = token_at(x); t >= 0) store.select_token(t);
        });
    }
    show();
}

void link_layer_map(Plot& plot, RunStore& store, MapUnit unit, std::function<std::pair<int, int>()> size) {
    // The cell under (x, y) as RunStore names it; nullopt outside the map.
    const auto cell = [unit, size](double x, double y) -> std::optional<RunStore::Hover> {
        const auto [n_layer, n_unit] = size();
        const int l = static_cast<int>(std::lround(y)), u = static_cast<int>(std::lround(x));
        if (l < 0 || u < 0 || l >= n_layer || u >= n_unit) return std::nullopt;
        return unit == MapUnit::Head ? RunStore::Hover{.layer = l, .head = u} : RunStore::Hover{.layer = l, .expert = u};
    };
    QObject::connect(&plot, &Plot::cellClicked, &store, [&store, cell](double x, double y) {
        if (const auto c = cell(x, y)) store.set_focus({.layer = c->layer, .head = c->head, .expert = c->expert});
    });
    QObject::connect(&plot, &Plot::pointerAt, &store, [&store, cell](double x, double y) { store.set_hover(cell(x, y).value_or(RunStore::Hover{})); });
    QObject::connect(&plot, &Plot::pointerLeft, &store, [&store] { store.set_hover({}); });
}

std::optional<Plot::Span> turn_band(const RunRecord& run, int message) {
    if (message < 0 || run.trace.spec.messages.empty()) return std::nullopt;
    for (const ConversationTurn& t : locate_turns(run.trace)) {
        if (t.message == static_cast<size_t>(message) && t.end_token > t.first_token) {
            return Plot::Span{static_cast<double>(t.first_token) - 0.5, static_cast<double>(t.end_token) - 0.5, -1e9, 1e9};
        }
    }
    return std::nullopt;
}

Plot::Span column_span(int t) { return {t - 0.5, t + 0.5, -1e9, 1e9}; }

Plot::Span cell_span(int x, int y) { return {x - 0.5, x + 0.5, y - 0.5, y + 0.5}; }

Plot::Span row_span(int y, double x0, double x1) { return {x0, x1, y - 0.5, y + 0.5}; }

} // namespace octo::ui
