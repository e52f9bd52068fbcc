// The plots' side of the linked views (RunStore's focus, hover and token range; docs/workbench.md
// "Linked views"): a plot over the shown run's tokens shares its zoom and pan with the others,
// reports the token under the pointer as the hover and selects the token clicked; the frames
// for a hovered token, or a selected or hovered cell or row, in a plot's axis units.
#pragma once

#include <functional>
#include <optional>
#include <utility>

#include "ui/session/run_store.h"
#include "ui/support/plot.h"

namespace octo::ui {

// `plot`'s x axis counts the shown run's tokens (0 … n-1; `columns` gives n for the pointer:
// positions past it are not tokens): zoom and pan shared, the pointer's token as the hover (what
// `hover` makes of the token and the pointer's y, when given), a click selects the token unless
// `click_selects` is false (the view uses clicks itself).
void link_token_plot(Plot& plot, RunStore& store, std::function<int()> columns,
                     std::function<RunStore::Hover(int token, double y)> hover = nullptr, bool click_selects = true);

// A layers × heads or layers × experts map (y: the layer, x: the head or expert): a click focuses
// the cell, the pointer's cell is the hover. `size` gives the map's layers and units now.
enum class MapUnit { Head, Expert };
void link_layer_map(Plot& plot, RunStore& store, MapUnit unit, std::function<std::pair<int, int>()> size);

// The positions of turn `message` (RunStore::Focus::turn) in `run`, a conversation's run, over the
// whole height; nullopt when the run does not hold that turn.
std::optional<Plot::Span> turn_band(const RunRecord& run, int message);

// Token t's column over the whole height; cell (x, y); row y over [x0, x1].
Plot::Span column_span(int t);
Plot::Span cell_span(int x, int y);
Plot::Span row_span(int y, double x0, double x1);

} // namespace octo::ui
