#include "ui/views/token_stream_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "engine/generation/constraint_json.h"
#include "engine/instrumentation/expert_routing.h"
#include "engine/instrumentation/subsystem.h"
#include "ui/session/run_store.h"
#include "ui/support/subsystem_palette.h"
#include "ui/views/token_chips.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {
constexpr int kPad = 4, kGap = 3, kChipHeight = 22;
}

TokenStreamView::TokenStreamView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    on_language_change(this, [this] { setAccessibleName(tr("Token stream")); });
    connect(&store_, &RunStore::runChanged, this, &TokenStreamView::rebuild);
    connect(&store_, &RunStore::tokensAppended, this, &TokenStreamView::rebuild);
    connect(&store_, &RunStore::runFinished, this, &TokenStreamView::rebuild);
    connect(&store_, &RunStore::metricChanged, this, qOverload<>(&QWidget::update));
    connect(&store_, &RunStore::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(&store_, &RunStore::hoverChanged, this, qOverload<>(&QWidget::update)); // a token hovered in another view
}

QSize TokenStreamView::sizeHint() const { return {400, std::max(content_height_, 120)}; }

int TokenStreamView::heightForWidth(int width) const { return place(width, nullptr, nullptr); }

void TokenStreamView::rebuild() {
    const RunRecord* run = store_.current();
    chips_ = run ? make_chips(run->tokens()) : std::vector<TokenChip>{};
    if (run) mark_harmony_channels(run->tokens(), chips_);
    layoutChips(width());
    updateGeometry();
    update();
}

// The channel's name as its label shows it (a harmony answer's channels).
QString TokenStreamView::channelLabel(const QString& channel) {
    if (channel == QStringLiteral("analysis")) return tr("analysis");
    if (channel == QStringLiteral("final")) return tr("final answer");
    if (channel == QStringLiteral("commentary")) return tr("commentary");
    return channel.isEmpty() ? tr("no channel") : channel;
}

// Lays the chips out in rows of `width`: a chip that starts a channel of a harmony answer starts
// a row, behind its channel's label. Returns the height; fills the chips' and labels' rects.
int TokenStreamView::place(int width, std::vector<QRect>* rects, std::vector<ChannelLabel>* labels) const {
    const QFontMetrics fm(font());
    QFont label_font = font();
    label_font.setItalic(true);
    const QFontMetrics lm(label_font);
    int x = kPad, y = kPad;
    for (const TokenChip& c : chips_) {
        if (c.channel_start) {
            if (x > kPad) {
                x = kPad;
                y += kChipHeight + kGap;
            }
            const QString label = channelLabel(c.channel) + QLatin1Char(':');
            const int w = lm.horizontalAdvance(label) + kPad;
            if (labels) labels->push_back({QRect(x, y, w, kChipHeight), label});
            x += w + kGap;
        }
        const int w = fm.horizontalAdvance(c.text) + 2 * kPad;
        if (x + w > width - kPad && x > kPad) {
            x = kPad;
            y += kChipHeight + kGap;
        }
        if (rects) rects->emplace_back(x, y, w, kChipHeight);
        x += w + kGap;
    }
    return y + kChipHeight + kPad;
}

void TokenStreamView::layoutChips(int width) {
    rects_.clear();
    labels_.clear();
    content_height_ = place(width, &rects_, &labels_);
    setMinimumHeight(content_height_);
}

void TokenStreamView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layoutChips(width());
}

QStringList TokenStreamView::channelLabels() const {
    QStringList out;
    for (const ChannelLabel& l : labels_) out << l.text;
    return out;
}

QString TokenStreamView::generatedText() const {
    const RunRecord* run = store_.current();
    return run ? run->generated_text() : QString();
}

int TokenStreamView::chipAt(const QPoint& pos) const {
    for (size_t i = 0; i < rects_.size(); ++i) {
        if (rects_[i].contains(pos)) return static_cast<int>(i);
    }
    return -1;
}

void TokenStreamView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const RunRecord* run = store_.current();
    if (!run) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Type a prompt and press Ctrl+Enter"));
        return;
    }
    const int selected = store_.selected_token();
    const int hovered = store_.hover().token;
    QFont label_font = font();
    label_font.setItalic(true);
    p.setFont(label_font);
    p.setPen(palette().color(QPalette::PlaceholderText));
    for (const ChannelLabel& l : labels_) p.drawText(l.rect, Qt::AlignLeft | Qt::AlignVCenter, l.text);
    p.setFont(font());
    for (size_t i = 0; i < chips_.size(); ++i) {
        const TokenChip& c = chips_[i];
        const int s = dominant_subsystem(run->tokens(), c, store_.metric());
        QColor fill = s >= 0 ? subsystem_color(s) : palette().color(QPalette::Button);
        if (!c.generated || c.marker) fill.setAlpha(c.marker ? 60 : 120); // a harmony header or closer: faint
        QPen outline(palette().color(QPalette::Text), 1.2);
        if (c.marker) outline.setStyle(Qt::DashLine);
        p.setPen(c.generated ? outline : QPen(Qt::NoPen));
        p.setBrush(fill);
        p.drawRoundedRect(rects_[i], 4, 4);
        if (chip_constraint(run->tokens(), c).removed_mass >= kBentMass) {
            // The grammar bent the model here: a red bar under the chip (its tooltip says how much).
            const QRectF r = rects_[i];
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(0xc0, 0x39, 0x2b));
            p.drawRect(QRectF(r.left() + 2, r.bottom() + 1, r.width() - 4, 3));
        }
        if (selected >= c.first && selected < c.first + c.count) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(rects_[i].adjusted(-1, -1, 1, 1), 5, 5);
        } else if (hovered >= c.first && hovered < c.first + c.count) { // the token under the pointer in any view
            p.setPen(QPen(palette().color(QPalette::Highlight), 1.5, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(rects_[i].adjusted(-2, -2, 2, 2), 5, 5);
        }
        p.setPen(fill.lightness() > 140 || !c.generated || c.marker ? QColor(Qt::black) : QColor(Qt::white));
        if ((!c.generated || c.marker) && palette().color(QPalette::Base).lightness() < 128) p.setPen(Qt::white);
        p.drawText(rects_[i], Qt::AlignCenter, c.text);
    }
}

void TokenStreamView::mouseMoveEvent(QMouseEvent* event) {
    QWidget::mouseMoveEvent(event);
    const int chip = chipAt(event->position().toPoint());
    store_.set_hover(chip >= 0 ? RunStore::Hover{.token = chips_[static_cast<size_t>(chip)].first} : RunStore::Hover{});
}

void TokenStreamView::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    if (store_.hover().token >= 0) store_.set_hover({});
}

void TokenStreamView::mousePressEvent(QMouseEvent* event) {
    const int chip = chipAt(event->position().toPoint());
    if (chip >= 0) store_.select_token(chips_[static_cast<size_t>(chip)].first);
    setFocus();
}

void TokenStreamView::keyPressEvent(QKeyEvent* event) {
    const RunRecord* run = store_.current();
    if (!run) return QWidget::keyPressEvent(event);
    const int n = static_cast<int>(run->tokens().size());
    int s = store_.selected_token();
    if (event->key() == Qt::Key_Right) s = std::min(n - 1, s + 1);
    else if (event->key() == Qt::Key_Left) s = std::max(0, s - 1);
    else if (event->key() == Qt::Key_Home) s = 0;
    else if (event->key() == Qt::Key_End) s = n - 1;
    else return QWidget::keyPressEvent(event);
    store_.select_token(s);
}

bool TokenStreamView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int chip = chipAt(help->pos());
        if (chip >= 0) QToolTip::showText(help->globalPos(), tooltip(chip), this);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

QString TokenStreamView::tooltip(int chip) const {
    const RunRecord* run = store_.current();
    const auto& model = store_.shown_model();
    const TokenChip& c = chips_[static_cast<size_t>(chip)];
    QString html = QStringLiteral("<b>%1</b> %2<br>").arg(c.text.toHtmlEscaped(), c.generated ? tr("(generated)") : tr("(prompt)"));
    if (!c.channel.isEmpty() || c.channel_start) {
        html += (c.marker ? tr("harmony header of the %1 channel") : tr("%1 channel")).arg(channelLabel(c.channel)) +
                QStringLiteral("<br>");
    }
    const auto alternative = [&model](int32_t id) { // by its text where the model's vocabulary is at hand
        if (model && model->token_texts && id >= 0 && static_cast<size_t>(id) < model->token_texts->size()) {
            return QStringLiteral("“%1”").arg(token_display_text((*model->token_texts)[static_cast<size_t>(id)]).toHtmlEscaped());
        }
        return tr("id %1").arg(id);
    };
    for (int i = c.first; i < c.first + c.count; ++i) {
        const TraceToken& t = run->tokens()[static_cast<size_t>(i)];
        QString hex;
        for (unsigned char b : t.bytes) hex += QStringLiteral("0x%1 ").arg(QString::number(b, 16).toUpper().rightJustified(2, QChar('0')));
        html += tr("position %1, token id %2, bytes %3").arg(i).arg(t.id).arg(hex.isEmpty() ? tr("none") : hex.trimmed());
        if (t.logprobs) {
            html += tr(", log-prob %1").arg(t.logprobs->logprob, 0, 'f', 3);
            html += QStringLiteral("<br>") + tr("alternatives:");
            for (const auto& alt : t.logprobs->top) html += QStringLiteral(" %1 (%2)").arg(alternative(alt.id)).arg(alt.logprob, 0, 'f', 2);
        }
        html += QStringLiteral("<br>");
    }
    if (const ChipConstraint bent = chip_constraint(run->tokens(), c); bent.removed_mass >= 0.0) {
        const ConstraintStep& step = *run->tokens()[static_cast<size_t>(bent.token)].constraint;
        html += QStringLiteral("<span style='color:%1'>").arg(bent.removed_mass >= kBentMass ? QStringLiteral("#c0392b") : QStringLiteral("inherit"));
        html += tr("Structured output: the constraint removed %1 % of the probability here").arg(100.0 * step.removed_mass, 0, 'f', 1);
        html += QStringLiteral("</span>");
        if (!step.removed.empty()) {
            html += QStringLiteral("<br>") + tr("the model wanted:");
            for (const auto& r : step.removed) html += QStringLiteral(" %1 (%2)").arg(alternative(r.id)).arg(r.logprob, 0, 'f', 2);
        }
        if (const auto pull = model && model->head_map ? constraint_pull(step, *model->head_map) : std::nullopt) {
            // Each group's pull toward the first removed token over the chosen one (DLA).
            html += QStringLiteral("<br>") + tr("pull toward %1 over the chosen token (DLA):").arg(alternative(step.removed.front().id));
            for (int s = 0; s < kSubsystemCount; ++s) {
                if (std::fabs((*pull)[static_cast<size_t>(s)]) >= 0.005) {
                    html += QStringLiteral(" %1 %2").arg(head_group_short(*model, s)).arg((*pull)[static_cast<size_t>(s)], 0, 'f', 2);
                }
            }
        }
        html += QStringLiteral("<br>");
    }
    const auto& v = run->tokens()[static_cast<size_t>(c.first)].metrics.get(store_.metric());
    if (v && model) {
        // One row per group: the value as a bar of 20 blocks in the group's colour, the rest as a
        // faint track, then the number.
        html += QStringLiteral("<table cellspacing=0>");
        for (int s = 0; s < kSubsystemCount; ++s) {
            const double value = (*v)[static_cast<size_t>(s)];
            const int filled = static_cast<int>(std::clamp<long>(std::lround(std::fabs(value) * 20), 0L, 20L));
            html += QStringLiteral("<tr><td>%1&nbsp;</td><td><span style='color:%2'>%3</span><span style='color:#999999'>%4</span></td>"
                                   "<td>&nbsp;%5</td></tr>")
                        .arg(head_group_short(*model, s), subsystem_color(s).name(), QString(filled, QChar(0x2588)),
                             QString(20 - filled, QChar(0x2591)))
                        .arg(value, 0, 'f', 3);
        }
        html += QStringLiteral("</table>");
    }
    const TokenProbe& probe = run->tokens()[static_cast<size_t>(c.first)].probe;
    if (!probe.expert_ids.empty() && model && model->n_layer > 0) { // a mixture of experts: the choice per layer
        html += tr("experts (weight) per layer:");
        const int64_t shown = std::min<int64_t>(model->n_layer, 12);
        for (int64_t l = 0; l < shown; ++l) {
            QString layer;
            for (const ExpertChoice& e : chosen_experts(probe, l, model->n_layer)) {
                layer += QStringLiteral(" %1 (%2)").arg(e.id).arg(e.weight, 0, 'f', 2);
            }
            html += QStringLiteral("<br>&nbsp;%1:%2").arg(l).arg(layer);
        }
        if (shown < model->n_layer) html += QStringLiteral("<br>") + tr("… %1 more layers in the Experts view").arg(model->n_layer - shown);
    }
    return html;
}

} // namespace octo::ui
