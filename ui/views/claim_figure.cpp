#include "ui/views/claim_figure.h"

#include <QLabel>
#include <QVBoxLayout>

#include "ui/support/plot.h"

namespace octo::ui {

ClaimFigure::ClaimFigure(QWidget* parent) : QWidget(parent), layout_(new QVBoxLayout(this)), empty_(new QLabel(this)) {
    layout_->setContentsMargins(0, 0, 0, 0);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    layout_->addWidget(empty_);
    setMinimumHeight(80);
}

void ClaimFigure::clearPlot() {
    if (!plot_) return;
    layout_->removeWidget(plot_);
    delete plot_;
    plot_ = nullptr;
}

void ClaimFigure::showMessage(const QString& text) {
    clearPlot();
    empty_->setText(text);
    empty_->show();
}

Plot* ClaimFigure::newPlot(const QString& object_name) {
    clearPlot();
    empty_->hide();
    plot_ = new Plot(object_name, this);
    layout_->addWidget(plot_);
    return plot_;
}

} // namespace octo::ui
