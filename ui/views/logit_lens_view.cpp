#include "ui/views/logit_lens_view.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/session/run_store.h"
#include "ui/views/lens_groups_plot.h"
#include "ui/views/token_chips.h"

namespace octo::ui {

namespace {

QString percent(double p) { return QStringLiteral("%1 %").arg(100.0 * p, 0, 'f', p < 0.001 ? 3 : 1); }

} // namespace

LogitLensView::LogitLensView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("lensHeader"));
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    k_label_ = new QLabel(this);
    k_ = new QSpinBox(this);
    k_->setObjectName(QStringLiteral("lensK"));
    k_->setRange(1, kMaxK);
    k_->setValue(QSettings().value(QStringLiteral("lens/k"), kDefaultK).toInt());
    k_label_->setBuddy(k_);
    groups_box_ = new QCheckBox(this);
    groups_box_->setObjectName(QStringLiteral("lensByGroup"));
    groups_box_->setChecked(QSettings().value(QStringLiteral("lens/groups"), false).toBool());
    top->addWidget(header_, 1);
    top->addWidget(groups_box_);
    top->addWidget(k_label_);
    top->addWidget(k_);
    layout->addLayout(top);
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("lensTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(table_, 1);
    groups_ = new LensGroupsPlot(store_, this);
    groups_->setVisible(groups_box_->isChecked());
    layout->addWidget(groups_, 1);
    connect(groups_box_, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("lens/groups"), on);
        groups_->setVisible(on);
        if (on) groups_->refresh();
    });
    connect(k_, &QSpinBox::valueChanged, this, [this](int k) {
        QSettings().setValue(QStringLiteral("lens/k"), k);
        refresh();
        emit kChanged(k);
    });
    for (auto signal : {&RunStore::runChanged, &RunStore::selectionChanged, &RunStore::runFinished, &RunStore::lensChanged,
                        &RunStore::modelLoaded}) {
        connect(&store_, signal, this, &LogitLensView::refresh);
    }
    // Linked views: a row picks its layer (layers × heads, attention and experts follow), the
    // row under the pointer is the hovered layer; the focused and hovered layers are marked.
    table_->setMouseTracking(true);
    table_->viewport()->installEventFilter(this);
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
        const RunStore::Focus f = store_.focus();
        store_.set_focus({.layer = row, .head = f.layer == row ? f.head : -1});
    });
    connect(table_, &QTableWidget::cellEntered, this, [this](int row, int) { store_.set_hover({.layer = row}); });
    connect(&store_, &RunStore::focusChanged, this, &LogitLensView::updateMarks);
    connect(&store_, &RunStore::hoverChanged, this, &LogitLensView::updateMarks);
    retranslate();
}

int LogitLensView::k() const { return k_->value(); }
void LogitLensView::setK(int k) { k_->setValue(k); }

void LogitLensView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
    emit shown();
}

bool LogitLensView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_->viewport() && event->type() == QEvent::Leave && store_.hover().layer >= 0) store_.set_hover({});
    return QWidget::eventFilter(watched, event);
}

// The layer column: "▶ 3" for the focused layer, a tint for the hovered one.
void LogitLensView::updateMarks() {
    if (table_->columnCount() == 0) return;
    QColor tint = palette().color(QPalette::Highlight);
    tint.setAlphaF(0.35f);
    for (int row = 0; row < table_->rowCount(); ++row) {
        QTableWidgetItem* item = table_->item(row, 0);
        if (!item) continue;
        const bool focused = row == store_.focus().layer;
        item->setText(focused ? QStringLiteral("▶ %1").arg(row) : QString::number(row));
        QFont f = item->font();
        f.setBold(focused);
        item->setFont(f);
        item->setBackground(row == store_.hover().layer ? QBrush(tint) : QBrush());
    }
}

void LogitLensView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void LogitLensView::retranslate() {
    k_label_->setText(tr("Per la&yer"));
    k_->setToolTip(tr("Tokens shown per layer"));
    groups_box_->setText(tr("By head group"));
    groups_box_->setToolTip(tr("Under the table: how much each head group of each layer wrote toward the token directly "
                               "(its heads' direct logit attributions; needs the run's DLA)"));
    refresh();
}

QString LogitLensView::message() const { return header_->text(); }

void LogitLensView::refresh() {
    if (groups_->isVisibleTo(this)) groups_->refresh();
    const RunRecord* r = store_.current();
    const int t = store_.focused_token();
    const auto say = [this](const QString& text) {
        header_->setText(text);
        table_->clear();
        table_->setRowCount(0);
        table_->setColumnCount(0);
    };
    if (!r || t < 0) return say(tr("Run a prompt and select a token: each layer's prediction of it appears here."));
    const int64_t position = t - 1;
    const auto lens = r->lenses.find(position);
    if (lens == r->lenses.end() || lens->second.lens.top_k() < k()) {
        if (const auto block = store_.lens_block(*r, t)) {
            switch (*block) {
            case RunStore::LensBlock::FirstToken:
                return say(tr("The first token has no position before it that predicts it: select a later one."));
            case RunStore::LensBlock::Capture:
                return say(tr("This run was opened from a capture: re-run it (Run → Re-run Capture) to see its logit lens."));
            case RunStore::LensBlock::Server:
                return say(tr("This run was made on a server: the logit lens reads the model's layers, which are not here."));
            case RunStore::LensBlock::Running: return say(tr("The logit lens is computed when the run has finished."));
            case RunStore::LensBlock::OtherModel:
                return say(tr("This run was made with %1: open that model again to see its logit lens.")
                               .arg(QString::fromStdString(r->model_path)));
            }
        }
        if (const auto& failure = store_.lens_failure(); failure && failure->first == RunStore::LensAsk{r->id, position}) {
            return say(tr("The logit lens could not be computed: %1").arg(failure->second));
        }
        return say(tr("Computing the logit lens at position %1…").arg(position));
    }
    const NamedLens& record = lens->second;
    const auto text = [&](int32_t id) {
        const auto it = record.texts.find(id);
        return QStringLiteral("“%1”").arg(token_display_text(it == record.texts.end() ? std::string() : it->second));
    };
    const size_t shown = static_cast<size_t>(k());
    header_->setText(tr("How each layer predicted %1 (token %2) at position %3: the residual after the layer through the "
                        "final norm and output matrix. The last layer is the model's own output.")
                         .arg(text(record.lens.chosen))
                         .arg(t)
                         .arg(position));
    const auto n_layer = static_cast<int>(record.lens.layers.size());
    table_->clear();
    table_->setRowCount(n_layer);
    table_->setColumnCount(2 + static_cast<int>(shown));
    QStringList headers = {tr("Layer"), tr("Rank of %1").arg(text(record.lens.chosen))};
    for (size_t i = 0; i < shown; ++i) headers << tr("Top %1").arg(i + 1);
    table_->setHorizontalHeaderLabels(headers);
    const QColor shade = palette().color(QPalette::Highlight);
    for (int l = 0; l < n_layer; ++l) {
        const LensLayer& layer = record.lens.layers[static_cast<size_t>(l)];
        auto* name = new QTableWidgetItem(QString::number(l));
        name->setTextAlignment(Qt::AlignCenter);
        table_->setItem(l, 0, name);
        auto* rank = new QTableWidgetItem(QStringLiteral("%1 · %2").arg(layer.chosen_rank).arg(percent(layer.chosen_prob)));
        rank->setToolTip(tr("%1 is this layer's choice number %2, with probability %3")
                             .arg(text(record.lens.chosen))
                             .arg(layer.chosen_rank)
                             .arg(percent(layer.chosen_prob)));
        if (layer.chosen_rank == 1) {
            QFont bold = rank->font();
            bold.setBold(true);
            rank->setFont(bold);
        }
        table_->setItem(l, 1, rank);
        for (size_t i = 0; i < shown && i < layer.top.size(); ++i) {
            const LensEntry& e = layer.top[i];
            auto* cell = new QTableWidgetItem(QStringLiteral("%1  %2").arg(text(e.token), percent(e.prob)));
            QColor c = shade;
            c.setAlphaF(0.08f + 0.62f * e.prob);
            cell->setBackground(c);
            if (e.token == record.lens.chosen) {
                QFont bold = cell->font();
                bold.setBold(true);
                cell->setFont(bold);
            }
            table_->setItem(l, 2 + static_cast<int>(i), cell);
        }
    }
    updateMarks();
}

} // namespace octo::ui
