#include "ui/views/timeline_scrubber.h"

#include "ui/views/token_chips.h"

#include <QAction>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

#include <algorithm>

#include "ui/support/retranslate.h"
#include "ui/session/run_store.h"
#include "ui/support/engine_labels.h"

namespace octo::ui {

TimelineScrubber::TimelineScrubber(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    setObjectName(QStringLiteral("timelineScrubber"));
    back_action_ = new QAction(this);
    back_action_->setShortcuts({QKeySequence(tr("Alt+Left")), QKeySequence(QStringLiteral("["))});
    forward_action_ = new QAction(this);
    forward_action_->setShortcuts({QKeySequence(tr("Alt+Right")), QKeySequence(QStringLiteral("]"))});
    first_action_ = new QAction(this);
    first_action_->setShortcut(QKeySequence(tr("Alt+Home")));
    last_action_ = new QAction(this);
    last_action_->setShortcut(QKeySequence(tr("Alt+End")));
    for (QAction* a : shortcutActions()) a->setShortcutContext(Qt::WindowShortcut);
    connect(back_action_, &QAction::triggered, this, &TimelineScrubber::stepBack);
    connect(forward_action_, &QAction::triggered, this, &TimelineScrubber::stepForward);
    connect(first_action_, &QAction::triggered, this, [this] { seek(0); });
    connect(last_action_, &QAction::triggered, this, [this] { seek(slider_->maximum()); });

    back_ = new QToolButton(this);
    back_->setDefaultAction(back_action_);
    forward_ = new QToolButton(this);
    forward_->setDefaultAction(forward_action_);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("timelineSlider"));
    slider_->setPageStep(8);
    position_ = new QLabel(this);
    position_->setObjectName(QStringLiteral("timelinePosition"));
    position_->setWordWrap(true); // a narrow centre wraps the line instead of cutting it off
    // It takes the centre's width and never widens the window (1024 × 700 must fit): the slider
    // row, then where the run stands on a line of its own.
    QSizePolicy policy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    policy.setHeightForWidth(true); // as tall as the wrapped line needs at the centre's width
    setSizePolicy(policy);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->setSpacing(0);
    auto* row = new QHBoxLayout;
    row->addWidget(back_);
    row->addWidget(slider_, 1);
    row->addWidget(forward_);
    layout->addLayout(row);
    layout->addWidget(position_);
    connect(slider_, &QSlider::valueChanged, this, &TimelineScrubber::seek);
    for (auto signal : {&RunStore::runChanged, &RunStore::runFinished, &RunStore::selectionChanged}) {
        connect(&store_, signal, this, &TimelineScrubber::refresh);
    }
    connect(&store_, &RunStore::tokensAppended, this, &TimelineScrubber::refresh);
    on_language_change(this, [this] {
        back_action_->setText(tr("Step Back"));
        back_action_->setToolTip(tr("Previous token (Alt+Left or [)"));
        back_action_->setIconText(QStringLiteral("◀"));
        forward_action_->setText(tr("Step Forward"));
        forward_action_->setToolTip(tr("Next token (Alt+Right or ])"));
        forward_action_->setIconText(QStringLiteral("▶"));
        first_action_->setText(tr("First Token"));
        last_action_->setText(tr("Last Token"));
        slider_->setToolTip(tr("Timeline: step through the run token by token (Alt+Left / Alt+Right, [ / ])"));
        refresh();
    });
}

QList<QAction*> TimelineScrubber::shortcutActions() const { return {back_action_, forward_action_, first_action_, last_action_}; }

void TimelineScrubber::stepBack() {
    seek(std::max(0, store_.focused_token() - 1)); // from the token shown: without a selection, the last
}

void TimelineScrubber::stepForward() {
    seek(std::min(slider_->maximum(), store_.focused_token() + 1));
}

void TimelineScrubber::seek(int index) {
    const RunRecord* r = store_.current();
    if (!r || r->tokens().empty()) return;
    store_.select_token(std::clamp(index, 0, static_cast<int>(r->tokens().size()) - 1));
}

void TimelineScrubber::refresh() {
    const RunRecord* r = store_.current();
    const int n = r ? static_cast<int>(r->tokens().size()) : 0;
    const QSignalBlocker block(slider_);
    slider_->setEnabled(n > 0);
    slider_->setRange(0, std::max(0, n - 1));
    const int s = store_.focused_token();
    slider_->setValue(std::max(0, s));
    for (QAction* a : shortcutActions()) a->setEnabled(n > 0);
    // Positions count from 0, as on every axis: "position 16 (generated, last) · 17 tokens", then
    // how the run ended. Without a selection every view shows the last token, and so does this.
    const QString tokens = n == 1 ? tr("1 token") : tr("%1 tokens").arg(n);
    const QString kind = r && static_cast<size_t>(std::max(0, s)) < r->n_prompt() ? tr("prompt") : tr("generated");
    QString text = n == 0 ? tr("no run")
                 : store_.selected_token() < 0 ? tr("position %1 (%2, last) · %3").arg(s).arg(kind, tokens)
                                               : tr("position %1 (%2) · %3").arg(s).arg(kind, tokens);
    if (r && r->trace.outcome) text += QStringLiteral(" · ") + (r->trace.spec.max_tokens == 0 ? run_end_label(r->trace) : tr("stopped: %1").arg(stop_reason_label(r->trace.outcome->stop_reason)));
    else if (r && r->state == RunState::Failed) text += QStringLiteral(" · ") + tr("failed");
    else if (r && r->state == RunState::Running) text += QStringLiteral(" · ") + tr("running");
    QString tip = r && r->trace.outcome && r->trace.outcome->stop_reason == StopReason::ContextFull
                      ? tr("The run filled the model's context: nothing more fits. Shorten the prompt or load the model with a longer context.")
                      : QString();
    if (r && !r->trace.spec.grammar.empty()) { // Structured output: the steps where the constraint bent the model
        int constrained = 0, bent = 0;
        for (const TraceToken& t : r->tokens()) {
            if (!t.constraint) continue;
            ++constrained;
            if (t.constraint->removed_mass >= kBentMass) ++bent;
        }
        text += QStringLiteral(" · ") + tr("bent %1/%2").arg(bent).arg(constrained);
        if (!tip.isEmpty()) tip += QStringLiteral("\n");
        tip += tr("Structured output: at %1 of %2 generated tokens the constraint removed at least half of the model's "
                  "probability (red bars under the tokens; hover one for what the model wanted instead)")
                   .arg(bent)
                   .arg(constrained);
    }
    position_->setText(text);
    position_->setToolTip(tip);
}

} // namespace octo::ui
