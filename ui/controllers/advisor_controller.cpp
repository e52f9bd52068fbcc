#include "ui/controllers/advisor_controller.h"

#include <QStringList>

#include <algorithm>

#include <memory>

#include "engine/advisor/consistency.h"
#include "engine/advisor/output_checks.h"
#include "engine/grammar/json_schema.h"
#include "ui/panels/advisor_panel.h"
#include "ui/views/compare_view.h"
#include "ui/support/engine_labels.h"
#include "ui/controllers/run_batch.h"
#include "ui/session/run_store.h"
#include "ui/support/retranslate.h"
#include "ui/support/subsystem_palette.h"
#include "ui/views/token_chips.h"

namespace octo::ui {

QString settings_change(const RunSpec& a, const RunSpec& b) {
    QStringList changes;
    if (a.prompt != b.prompt) changes << QObject::tr("prompt edited");
    QStringList off, on;
    for (int s = 0; s < kSubsystemCount; ++s) {
        const auto k = static_cast<size_t>(s);
        if (!a.disabled[k] && b.disabled[k]) off << subsystem_id(s);
        if (a.disabled[k] && !b.disabled[k]) on << subsystem_id(s);
    }
    if (!off.isEmpty()) changes << QObject::tr("%1 disabled in B").arg(off.join(QStringLiteral(", ")));
    if (!on.isEmpty()) changes << QObject::tr("%1 enabled in B").arg(on.join(QStringLiteral(", ")));
    if (a.ablation_mode != b.ablation_mode) {
        changes << QObject::tr("ablation %1 → %2").arg(ablation_mode_label(a.ablation_mode),
                                                     ablation_mode_label(b.ablation_mode));
    }
    if (a.sampling.temperature != b.sampling.temperature) {
        changes << QObject::tr("temperature %1 → %2").arg(a.sampling.temperature).arg(b.sampling.temperature);
    }
    if (a.sampling.seed != b.sampling.seed) changes << QObject::tr("seed %1 → %2").arg(a.sampling.seed).arg(b.sampling.seed);
    if (a.sampling.top_p != b.sampling.top_p || a.sampling.top_k != b.sampling.top_k) changes << QObject::tr("top-p/top-k changed");
    if (a.max_tokens != b.max_tokens) changes << QObject::tr("max tokens %1 → %2").arg(a.max_tokens).arg(b.max_tokens);
    if (a.grammar != b.grammar) {
        changes << (b.grammar.empty() ? QObject::tr("output constraint off in B") : QObject::tr("output constrained in B"));
    }
    if (a.precision != b.precision) {
        const auto label = [](std::optional<Precision> p) { return p ? precision_label(*p) : QObject::tr("model default"); };
        changes << QObject::tr("precision %1 → %2").arg(label(a.precision), label(b.precision));
    }
    return changes.isEmpty() ? QObject::tr("nothing (same settings twice)") : changes.join(QStringLiteral("; "));
}

AdvisorController::AdvisorController(RunStore& store, EngineBridge& bridge, AdvisorPanel* advisor, CompareView* compare_view,
                                     std::function<RunSpec()> current_settings, std::function<void()> show_compare,
                                     QObject* parent)
    : QObject(parent), store_(store), advisor_(advisor), compare_(compare_view), current_settings_(std::move(current_settings)),
      show_compare_(std::move(show_compare)), pair_(new RunBatch(store, bridge, this)),
      samples_(new RunBatch(store, bridge, this)) {
    connect(pair_, &RunBatch::settled, this, &AdvisorController::showComparison);
    connect(samples_, &RunBatch::settled, this, &AdvisorController::reportConsistency);
    connect(advisor_, &AdvisorPanel::compareRequested, this,
            [this](const QString& before, const QString& after, const QString& rule) {
                RunSpec a = current_settings_();
                RunSpec b = a;
                a.prompt = before.toStdString();
                b.prompt = after.toStdString();
                // The rule by its title, in the language shown when the text is asked for.
                this->compare(a, b, [this, rule] { return tr("prompt rewritten: %1").arg(advisor_->ruleTitle(rule)); });
                rewrite_pair_ = true;
            });
    connect(advisor_, &AdvisorPanel::constrainedCompareRequested, this,
            [this](const QString& prompt, const QString& rewritten, const QString& schema) {
                RunSpec a = current_settings_();
                a.prompt = rewritten.toStdString();
                a.grammar.clear();
                a.json_schema.clear();
                RunSpec b = a;
                b.prompt = prompt.toStdString();
                auto gbnf = json_schema_to_gbnf(schema.toStdString());
                if (!gbnf) return; // the fields' schema is built to compile (apply_rewrite.h)
                b.grammar = gbnf.value();
                b.json_schema = schema.toStdString();
                this->compare(a, b, [] { return tr("A: the rewritten prompt, free; B: the prompt as it was, constrained to the fields' schema"); });
            });
    connect(advisor_, &AdvisorPanel::consistencyRequested, this, &AdvisorController::runConsistency);
    connect(&store_, &RunStore::runFinished, this, [this] {
        const RunRecord* r = store_.current();
        if (!r) return;
        // Only a finished answer is checked; the output of an earlier run never stays behind.
        if (r->state == RunState::Finished) {
            const auto& model = store_.model();
            const auto texts = model ? model->token_texts : nullptr;
            const auto token_text = [texts](int32_t id) {
                return texts && id >= 0 && static_cast<size_t>(id) < texts->size() ? token_display_text((*texts)[static_cast<size_t>(id)]).toStdString()
                                                                                    : "id " + std::to_string(id);
            };
            advisor_->setOutput(QString::fromStdString(r->trace.spec.prompt), r->generated_text(),
                                constrained_tokens(r->trace.generated(), token_text));
        }
        else if (r->state == RunState::Cancelled) advisor_->clearOutput([] { return tr("The last run was cancelled: its partial output is not checked."); });
        else if (r->state == RunState::Failed) advisor_->clearOutput([] { return tr("The last run failed: there is no output to check."); });
    });
    // The findings name a subsystem as the loaded model's heads are labelled: rte-a … only when a
    // map gives its groups that meaning, else group 0 … 7.
    const auto label_groups = [this] {
        const auto& model = store_.model();
        if (!model || groups_are_named(*model)) {
            advisor_->setGroupLabels(nullptr, nullptr);
            return;
        }
        const auto info = std::make_shared<const ModelInfo>(*model);
        advisor_->setGroupLabels([info](int g) { return head_group_short(*info, g); },
                                 [info](int g) { return tr("%1 — in the article's terms %2; this model's heads carry no such meaning until calibrated")
                                                     .arg(head_group_label(*info, g), subsystem_id(g)); });
    };
    connect(&store_, &RunStore::modelLoaded, this, label_groups);
    // A verdict is about one pair of runs of one model: another model drops it, another shown run
    // hides it (it comes back with A or B).
    connect(&store_, &RunStore::modelLoaded, this, [this] {
        verdict_runs_.clear();
        advisor_->dropRewriteVerdict();
    });
    connect(&store_, &RunStore::runChanged, this, &AdvisorController::followShownRun);
    connect(&store_, &RunStore::calibrationFinished, this, label_groups);
    on_language_change(compare_, [this] { showRuns(false); }); // the shown comparison's words in the new language
}

void AdvisorController::compare(const RunSpec& a, const RunSpec& b, std::function<QString()> change) {
    change_ = std::move(change);
    rewrite_pair_ = false;
    samples_->abandon();
    pair_->start({a, b}, RunGroup::Kind::Pair, change_());
}

void AdvisorController::compareWithShown() {
    const RunSpec b = current_settings_();
    const RunRecord* shown = store_.current();
    const RunSpec a = shown ? shown->trace.spec : b;
    compare(a, b, [a, b] { return settings_change(a, b); });
}

void AdvisorController::abandon() {
    pair_->abandon();
    samples_->abandon();
}

void AdvisorController::showComparison(const std::vector<quint64>& ids) {
    const RunRecord* a = ids.size() == 2 ? store_.run(ids[0]) : nullptr;
    const RunRecord* b = ids.size() == 2 ? store_.run(ids[1]) : nullptr;
    if (!a || !b) return;
    compared_ = ids;
    compared_change_ = change_;
    verdict_in_compare_ = rewrite_pair_;
    if (rewrite_pair_) verdict_runs_ = ids;
    showRuns(true);
    if (rewrite_pair_ && a->state == RunState::Finished && b->state == RunState::Finished) {
        advisor_->showRewriteVerdict(QString::fromStdString(a->trace.spec.prompt), a->generated_text(),
                                     QString::fromStdString(b->trace.spec.prompt), b->generated_text());
    } else if (rewrite_pair_) {
        advisor_->clearRewriteVerdict([] { return tr("Apply & compare: A or B did not finish, so there is no verdict."); });
    }
    if (verdict_in_compare_) compare_->setVerdict(advisor_->rewriteVerdictHtml()); // the advisor's very text
    show_compare_();
    emit compared();
}

void AdvisorController::followShownRun() {
    const RunRecord* shown = store_.current();
    const auto among = [shown](const std::vector<quint64>& ids) {
        return shown && std::find(ids.begin(), ids.end(), shown->id) != ids.end();
    };
    // While Apply & compare runs, its runs show "running A and B…"; after, the verdict.
    const bool rewrite_running = rewrite_pair_ && pair_->active();
    advisor_->setRewriteVerdictShown(among(verdict_runs_) || (rewrite_running && among(pair_->ids())));
}

bool AdvisorController::compareRuns(quint64 a_id, quint64 b_id) {
    const RunRecord* a = store_.run(a_id);
    const RunRecord* b = store_.run(b_id);
    if (!a || !b || a->state == RunState::Running || b->state == RunState::Running) return false;
    if (!store_.model_of(*a) || !store_.model_of(*b)) return false; // runs of two models compare too (aligned by text)
    compared_ = {a_id, b_id};
    const bool two_models = !store_.same_model(*a, *b);
    compared_change_ = [sa = a->trace.spec, sb = b->trace.spec, two_models] {
        const QString settings = settings_change(sa, sb);
        if (!two_models) return settings;
        // Two model files: the model is what changed (the summary names both), and the settings if they did.
        return sa == sb ? tr("the model file") : tr("the model file; %1").arg(settings);
    };
    verdict_in_compare_ = false;
    showRuns(true);
    show_compare_();
    emit compared();
    return true;
}

void AdvisorController::showRuns(bool first_time) {
    const RunRecord* a = compared_.size() == 2 ? store_.run(compared_[0]) : nullptr;
    const RunRecord* b = compared_.size() == 2 ? store_.run(compared_[1]) : nullptr;
    const auto model = a ? store_.model_of(*a) : std::nullopt;
    const auto model_b = b ? store_.model_of(*b) : std::nullopt;
    if (!a || !b || !model || !model_b) return;
    if (!first_time && !compare_->involves(a->id)) return; // the view shows another comparison now
    compare_->showRuns(*a, *b, store_.metric(), compared_change_ ? compared_change_() : QString(), *model,
                       store_.same_model(*a, *b) ? std::nullopt : model_b); // clears the verdict
    if (!first_time && verdict_in_compare_) compare_->setVerdict(advisor_->rewriteVerdictHtml()); // in the new language
}

void AdvisorController::runConsistency(int runs) {
    RunSpec base = current_settings_();
    sample_temperature_ = base.sampling.temperature > 0.0f ? base.sampling.temperature : kConsistencyTemperature;
    std::vector<RunSpec> all;
    for (int i = 0; i < runs; ++i) {
        RunSpec s = base;
        s.sampling.temperature = sample_temperature_;
        s.sampling.seed = base.sampling.seed + static_cast<uint64_t>(i);
        all.push_back(s);
    }
    pair_->abandon();
    samples_->start(all, RunGroup::Kind::Samples);
}

void AdvisorController::reportConsistency(const std::vector<quint64>& ids) {
    std::vector<SampledRun> sampled;
    for (quint64 id : ids) {
        const RunRecord* r = store_.run(id);
        if (!r || r->state != RunState::Finished) continue;
        SampledRun s;
        SubsystemValues sum = {};
        bool measured = r->n_generated() > 0;
        for (size_t i = r->n_prompt(); i < r->tokens().size(); ++i) {
            const TraceToken& t = r->tokens()[i];
            s.pieces.push_back(t.bytes);
            s.logprobs.push_back(t.logprobs ? t.logprobs->logprob : 0.0);
            if (const auto& shares = t.metrics.get(store_.metric())) {
                for (size_t k = 0; k < sum.size(); ++k) sum[k] += (*shares)[k];
            } else {
                measured = false;
            }
        }
        if (measured) {
            for (float& v : sum) v /= static_cast<float>(r->n_generated());
            s.mean_shares = sum;
        }
        sampled.push_back(std::move(s));
    }
    advisor_->showConsistency(assess_consistency(sampled), sample_temperature_);
    emit consistencyReported();
}

} // namespace octo::ui
