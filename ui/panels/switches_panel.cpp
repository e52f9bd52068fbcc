#include "ui/panels/switches_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "ui/support/engine_labels.h"
#include "ui/session/run_store.h"
#include "ui/support/retranslate.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

namespace {

QString metric_tooltip(Metric m) {
    switch (m) {
    case Metric::NormShare:
        return QObject::tr("norm_share: each subsystem's mean head contribution norm ‖W_h z_h‖, normalised to sum 1");
    case Metric::Relative:
        return QObject::tr("relative: each head's norm divided by its mean over the prompt (without BOS), grouped and "
                           "normalised — which subsystems work harder than usual here");
    case Metric::Dla:
        return QObject::tr("dla: direct logit attribution — each subsystem's share of the heads' direct push toward the "
                           "chosen token (needs DLA on)");
    case Metric::Gates:
        return QObject::tr("gates: the model's own router gates per head group (models with a router, like octet)");
    case Metric::Experts:
        return QObject::tr("experts: each subsystem's share of the routing weight of the experts a calibrated expert map "
                           "assigns to it (mixtures of experts after Model → Calibrate Experts or octoscope-cli calibrate --experts)");
    }
    return {};
}

// The switches of "*:3, 1:0"; the entries that do not parse go to `bad`.
std::vector<ExpertSwitch> parse_switches(const QString& text, QStringList* bad = nullptr) {
    std::vector<ExpertSwitch> out;
    for (const QString& part : text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        auto s = parse_expert_switch(part.toStdString());
        if (s) out.push_back(s.value());
        else if (bad) bad->push_back(part);
    }
    return out;
}

} // namespace

SwitchesPanel::SwitchesPanel(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setVerticalSpacing(2); // compact, so the window fits 1280 × 800 with CJK line heights too
    for (int s = 0; s < kSubsystemCount; ++s) {
        auto* box = new QCheckBox(subsystem_id(s), this); // the group's label: syncLabels
        box->setChecked(true);
        box->setObjectName(subsystem_id(s));
        box->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed); // the click target is the label, not the empty cell
        const QColor c = subsystem_color(s);
        box->setStyleSheet(QStringLiteral("QCheckBox { border-left: 10px solid %1; padding-left: 4px; }").arg(c.name()));
        toggles_[static_cast<size_t>(s)] = box;
        grid->addWidget(box, s / 2, s % 2);
    }
    auto* all_on = new QPushButton(this);
    connect(all_on, &QPushButton::clicked, this, [this] {
        for (QCheckBox* b : toggles_) b->setChecked(true);
    });
    mode_ = new QComboBox(this);
    for (AblationMode m : {AblationMode::Zero, AblationMode::Mean}) mode_->addItem(QString(), static_cast<int>(m));
    auto* rerun = new QPushButton(this);
    rerun->setObjectName(QStringLiteral("switchesRerun"));
    connect(rerun, &QPushButton::clicked, this, &SwitchesPanel::rerunRequested);
    metric_ = new QComboBox(this);
    metric_->setObjectName(QStringLiteral("metricBox"));
    connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
        if (metric_->currentIndex() >= 0) store_.set_metric(static_cast<Metric>(metric_->currentData().toInt()));
    });
    connect(&store_, &RunStore::modelLoaded, this, &SwitchesPanel::syncMetrics);
    connect(&store_, &RunStore::modelLoaded, this, &SwitchesPanel::syncLabels);
    connect(&store_, &RunStore::calibrationFinished, this, &SwitchesPanel::syncLabels); // a calibrated map names the groups
    const int row = kSubsystemCount / 2;
    grid->addWidget(all_on, row, 0);
    auto* mode_row = new QHBoxLayout;
    auto* mode_label = new QLabel(this);
    mode_row->addWidget(mode_label);
    mode_row->addWidget(mode_);
    mode_row->addWidget(rerun);
    grid->addLayout(mode_row, row, 1);
    auto* colour_by = new QLabel(this);
    grid->addWidget(colour_by, row + 1, 0);
    grid->addWidget(metric_, row + 1, 1);
    experts_label_ = new QLabel(this);
    experts_ = new QLineEdit(this);
    experts_->setObjectName(QStringLiteral("expertSwitches"));
    experts_label_->setBuddy(experts_);
    connect(experts_, &QLineEdit::textChanged, this, &SwitchesPanel::checkExperts);
    connect(experts_, &QLineEdit::textEdited, this, [this] {
        experts_for_ = loadedModelPath();
    });
    target_ = new QComboBox(this);
    target_->setObjectName(QStringLiteral("switchTarget"));
    target_->addItem(QString(), static_cast<int>(SwitchTarget::Heads));
    target_->addItem(QString(), static_cast<int>(SwitchTarget::Experts));
    grid->addWidget(experts_label_, row + 2, 0);
    grid->addWidget(experts_, row + 2, 1);
    grid->addWidget(target_, row + 3, 0, 1, 2);
    map_note_ = new QLabel(this);
    map_note_->setObjectName(QStringLiteral("switchesMapNote"));
    map_note_->setWordWrap(true);
    map_note_->hide();
    grid->addWidget(map_note_, row + 4, 0, 1, 2);
    for (auto signal : {&RunStore::runChanged, &RunStore::modelLoaded}) connect(&store_, signal, this, &SwitchesPanel::syncMapNote);
    connect(&store_, &RunStore::calibrationFinished, this, &SwitchesPanel::syncMapNote);
    connect(&store_, &RunStore::modelLoaded, this, &SwitchesPanel::syncExperts);
    connect(&store_, &RunStore::expertMapChanged, this, &SwitchesPanel::syncExperts);
    connect(&store_, &RunStore::expertMapChanged, this, &SwitchesPanel::syncMetrics);
    // The box reads what the views colour by: a capture opened in its own metric, or a run of
    // another model, changes the store's metric and the box follows it.
    connect(&store_, &RunStore::metricChanged, this, &SwitchesPanel::syncMetrics);
    connect(&store_, &RunStore::runChanged, this, &SwitchesPanel::syncMetrics);
    syncExperts();
    on_language_change(this, [=, this] {
        all_on->setText(tr("All &on"));
        for (int i = 0; i < mode_->count(); ++i) mode_->setItemText(i, ablation_mode_label(static_cast<AblationMode>(mode_->itemData(i).toInt())));
        mode_->setToolTip(tr("Ablation: zero sets a head's output to 0; mean replaces it by its mean over the prompt"));
        rerun->setText(tr("R&erun"));
        rerun->setToolTip(tr("Run the last prompt again with these switches and the same seed (Ctrl+R)"));
        mode_label->setText(tr("Ablation"));
        colour_by->setText(tr("Colour by"));
        experts_label_->setText(tr("Experts off"));
        experts_->setPlaceholderText(tr("e.g. *:3, 1:0 (layer:expert)"));
        target_->setItemText(0, tr("Switches turn off heads"));
        target_->setItemText(1, tr("Switches turn off experts"));
        target_->setToolTip(tr("What an unchecked subsystem turns off in the next run: its heads, or the experts the "
                               "calibrated expert map gives it in every layer"));
        syncLabels();
        syncMetrics();
        syncMapNote();
        checkExperts();
    });
}

// The experts field's tooltip says what it does, or which of its entries do not parse (in red).
void SwitchesPanel::checkExperts() {
    QStringList bad;
    parse_switches(experts_->text(), &bad);
    experts_->setStyleSheet(bad.isEmpty() ? QString() : QStringLiteral("QLineEdit { color: #c0392b; }"));
    experts_->setToolTip(bad.isEmpty() ? tr("Experts left out of the router's choice in the next run: the next most probable expert "
                                            "runs instead. layer:expert, or *:expert for every layer; right-click a cell of the "
                                            "Experts panel to add one.")
                                       : tr("Not layer:expert, left out of the run: %1").arg(bad.join(QStringLiteral(", "))));
}

void SwitchesPanel::syncExperts() {
    const bool experts = store_.model() && store_.model()->n_expert > 0;
    experts_label_->setVisible(experts);
    experts_->setVisible(experts);
    const QString path = loadedModelPath();
    if (!experts || (!experts_for_.isEmpty() && experts_for_ != path)) experts_->clear();
    experts_for_ = path;
    const bool mapped = experts && store_.model()->expert_map.has_value();
    target_->setVisible(mapped);
    if (!mapped) target_->setCurrentIndex(0);
}

QString SwitchesPanel::loadedModelPath() const {
    return store_.model() ? QString::fromStdString(store_.model()->path) : QString();
}

void SwitchesPanel::addExpertSwitch(const ExpertSwitch& expert) {
    const std::vector<ExpertSwitch> now = parse_switches(experts_->text());
    if (std::find(now.begin(), now.end(), expert) != now.end()) return;
    const QString text = experts_->text().trimmed();
    experts_->setText((text.isEmpty() ? QString() : text + QStringLiteral(", ")) + QString::fromStdString(expert_switch_text(expert)));
}

// Each switch names its group as the model's map allows: "rte-c" with the subsystem's name in the
// tooltip where a map gave the groups meaning, "group 2" where none did.
void SwitchesPanel::syncLabels() {
    const auto& model = store_.model();
    for (int s = 0; s < kSubsystemCount; ++s) {
        QCheckBox* box = toggles_[static_cast<size_t>(s)];
        const bool named = model && groups_are_named(*model);
        const bool no_heads = model && group_has_no_heads(*model, s);
        box->setText(model ? head_group_short(*model, s) : subsystem_id(s));
        // A group without heads (a model with fewer than eight heads a layer) has nothing to turn off.
        if (no_heads) box->setChecked(true);
        box->setEnabled(!no_heads);
        box->setToolTip(no_heads ? tr("This model's head map gives this group no heads (%1 heads a layer): nothing to turn off.")
                                       .arg(model->head_map->n_head())
                                 : (named || !model ? subsystem_name(s) + QStringLiteral(". ") : QString()) +
                                       tr("Unchecked: this group's heads are ablated in the next run."));
    }
}

QString SwitchesPanel::mapNote() const { return map_note_->isHidden() ? QString() : map_note_->text(); }

void SwitchesPanel::syncMapNote() {
    const RunRecord* run = store_.current();
    const auto& next = store_.model();
    QString note;
    if (run && run->model && next && !run->capture) {
        const auto& ran = run->model->head_map;
        const auto where = [](const ModelInfo& m) {
            return m.engine ? tr("%1 on the server %2").arg(QString::fromStdString(m.engine->model), QString::fromStdString(m.engine->url))
                            : QString::fromStdString(m.name);
        };
        if (run->model->path != next->path) {
            note = tr("The shown run was made with %1; these switches are for the next run, on %2.").arg(where(*run->model), where(*next));
        } else if (ran && next->head_map && ran->to_json() != next->head_map->to_json()) {
            note = ran->source() == next->head_map->source()
                       ? tr("The shown run was measured with an earlier head map; these switches name the groups of the next run.")
                       : tr("The shown run was measured with the %1 head map; these switches name the groups of the next run (%2 map).")
                             .arg(head_map_source_label(ran->source()), head_map_source_label(next->head_map->source()));
        }
    }
    map_note_->setText(note);
    map_note_->setVisible(!note.isEmpty());
}

void SwitchesPanel::syncMetrics() {
    QSignalBlocker block(metric_);
    metric_->clear();
    const auto& model = store_.shown_model(); // the shown run's (a capture's), else the loaded one
    std::vector<Metric> metrics = {Metric::NormShare, Metric::Relative, Metric::Dla};
    if (model && model->has_router) metrics.insert(metrics.begin(), Metric::Gates);
    if (model && model->expert_map) metrics.push_back(Metric::Experts);
    for (Metric m : metrics) {
        metric_->addItem(metric_label(m), static_cast<int>(m));
        metric_->setItemData(metric_->count() - 1, metric_tooltip(m), Qt::ToolTipRole);
    }
    metric_->setCurrentIndex(metric_->findData(static_cast<int>(store_.metric())));
}

void SwitchesPanel::apply(RunSpec& s) const {
    for (int k = 0; k < kSubsystemCount; ++k) s.disabled[static_cast<size_t>(k)] = !toggles_[static_cast<size_t>(k)]->isChecked();
    s.ablation_mode = static_cast<AblationMode>(mode_->currentData().toInt());
    s.disabled_experts = parse_switches(experts_->text());
    s.switch_target = static_cast<SwitchTarget>(target_->currentData().toInt());
}

void SwitchesPanel::restore(const RunSpec& s) {
    for (int k = 0; k < kSubsystemCount; ++k) toggles_[static_cast<size_t>(k)]->setChecked(!s.disabled[static_cast<size_t>(k)]);
    mode_->setCurrentIndex(mode_->findData(static_cast<int>(s.ablation_mode)));
    QStringList experts;
    for (const ExpertSwitch& e : s.disabled_experts) experts.push_back(QString::fromStdString(expert_switch_text(e)));
    experts_->setText(experts.join(QStringLiteral(", ")));
    experts_for_.clear(); // the run's own model: kept by the load that may follow
    target_->setCurrentIndex(target_->findData(static_cast<int>(s.switch_target)));
}

} // namespace octo::ui
