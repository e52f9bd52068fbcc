#include "ui/panels/claims_presenter.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/panels/claims_panel.h"
#include "ui/session/claims_store.h"
#include "ui/views/claim_plot_view.h"
#include "ui/views/claim_verdict_view.h"

namespace octo::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QLabel* wrapped(QWidget* parent, int point_size, bool bold = false) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    QFont f = label->font();
    f.setPointSize(point_size);
    f.setBold(bold);
    label->setFont(f);
    return label;
}

} // namespace

ClaimsPresenter::ClaimsPresenter(ClaimsStore& store, QWidget* parent) : QDialog(parent), store_(store) {
    setWindowTitle(tr("Claims — presenter"));
    setObjectName(QStringLiteral("claimsPresenter"));
    auto* layout = new QVBoxLayout(this);
    position_ = wrapped(this, 11);
    headline_ = wrapped(this, 22, true);
    article_ = wrapped(this, 14);
    measured_ = wrapped(this, 16, true);
    measured_->setTextFormat(Qt::RichText);
    note_ = wrapped(this, 11);
    plot_ = new ClaimPlotView(this);
    verdict_ = new ClaimVerdictView(this);
    verdict_->setFixedHeight(140);
    layout->addWidget(position_);
    layout->addWidget(headline_);
    layout->addWidget(article_);
    layout->addWidget(measured_);
    layout->addWidget(verdict_);
    layout->addWidget(plot_, 1);
    layout->addWidget(note_);
    auto* buttons = new QHBoxLayout;
    previous_ = new QPushButton(tr("← Previous"), this);
    next_ = new QPushButton(tr("Next →"), this);
    auto* full = new QPushButton(tr("Full Screen (F11)"), this);
    auto* close = new QPushButton(tr("Close (Esc)"), this);
    for (QPushButton* b : {previous_, next_, full, close}) b->setFocusPolicy(Qt::NoFocus);
    buttons->addWidget(previous_);
    buttons->addWidget(next_);
    buttons->addStretch(1);
    buttons->addWidget(full);
    buttons->addWidget(close);
    layout->addLayout(buttons);
    connect(previous_, &QPushButton::clicked, this, [this] { showClaim(index_ - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { showClaim(index_ + 1); });
    connect(full, &QPushButton::clicked, this, [this] { setWindowState(windowState() ^ Qt::WindowFullScreen); });
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    connect(&store_, &ClaimsStore::resultsChanged, this, [this] { showClaim(index_); });
    resize(1000, 720);
}

void ClaimsPresenter::showClaim(int index) {
    const auto& claims = store_.claims();
    if (claims.empty()) return;
    index_ = std::clamp(index, 0, static_cast<int>(claims.size()) - 1);
    const Claim& c = claims[static_cast<size_t>(index_)];
    const ClaimResult* r = store_.result(c.id);
    position_->setText(tr("Claim %1 of %2 · article section %3 · %4").arg(index_ + 1).arg(claims.size()).arg(q(c.section), claim_title(c)));
    headline_->setText(claim_text(c));
    article_->setText(c.measurable() ? tr("The article says: %1 — about GPT-4, unverified. Holds here when %2.").arg(q(article_figure_text(c)), claim_holds_text(c))
                                     : tr("The article says: %1 — about GPT-4, unverified.").arg(q(article_figure_text(c))));
    if (!c.measurable()) {
        measured_->setText(QStringLiteral("<span style=\"background:%1;color:white\">&nbsp;%2&nbsp;</span> %3")
                               .arg(verdict_colour(Verdict::NotMeasurableHere).name(), verdict_label(Verdict::NotMeasurableHere),
                                    claim_not_measurable_text(c).toHtmlEscaped()));
    } else if (r && r->estimate) {
        measured_->setText(tr("Measured: %1 &nbsp; 95 %: [%2, %3] &nbsp; n = %4 &nbsp; <span style=\"background:%5;color:white\">&nbsp;%6&nbsp;</span>")
                               .arg(q(format_claim_value(c.unit, r->estimate->value)), q(format_claim_value(c.unit, r->estimate->ci95.lo)),
                                    q(format_claim_value(c.unit, r->estimate->ci95.hi)))
                               .arg(r->estimate->n)
                               .arg(verdict_colour(r->verdict).name(), verdict_label(r->verdict)));
    } else if (r) {
        measured_->setText(QStringLiteral("<span style=\"background:%1;color:white\">&nbsp;%2&nbsp;</span> %3")
                               .arg(verdict_colour(r->verdict).name(), verdict_label(r->verdict), q(r->reason).toHtmlEscaped()));
    } else {
        measured_->setText(tr("Not measured yet: run the claims in the Claims panel."));
    }
    plot_->showClaim(&c, r);
    verdict_->showClaim(&c, r);
    const ClaimsReport& meta = store_.meta();
    note_->setText(meta.model.empty() ? QString() : tr("Model: %1 · %2. %3").arg(q(meta.model), q(meta.map), claims_note_text(meta)));
    previous_->setEnabled(index_ > 0);
    next_->setEnabled(index_ + 1 < static_cast<int>(claims.size()));
}

void ClaimsPresenter::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Space:
    case Qt::Key_PageDown: showClaim(index_ + 1); return;
    case Qt::Key_Left:
    case Qt::Key_Backspace:
    case Qt::Key_PageUp: showClaim(index_ - 1); return;
    case Qt::Key_Home: showClaim(0); return;
    case Qt::Key_End: showClaim(static_cast<int>(store_.claims().size()) - 1); return;
    case Qt::Key_F11: setWindowState(windowState() ^ Qt::WindowFullScreen); return;
    default: QDialog::keyPressEvent(event);
    }
}

} // namespace octo::ui
