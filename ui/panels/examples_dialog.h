// Help → Examples…: prompts the built-in model octet answers correctly, one or more per subsystem
// (rte-a … rte-h), in English and Chinese. They are data, resources/examples/octet_examples.json
// (resources/README.md); tests/engine/test_octet_examples.cpp runs every one through the engine
// and checks the answer the file states. Choosing one puts it into the prompt editor (Enter or
// "Use Prompt"), or puts it there and runs it ("Use and Run"); the list is driven by the keyboard.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

#include <functional>
#include <vector>

#include "engine/chat/chat_message.h"

class QComboBox;
class QTreeWidget;

namespace octo::ui {

struct OctetExample {
    int subsystem = 0;      // 0..7, rte-a first
    QString lang;           // the prompt's language: "en" or "zh"
    QString prompt;
    QString answer;         // what octet answers, exactly (greedy)
    QString description_en; // what the example shows, in each UI language
    QString description_zh;
};

// A conversation example ("conversations" in the same file): user turns octet answers one after
// the other (`answers`, what it says to each), or a conversation whose assistant turns are given
// (no answers: any model measures them as written, a coherence break to inspect).
struct ConversationExample {
    QString lang;
    std::vector<ChatMessage> messages;
    QStringList answers;
    QString description_en;
    QString description_zh;
};

// The examples file's path under a resource folder.
QString examples_path(const QString& resource_dir);
// Reads an examples file; on failure an empty list and `error` (naming the file) is set.
QList<OctetExample> load_examples(const QString& path, QString* error = nullptr);
// Its conversations; on failure an empty list and `error` set (a file without any is no error).
QList<ConversationExample> load_conversation_examples(const QString& path, QString* error = nullptr);
// The examples whose prompt is in `lang`, plus, for each subsystem that has none in `lang`, that
// subsystem's prompts in the other language (octet may answer only one form); by subsystem.
QList<OctetExample> examples_in(const QList<OctetExample>& all, const QString& lang);

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
