// Prompt and generated tokens as chips coloured by their dominant subsystem in the chosen
// metric; hover for the token's details and its 8-bar breakdown, click to select it. A gpt-oss
// (harmony) answer's channels each start a row behind their name, the reasoning (analysis) apart
// from the final answer, headers and closing markers drawn faint.
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
    // The channel labels drawn before a harmony answer's channels ("analysis:", "final answer:").
    QStringList channelLabels() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override; // the chip under the pointer: RunStore's hover
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct ChannelLabel {
        QRect rect;
        QString text;
    };
    void rebuild();
    void layoutChips(int width);
    int place(int width, std::vector<QRect>* rects, std::vector<ChannelLabel>* labels) const;
    static QString channelLabel(const QString& channel);

    RunStore& store_;
    std::vector<TokenChip> chips_;
    std::vector<QRect> rects_; // one per chip
    std::vector<ChannelLabel> labels_; // a harmony answer's channel names, each before its first chip
    int content_height_ = 0;
};

} // namespace octo::ui
