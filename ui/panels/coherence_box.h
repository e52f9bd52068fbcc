// The advisor's conversation section (docs/coherence.md): the shown conversation's coherence
// findings — entity references, logical continuity, sentiment — each with the turn and words
// that broke it and a suggestion in the UI's language (restate the entity in the system message,
// quote the earlier statement, state the tone wanted), and the share of coherent windows of 3
// assistant turns per measure. Choosing a finding selects its later turn, so every view follows
// it; the transcript shows the words. The measures read text only, so they need no run. The box
// shows only while a conversation is shown.
#pragma once

#include <QGroupBox>

#include <optional>

#include "engine/conversation/coherence.h"

class QLabel;
class QTreeWidget;

namespace octo::ui {

class ConversationStore;

class CoherenceBox : public QGroupBox {
    Q_OBJECT
public:
    explicit CoherenceBox(ConversationStore& conversations, QWidget* parent = nullptr);
    // Reads the sentiment lexicon under `resource_dir`; on failure the box says why.
    bool load(const QString& resource_dir);

    const std::optional<CoherenceReport>& report() const { return report_; }
    QTreeWidget* list() const { return list_; }
    QLabel* summary() const { return summary_; }
    QLabel* details() const { return details_; }

private:
    void measure();
    void retranslate();
    void showDetails();

    ConversationStore& conversations_;
    QLabel* summary_;
    QTreeWidget* list_;
    QLabel* details_;
    std::optional<SentimentLexicon> lexicon_;
    QString load_error_;
    std::optional<CoherenceReport> report_;
    std::vector<ChatMessage> messages_; // what report_ measured
};

} // namespace octo::ui
