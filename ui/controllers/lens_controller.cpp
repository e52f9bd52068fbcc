#include "ui/controllers/lens_controller.h"

#include "ui/controllers/engine_bridge.h"
#include "ui/session/run_store.h"
#include "ui/views/logit_lens_view.h"

namespace octo::ui {

LensController::LensController(RunStore& store, EngineBridge& bridge, LogitLensView& view, QObject* parent)
    : QObject(parent), store_(store), bridge_(bridge), view_(view) {
    const auto ask = [this] { askIfNeeded(); };
    for (auto signal : {&RunStore::runChanged, &RunStore::selectionChanged, &RunStore::runFinished, &RunStore::modelLoaded}) {
        connect(&store_, signal, this, ask);
    }
    connect(&view_, &LogitLensView::shown, this, ask);
    connect(&view_, &LogitLensView::kChanged, this, ask);
}

bool LensController::askIfNeeded() {
    if (!view_.isVisible()) return false; // on demand: nothing is computed for a hidden view
    const RunRecord* r = store_.current();
    const int t = store_.focused_token();
    if (!r || t < 0 || store_.lens_block(*r, t)) return false;
    const int64_t position = t - 1;
    const RunStore::LensAsk ask{r->id, position};
    if (const auto it = r->lenses.find(position); it != r->lenses.end() && it->second.lens.top_k() >= view_.k()) return false;
    if (store_.lens_pending() == ask) return false;
    if (const auto& failure = store_.lens_failure(); failure && failure->first == ask) return false; // asked, refused
    std::vector<int32_t> tokens;
    tokens.reserve(r->tokens().size());
    for (const TraceToken& token : r->tokens()) tokens.push_back(token.id);
    bridge_.logitLens(r->id, r->model_path, r->trace.repeat_spec(), std::move(tokens), r->n_prompt(), position, view_.k());
    store_.lens_asked(ask);
    return true;
}

} // namespace octo::ui
