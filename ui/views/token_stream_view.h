// Prompt and generated tokens as chips coloured by their dominant subsystem in the chosen
// metric; hover for the token's details and its 8-bar breakdown, click to select it.
#pragma once

#include <QWidget>

#include <vector>

#include "ui/views/token_chips.h"

namespace octo::ui {

class RunStore;

class TokenStreamView : public QWidget {
    Q_OBJECT
public:
    explicit TokenStreamView(RunStore& store, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    // The text of the chips, generated ones only (what the model answered).
    QString generatedText() const;
    const std::vector<TokenChip>& chips() const { return chips_; }
    // The chip under a widget position, or -1.
    int chipAt(const QPoint& pos) const;
    // What hovering a chip shows: its tokens' ids, bytes and log-probs, the metric's bars and on a
    // mixture of experts the experts chosen per layer.
    QString tooltip(int chip) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void layoutChips(int width);

    RunStore& store_;
    std::vector<TokenChip> chips_;
    std::vector<QRect> rects_; // one per chip
    int content_height_ = 0;
};

} // namespace octo::ui
