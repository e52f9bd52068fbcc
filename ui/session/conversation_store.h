// The workbench's conversations (docs/workbench.md, "Conversations"): each an ordered list of
// turns in OpenAI's roles, every assistant turn with the run that measured it — evaluated as given,
// or generated — whose prompt is the conversation up to that turn (engine/conversation/
// conversation_run.h). Editing or regenerating a turn never overwrites: it makes a branch, a new
// conversation that shares the turns before it (and their runs, so their KV blocks are reused) and
// remembers where it left its parent. Which conversation is shown and which turn is selected live
// here too; the views read this store when told, as they read RunStore.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "engine/chat/chat_message.h"
#include "engine/conversation/coherence.h"

namespace octo::ui {

struct ChatTurnRecord {
    ChatMessage message;
    std::optional<uint64_t> run; // an assistant turn: the run that evaluated or generated it
    bool generated = false;      // the model wrote it (else it was given: typed, opened or edited)
    bool pending = false;        // being generated: its text is the run's so far
};

// A turn as given: typed, opened or edited (nothing run yet).
inline ChatTurnRecord given_turn(ChatMessage message) {
    ChatTurnRecord t;
    t.message = std::move(message);
    return t;
}

struct ConversationRecord {
    int number = 0;                 // from 1; its name ("Conversation 3")
    std::optional<int> parent;      // the conversation it branched from
    size_t branched_at = 0;         // with a parent: turns [0, branched_at) came from it
    std::vector<ChatTurnRecord> turns;

    std::vector<ChatMessage> messages() const;
    // The run whose prompt holds message `m` (its own run for an assistant turn, else the first
    // assistant turn's after it), or the conversation's last run when none follows; nullopt
    // when nothing was run.
    std::optional<uint64_t> run_showing(size_t m) const;
    std::optional<uint64_t> last_run() const; // the last assistant turn's run
};

class ConversationStore : public QObject {
    Q_OBJECT
public:
    explicit ConversationStore(QObject* parent = nullptr) : QObject(parent) {}

    const std::vector<ConversationRecord>& all() const { return conversations_; }
    const ConversationRecord* find(int number) const;
    const ConversationRecord* current() const { return find(current_); }
    int selected_turn() const { return selected_; } // an index into current()->turns, or -1
    // The conversation and turn a run measured (nullopt: no conversation's run).
    std::optional<std::pair<int, size_t>> turn_of_run(uint64_t run) const;

    // A new conversation of these messages (given, nothing run yet), shown; its number.
    int create(const std::vector<ChatMessage>& messages);
    // A branch of `from` that keeps its turns [0, keep) with their runs, shown; its number (0
    // when `from` is unknown).
    int branch(int from, size_t keep);
    // Appends a turn to conversation `number`; its index.
    size_t append(int number, ChatTurnRecord turn);
    void set_run(int number, size_t turn, std::optional<uint64_t> run);
    // A generated turn's text so far (pending) or in the end.
    void set_text(int number, size_t turn, const std::string& text, bool pending);
    void remove_from(int number, size_t turn); // turns [turn, end) go (a generation that failed)

    void show(int number); // and selects none of its turns
    void select_turn(int turn);
    // Words of the shown conversation to point at (a coherence finding's two statements); cleared
    // when another conversation is shown.
    const std::vector<MessageSpan>& marks() const { return marks_; }
    void set_marks(std::vector<MessageSpan> marks);

signals:
    void listChanged();               // a conversation was added
    void shownChanged();              // another conversation is shown
    void turnsChanged(int number);    // its turns (or their runs or text) changed
    void selectionChanged();
    void marksChanged();

private:
    ConversationRecord* find_mutable(int number);

    std::vector<ConversationRecord> conversations_;
    int current_ = 0;
    int selected_ = -1;
    std::vector<MessageSpan> marks_;
};

} // namespace octo::ui
