#include "ui/panels/status_line.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QStatusBar>

#include "ui/support/retranslate.h"
#include "ui/session/run_store.h"
#include "ui/support/engine_labels.h"

namespace octo::ui {

StatusLine::StatusLine(QStatusBar& bar, RunStore& store, QObject* parent)
    : QObject(parent), store_(store), bar_(bar), model_(new QLabel(&bar)), speed_(new QLabel(&bar)),
      memory_(new QLabel(&bar)) {
    model_->setObjectName(QStringLiteral("statusModel"));
    bar.addWidget(model_, 1);
    bar.addPermanentWidget(speed_);
    bar.addPermanentWidget(memory_);
    connect(&store_, &RunStore::modelLoaded, this, &StatusLine::update);
    connect(&store_, &RunStore::runFinished, this, &StatusLine::update);
    connect(&store_, &RunStore::loadFailed, this, &StatusLine::update);
    connect(&store_, &RunStore::calibrationFinished, this, &StatusLine::update);
    connect(&store_, &RunStore::serverStateChanged, this, [this] {
        // A retry must be seen at once, not after an earlier message ("Connected to …") expires.
        const auto& state = store_.server_state();
        if (state && state->kind == ServerState::Kind::Retrying) bar_.clearMessage();
        update();
    });
    on_language_change(&bar, [this] {
        if (!store_.model()) model_->setText(tr("no model"));
        update();
    });
}

void StatusLine::showLoading(const QString& path) { model_->setText(tr("loading %1…").arg(QFileInfo(path).fileName())); }

void StatusLine::update() {
    const auto& m = store_.model();
    if (!m) return;
    const QLocale locale;
    if (m->engine) { // runs go to a server: its model, as it described it, and whether it answers
        const auto& state = store_.server_state();
        const bool down = state && state->kind == ServerState::Kind::Unreachable;
        const QString answers = !state || state->kind == ServerState::Kind::Connected ? tr("connected")
                                : down ? tr("not answering") : tr("not answering, %1").arg(state->detail);
        model_->setText(tr("%1 on the server %2%3 — %4")
                            .arg(QString::fromStdString(m->engine->model), QString::fromStdString(m->engine->url),
                                 m->engine->octoscope ? tr(" (Octoscope)") : tr(" (outputs only)"), answers));
        model_->setStyleSheet(state && state->kind != ServerState::Kind::Connected ? QStringLiteral("color: #c62828;") : QString());
        model_->setToolTip(down ? tr("The last run failed: %1").arg(state->detail) : QString::fromStdString(m->backend));
        memory_->setText(QString());
        speed_->setText(QString());
        return;
    }
    model_->setStyleSheet(QString());
    QString text = tr("%1 (%2, %3 M parameters) on %4")
                       .arg(QString::fromStdString(m->name), QString::fromStdString(m->architecture))
                       .arg(double(m->n_params) / 1e6, 0, 'f', 1)
                       .arg(QString::fromStdString(m->backend));
    if (m->head_map) text += tr(" — head map: %1").arg(head_map_source_label(m->head_map->source()));
    model_->setText(text);
    model_->setToolTip(m->backend_note.empty() ? QString() : tr("CUDA is not used: %1").arg(QString::fromStdString(m->backend_note)));
    memory_->setText(tr("context %1, weights %2, KV pool %3")
                         .arg(locale.toString(static_cast<qlonglong>(m->n_ctx)),
                              locale.formattedDataSize(static_cast<qint64>(m->weights_bytes)),
                              locale.formattedDataSize(static_cast<qint64>(m->kv_bytes))));
    memory_->setToolTip(m->context_shortened
                            ? tr("The model was trained for %1 positions; a context of %2 is what fits in the memory "
                                 "available. The KV pool's pages are committed as positions are written.")
                                  .arg(locale.toString(static_cast<qlonglong>(m->context_trained)),
                                       locale.toString(static_cast<qlonglong>(m->n_ctx)))
                            : tr("The KV pool holds the whole context; its pages are committed as positions are written."));
    const RunRecord* r = store_.current();
    if (r && r->trace.outcome && r->trace.outcome->decode_ms > 0) {
        speed_->setText(tr("%1 tokens/s").arg(1000.0 * double(r->trace.outcome->n_decoded) / r->trace.outcome->decode_ms, 0, 'f', 1));
    }
}

} // namespace octo::ui
