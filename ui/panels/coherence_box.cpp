#include "ui/panels/coherence_box.h"

#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/session/conversation_store.h"
#include "ui/support/language.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {

QString kind_title(CoherenceKind kind) {
    switch (kind) {
    case CoherenceKind::EntityReference: return CoherenceBox::tr("Entity reference");
    case CoherenceKind::LogicalContinuity: return CoherenceBox::tr("Logical continuity");
    case CoherenceKind::SentimentStability: return CoherenceBox::tr("Sentiment");
    }
    return {};
}

QString quoted(const std::vector<ChatMessage>& messages, const MessageSpan& span) {
    if (span.message >= messages.size()) return {};
    const std::string& text = messages[span.message].content;
    const size_t begin = std::min(span.begin, text.size());
    const size_t end = std::clamp(span.end, begin, text.size());
    return QString::fromStdString(text.substr(begin, end - begin));
}

} // namespace

CoherenceBox::CoherenceBox(ConversationStore& conversations, QWidget* parent) : QGroupBox(parent), conversations_(conversations) {
    setObjectName(QStringLiteral("coherenceBox"));
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    list_ = new QTreeWidget(this);
    list_->setObjectName(QStringLiteral("coherenceFindings"));
    list_->setRootIsDecorated(false);
    list_->setColumnCount(3);
    list_->header()->setStretchLastSection(true);
    list_->setMinimumHeight(80);
    setMinimumHeight(170); // below the advisor's own lists, never squeezed to its title
    details_ = new QLabel(this);
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(list_, 1);
    layout->addWidget(details_);
    connect(list_, &QTreeWidget::currentItemChanged, this, &CoherenceBox::showDetails);
    // Choosing a finding selects its later turn and points at both statements in the transcript.
    const auto choose = [this](QTreeWidgetItem* item) {
        const int i = item ? list_->indexOfTopLevelItem(item) : -1;
        if (!report_ || i < 0 || i >= static_cast<int>(report_->findings.size())) return;
        const CoherenceFinding& f = report_->findings[static_cast<size_t>(i)];
        conversations_.select_turn(static_cast<int>(f.later.message));
        conversations_.set_marks({f.earlier, f.later});
    };
    connect(list_, &QTreeWidget::itemActivated, this, choose);
    connect(list_, &QTreeWidget::itemClicked, this, choose);
    connect(&conversations_, &ConversationStore::shownChanged, this, &CoherenceBox::measure);
    connect(&conversations_, &ConversationStore::turnsChanged, this, &CoherenceBox::measure);
    on_language_change(this, [this] { retranslate(); });
    setVisible(false); // until a conversation is shown
}

bool CoherenceBox::load(const QString& resource_dir) {
    auto lexicon = read_default_sentiment_lexicon(QDir(resource_dir).absolutePath().toStdString());
    if (!lexicon) {
        load_error_ = QString::fromStdString(lexicon.error().message);
        lexicon_.reset();
    } else {
        load_error_.clear();
        lexicon_ = std::move(lexicon.value());
    }
    messages_.clear(); // measured again with this lexicon
    measure();
    return lexicon_.has_value();
}

void CoherenceBox::measure() {
    std::vector<ChatMessage> messages;
    if (const ConversationRecord* c = conversations_.current(); c && lexicon_) {
        for (const ChatTurnRecord& t : c->turns) {
            if (!t.pending) messages.push_back(t.message); // a turn still being written is measured once it is whole
        }
    }
    // A streamed token changes a pending turn only: the measured text is the same, so is the report.
    if (!messages.empty() && messages == messages_ && report_) return;
    messages_ = std::move(messages);
    report_.reset();
    if (!messages_.empty()) report_ = measure_coherence(messages_, *lexicon_);
    setVisible(conversations_.current() != nullptr);
    retranslate();
}

void CoherenceBox::retranslate() {
    setTitle(tr("Conversation coherence"));
    list_->setHeaderLabels({tr("Turn"), tr("Measure"), tr("What changed")});
    const bool zh = installed_language() == QLatin1String("zh_CN");
    const int current = list_->currentItem() ? list_->indexOfTopLevelItem(list_->currentItem()) : -1;
    list_->clear();
    details_->clear();
    if (!lexicon_) {
        summary_->setText(load_error_.isEmpty() ? QString() : tr("Coherence measures unavailable: %1").arg(load_error_));
        return;
    }
    if (!report_) {
        summary_->setText(tr("No conversation shown: its coherence over turns is measured here (Conversation panel)."));
        return;
    }
    const auto share = [this](CoherenceKind k) { return QString::number(100.0 * report_->coherent_share[static_cast<size_t>(k)], 'f', 0); };
    summary_->setText(tr("Findings: %1. Windows of 3 assistant turns without a break (of %2): entity %3 %, logic %4 %, sentiment %5 %.")
                          .arg(report_->findings.size())
                          .arg(report_->windows.size())
                          .arg(share(CoherenceKind::EntityReference), share(CoherenceKind::LogicalContinuity), share(CoherenceKind::SentimentStability)));
    for (const CoherenceFinding& f : report_->findings) {
        auto* item = new QTreeWidgetItem(list_);
        item->setText(0, QString::number(f.later.message + 1));
        item->setText(1, kind_title(f.kind));
        item->setText(2, tr("“%1” (turn %2) → “%3”").arg(quoted(messages_, f.earlier)).arg(f.earlier.message + 1).arg(quoted(messages_, f.later)));
        item->setData(0, Qt::UserRole, static_cast<int>(f.later.message));
        item->setToolTip(2, QString::fromStdString(zh ? f.suggestion_zh : f.suggestion_en));
    }
    if (current >= 0 && current < list_->topLevelItemCount()) list_->setCurrentItem(list_->topLevelItem(current));
}

void CoherenceBox::showDetails() {
    const int i = list_->currentItem() ? list_->indexOfTopLevelItem(list_->currentItem()) : -1;
    if (!report_ || i < 0 || i >= static_cast<int>(report_->findings.size())) {
        details_->clear();
        return;
    }
    const CoherenceFinding& f = report_->findings[static_cast<size_t>(i)];
    const bool zh = installed_language() == QLatin1String("zh_CN");
    details_->setText(tr("%1\nSuggestion: %2").arg(QString::fromStdString(f.explanation), QString::fromStdString(zh ? f.suggestion_zh : f.suggestion_en)));
}

} // namespace octo::ui
