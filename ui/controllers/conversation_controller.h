// What the Conversation panel asks for, run turn by turn on the engine as the CLI's `chat
// --conversation` does (engine/conversation/conversation_run.h): every given assistant turn is
// evaluated (the conversation up to it is one run's prompt, nothing generated), a missing last
// assistant turn is generated, one step at a time because each step's prompt holds the turns
// before it. Each step records attention and still reuses the KV blocks of the conversation so
// far (RunSpec::attention_keeps_kv). Connected to a server, only the missing turns are generated
// there (it measures nothing of given turns). Edit and Regenerate branch the conversation (nothing is
// overwritten); Compare shows two conversations' last turns in the A/B compare dock.
#pragma once

#include <QObject>
#include <QString>

class QWidget;

#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "engine/chat/chat_message.h"
#include "engine/generation/run_spec.h"

namespace octo::ui {

class ConversationStore;
class EngineBridge;
class RunStore;
class StatusSink;

struct ConversationServices {
    QWidget& dialogs; // where file dialogs go
    ConversationStore& conversations;
    RunStore& runs;
    EngineBridge& bridge;
    StatusSink& status;
    std::function<RunSpec()> editor_spec;              // the editor's run spec with the switches (sampling, max tokens, …)
    std::function<bool(quint64 a, quint64 b)> compare; // shows two runs in the A/B compare dock
};

class ConversationController : public QObject {
    Q_OBJECT
public:
    explicit ConversationController(ConversationServices services, QObject* parent = nullptr);

    // A new conversation of `messages` (a file, an example): each given assistant turn is
    // evaluated, and a missing last one generated. False (and a status message) when the engine
    // cannot run it (no messages, a late system message).
    bool open(const std::vector<ChatMessage>& messages);
    // A script of user turns (an example without assistant turns): each is sent once the answer to
    // the one before it is generated, as a user would type them.
    bool play(const std::vector<ChatMessage>& messages);
    // The next message in the shown conversation (in a new one when none is shown or
    // `new_conversation`): a user message is answered (generated), an assistant message evaluated
    // as written, a system message (only as the first) waits for the user's.
    bool send(ChatRole role, const QString& text, bool new_conversation = false);
    // Turn `turn` of the shown conversation with this text, in a branch that keeps the turns before
    // it: a user turn is answered again, an assistant turn evaluated as written.
    bool edit(size_t turn, const QString& text);
    // Assistant turn `turn` generated again in a branch that keeps the turns before it.
    bool regenerate(size_t turn);
    // A branch that keeps turns [0, turn] of the shown conversation, to continue differently.
    bool branch(size_t turn);
    // The last assistant turns of conversations `a` and `b` in the A/B compare dock.
    bool compare(int a, int b);
    // File → Open Conversation…: a JSON file of OpenAI messages ({"messages": […]} or the bare
    // array), opened as a new conversation; errors name the file and the field.
    bool openFile(const QString& path);
    // File → Save Conversation…: the shown conversation's messages as {"messages": […]}.
    bool saveFile(const QString& path);
    void askOpenFile();
    void askSaveFile();
    void cancel(); // stops the step running now and drops the steps after it
    bool busy() const { return in_flight_.has_value() || !queue_.empty(); }

signals:
    // false: every step asked for has run — also at once when a request had nothing to run.
    void busyChanged(bool busy);

private:
    struct Step {
        int conversation = 0;
        size_t turn = 0;     // the assistant turn it evaluates or generates
        bool generate = false;
    };
    void queueConversation(int number, size_t from); // every assistant turn from `from` on, and a missing last one
    void next();
    void settled(quint64 id);
    void dropped(quint64 id);
    void stop(const QString& why);
    void streamed();

    ConversationServices s_;
    std::deque<Step> queue_;
    std::optional<Step> in_flight_;
    std::deque<ChatMessage> script_; // play(): the user turns still to send
    int script_conversation_ = 0;
    uint64_t in_flight_run_ = 0;
};

} // namespace octo::ui
