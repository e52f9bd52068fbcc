#include "ui/panels/history_panel.h"

#include <QFileInfo>

#include "ui/support/retranslate.h"
#include "ui/support/engine_labels.h"
#include "ui/session/run_store.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

HistoryPanel::HistoryPanel(RunStore& store, QWidget* parent) : QListWidget(parent), store_(store) {
    setObjectName(QStringLiteral("runHistory"));
    setMinimumHeight(40);
    connect(&store_, &RunStore::historyChanged, this, &HistoryPanel::refresh);
    on_language_change(this, [this] { refresh(); });
    connect(this, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit runActivated(item->data(Qt::UserRole).toULongLong());
    });
}

void HistoryPanel::refresh() {
    clear();
    for (auto it = store_.runs().rbegin(); it != store_.runs().rend(); ++it) {
        const RunRecord& r = *it;
        QStringList off;
        for (int s = 0; s < kSubsystemCount; ++s) {
            if (r.trace.spec.disabled[static_cast<size_t>(s)]) off << subsystem_id(s);
        }
        QString state = r.state == RunState::Running ? tr("running")
                        : r.state == RunState::Failed ? tr("failed")
                        : r.state == RunState::Cancelled ? tr("cancelled")
                                                         : tr("%1 tokens").arg(r.n_generated());
        const QString label = r.capture ? tr("capture %1").arg(QFileInfo(r.capture->path).fileName()) : tr("#%1").arg(r.id);
        QString text = tr("%1 %2 — %3").arg(label, QString::fromStdString(r.trace.spec.prompt).left(40).simplified(), state);
        if (!off.isEmpty()) text += tr(" [off: %1, %2]").arg(off.join(QStringLiteral(",")), ablation_mode_label(r.trace.spec.ablation_mode));
        auto* item = new QListWidgetItem(text, this);
        item->setData(Qt::UserRole, QVariant::fromValue<qulonglong>(r.id));
        item->setToolTip(r.error.isEmpty() ? tr("%1\nPrecision: %2").arg(QString::fromStdString(r.trace.spec.prompt),
                                                                       precision_label(r.trace.precision))
                                           : r.error);
    }
}

} // namespace octo::ui
