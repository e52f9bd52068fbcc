#include "ui/panels/router_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

#include "ui/controllers/router_controller.h"
#include "ui/support/retranslate.h"
#include "ui/support/editor_highlights.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

RouterPanel::RouterPanel(QPlainTextEdit* editor, RouterController& router, QWidget* parent)
    : QWidget(parent), editor_(editor), router_(router) {
    route_ = new QLabel(this);
    route_->setObjectName(QStringLiteral("routeLabel"));
    QFont bold = route_->font();
    bold.setBold(true);
    route_->setFont(bold);
    route_->setWordWrap(true); // "Route (the article's subsystems): rte-c Numerical reasoning" fits a narrow dock
    table_ = new QTableWidget(3, 4, this);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setMaximumHeight(110);
    features_ = new QLabel(this);
    features_->setWordWrap(true);
    features_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    wrong_ = new QPushButton(this);
    wrong_->setObjectName(QStringLiteral("routeWrong"));
    auto* menu = new QMenu(wrong_);
    for (int s = 0; s < kSubsystemCount; ++s) menu->addAction(QString(), this, [this, s] { correct(s); });
    wrong_->setMenu(menu);
    wrong_->setEnabled(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    layout->addWidget(route_);
    layout->addWidget(table_);
    // The fired features scroll, so a long list (or taller CJK lines) never makes the dock's
    // minimum height outgrow the 1280 × 800 window.
    auto* features_scroll = new QScrollArea(this);
    features_scroll->setWidget(features_);
    features_scroll->setWidgetResizable(true);
    features_scroll->setFrameShape(QFrame::NoFrame);
    features_scroll->setMinimumHeight(fontMetrics().lineSpacing());
    layout->addWidget(features_scroll, 1);
    layout->addWidget(wrong_);
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&router_, &RouterController::routed, this, &RouterPanel::show);
    connect(&debounce_, &QTimer::timeout, this, &RouterPanel::schedule);
    connect(editor_, &QPlainTextEdit::textChanged, &debounce_, qOverload<>(&QTimer::start));
    on_language_change(this, [this, menu] {
        table_->setHorizontalHeaderLabels({tr("route"), tr("stage 1 (cosine)"), tr("stage 2 (features)"), tr("score")});
        wrong_->setText(tr("This route is &wrong…"));
        wrong_->setToolTip(tr("Record the right subsystem for this prompt in your probe file and refit the router"));
        for (int s = 0; s < kSubsystemCount; ++s) menu->actions()[s]->setText(QStringLiteral("%1 %2").arg(subsystem_id(s), subsystem_name(s)));
        if (!load_error_.isEmpty()) route_->setText(tr("Router unavailable: %1").arg(load_error_));
        else if (decision_) showRoute();
        else route_->setText(tr("Router: no prompt"));
    });
}

QString RouterPanel::userProbePath() { return RouterController::userProbePath(); }

bool RouterPanel::load(const QString& resource_dir) {
    if (!router_.load(resource_dir, &load_error_)) {
        route_->setText(tr("Router unavailable: %1").arg(load_error_));
        return false;
    }
    load_error_.clear();
    schedule();
    return true;
}

void RouterPanel::schedule() { router_.route(editor_->toPlainText()); }

void RouterPanel::showDecision(const QString& text, const RouteDecision& d) {
    debounce_.stop();
    router_.supersede();
    show(text, d);
}

void RouterPanel::show(const QString& text, const RouteDecision& d) {
    decision_ = d;
    decided_text_ = text;
    showRoute();
    // Stage 1's best three, listed by their final score (the route first); equal scores keep
    // stage 1's order.
    std::vector<RouteCandidate> rows = d.top3;
    std::stable_sort(rows.begin(), rows.end(), [](const RouteCandidate& a, const RouteCandidate& b) { return a.final_score > b.final_score; });
    table_->clearContents();
    for (int i = 0; i < table_->rowCount() && i < static_cast<int>(rows.size()); ++i) {
        const RouteCandidate& c = rows[static_cast<size_t>(i)];
        table_->setItem(i, 0, new QTableWidgetItem(subsystem_id(c.subsystem)));
        table_->setItem(i, 1, new QTableWidgetItem(QString::number(c.stage1, 'f', 3)));
        table_->setItem(i, 2, new QTableWidgetItem(QString::number(c.stage2, 'f', 3)));
        table_->setItem(i, 3, new QTableWidgetItem(QString::number(c.final_score, 'f', 3)));
    }
    const QByteArray utf8 = text.toUtf8();
    QStringList fired;
    // Feature ids ("f.json_keyword") are the rule file's names, not translated.
    for (const FiredFeature& f : d.features) {
        QStringList spans;
        for (const FeatureMatch& m : f.spans) {
            spans << QString::fromUtf8(utf8.mid(static_cast<qsizetype>(m.start), static_cast<qsizetype>(m.end - m.start)));
        }
        fired << QStringLiteral("%1 (%2): %3").arg(QString::fromStdString(f.id)).arg(f.value, 0, 'f', 2).arg(spans.join(QStringLiteral(", ")));
    }
    features_->setText(fired.isEmpty() ? tr("No feature fired.") : fired.join(QStringLiteral("\n")));
    wrong_->setEnabled(!text.trimmed().isEmpty());
    highlight(text, d);
    emit decided(text, d);
    emit routed();
}

void RouterPanel::setModelGroupsNamed(bool named) {
    groups_named_ = named;
    if (decision_ && load_error_.isEmpty()) showRoute();
}

void RouterPanel::showRoute() {
    const int route = decision_->route;
    // The router sorts prompts into the article's eight subsystems whatever model is loaded; a
    // model whose groups have no such meaning is told apart, so that "rte-a" here is not read
    // as its group 0.
    route_->setText(groups_named_ ? tr("Route: %1 %2").arg(subsystem_id(route), subsystem_name(route))
                                  : tr("Route (the article's subsystems): %1 %2").arg(subsystem_id(route), subsystem_name(route)));
    route_->setToolTip(groups_named_ ? QString()
                                     : tr("The router sorts prompts into the article's eight subsystems. This model's head groups "
                                          "carry no such meaning until its head map is calibrated (Model → Calibrate Head Map)."));
    route_->setStyleSheet(QStringLiteral("border-left: 10px solid %1; padding-left: 4px;").arg(subsystem_color(route).name()));
    if (decision_->features.empty()) features_->setText(tr("No feature fired."));
}

void RouterPanel::highlight(const QString& text, const RouteDecision& d) {
    const QByteArray utf8 = text.toUtf8();
    EditorHighlights* highlights = EditorHighlights::of(editor_);
    QList<QTextEdit::ExtraSelection> selections;
    for (const FiredFeature& f : d.features) {
        QColor color = subsystem_color(f.subsystem);
        color.setAlpha(90);
        QTextCharFormat format;
        format.setBackground(color);
        for (const FeatureMatch& m : f.spans) selections << highlights->span(utf8, m.start, m.end, format);
    }
    highlights->setLayer(QStringLiteral("router"), selections);
}

void RouterPanel::correct(int subsystem) { router_.correct(editor_->toPlainText(), subsystem); }

} // namespace octo::ui
