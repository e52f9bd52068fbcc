// Help → Examples…: prompts the built-in model octet answers correctly, one or more per subsystem
// (rte-a … rte-h), in English and Chinese, read from resources/examples/octet_examples.json
// (ui/panels/examples_file.h). Choosing one puts it into the prompt editor (Enter or
// "Use Prompt"), or puts it there and runs it ("Use and Run"); the list is driven by the keyboard.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

#include <functional>
#include <vector>

#include "engine/chat/chat_message.h"
#include "ui/panels/examples_file.h"

class QComboBox;
class QTreeWidget;

namespace octo::ui {

class ExamplesDialog : public QDialog {
    Q_OBJECT
public:
    // `ui_language`: "en" or "zh_CN" — picks the descriptions and the prompts shown first.
    ExamplesDialog(QList<OctetExample> examples, QList<ConversationExample> conversations, const QString& ui_language,
                   QWidget* parent = nullptr);

    QTreeWidget* list() const { return list_; }
    // The examples listed now, in their order (the prompt language chosen).
    const QList<OctetExample>& shown() const { return shown_; }
    const QList<ConversationExample>& shownConversations() const { return shown_conversations_; } // rows after shown()

signals:
    // The user chose `prompt`; `run`: run it at once.
    void chosen(const QString& prompt, bool run);
    // The user chose a conversation: it opens in the Conversation panel and runs.
    void conversationChosen(const std::vector<octo::ChatMessage>& messages);

private:
    void fill();
    void choose(bool run);

    QList<OctetExample> all_;
    QList<OctetExample> shown_;
    QList<ConversationExample> conversations_;
    QList<ConversationExample> shown_conversations_; // listed after the prompts
    bool zh_descriptions_;
    QComboBox* language_;
    QTreeWidget* list_;
};

// Opens the dialog for the examples under `resource_dir` (non-blocking; deletes itself when
// closed) and calls `use` with the example chosen. A missing or broken file is a message instead.
void show_examples(QWidget& parent, const QString& resource_dir, std::function<void(const QString& prompt, bool run)> use,
                   std::function<void(const std::vector<ChatMessage>& messages)> open_conversation);

} // namespace octo::ui
