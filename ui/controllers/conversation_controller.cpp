#include "ui/controllers/conversation_controller.h"

#include <QFileDialog>

#include <algorithm>

#include "engine/chat/chat_messages_json.h"
#include "engine/conversation/conversation_run.h"
#include "ui/controllers/engine_bridge.h"
#include "ui/session/conversation_store.h"
#include "ui/session/run_store.h"
#include "ui/support/file_save.h"
#include "ui/support/window_services.h"

namespace octo::ui {

ConversationController::ConversationController(ConversationServices services, QObject* parent)
    : QObject(parent), s_(std::move(services)) {
    connect(&s_.runs, &RunStore::runSettled, this, &ConversationController::settled);
    connect(&s_.runs, &RunStore::runDropped, this, &ConversationController::dropped);
    connect(&s_.runs, &RunStore::tokensAppended, this, &ConversationController::streamed);
    // Every view follows the selected turn: its run is shown, with the turn's last token selected
    // (its attention spans the whole conversation before it) ...
    connect(&s_.conversations, &ConversationStore::selectionChanged, this, [this] {
        const ConversationRecord* c = s_.conversations.current();
        const int turn = s_.conversations.selected_turn();
        RunStore::Focus focus = s_.runs.focus();
        focus.turn = c ? turn : -1; // the views over positions tint the turn (linked views)
        s_.runs.set_focus(focus);
        if (!c || turn < 0) return;
        const std::optional<uint64_t> run = c->run_showing(static_cast<size_t>(turn));
        if (!run || !s_.runs.run(*run)) return;
        s_.runs.show_run(*run);
        const RunRecord* r = s_.runs.current();
        const std::vector<ConversationTurn> turns = locate_turns(r->trace);
        if (static_cast<size_t>(turn) < turns.size() && turns[static_cast<size_t>(turn)].end_token > turns[static_cast<size_t>(turn)].first_token) {
            s_.runs.select_token(static_cast<int>(turns[static_cast<size_t>(turn)].end_token) - 1);
        }
    });
    // ... and a conversation's run shown elsewhere (the history) selects its turn.
    connect(&s_.runs, &RunStore::runChanged, this, [this] {
        const RunRecord* r = s_.runs.current();
        if (!r) return;
        const auto where = s_.conversations.turn_of_run(r->id);
        if (!where) return;
        const ConversationRecord* c = s_.conversations.current();
        if (!c || c->number != where->first) {
            // Shown elsewhere: a conversation sharing the run (a branch) keeps it; else that one.
            bool shared = false;
            if (c) {
                for (const ChatTurnRecord& t : c->turns) shared = shared || t.run == r->id;
            }
            if (!shared) s_.conversations.show(where->first);
        }
        const ConversationRecord* shown = s_.conversations.current();
        for (size_t t = 0; shown && t < shown->turns.size(); ++t) {
            if (shown->turns[t].run == r->id && s_.conversations.selected_turn() != static_cast<int>(t)) {
                s_.conversations.select_turn(static_cast<int>(t));
            }
        }
    });
}

bool ConversationController::open(const std::vector<ChatMessage>& messages) {
    if (auto ok = check_conversation(messages); !ok) {
        s_.status.showError(tr("Cannot open the conversation: %1").arg(QString::fromStdString(ok.error().message)), 10000);
        return false;
    }
    const int number = s_.conversations.create(messages);
    queueConversation(number, 0);
    return true;
}

bool ConversationController::play(const std::vector<ChatMessage>& messages) {
    if (std::any_of(messages.begin(), messages.end(), [](const ChatMessage& m) { return m.role == ChatRole::Assistant; })) return open(messages);
    const auto first_user = std::find_if(messages.begin(), messages.end(), [](const ChatMessage& m) { return m.role == ChatRole::User; });
    if (first_user == messages.end() || busy()) return open(messages); // says why it cannot
    if (!open(std::vector<ChatMessage>(messages.begin(), first_user + 1))) return false;
    script_.assign(first_user + 1, messages.end());
    script_conversation_ = s_.conversations.current()->number;
    return true;
}

bool ConversationController::send(ChatRole role, const QString& text, bool new_conversation) {
    if (text.trimmed().isEmpty()) return false;
    if (busy()) {
        s_.status.showMessage(tr("Wait for the turn being generated, or cancel it (Esc)."), 8000);
        return false;
    }
    const ChatMessage message{role, text.toStdString()};
    const ConversationRecord* c = new_conversation ? nullptr : s_.conversations.current();
    std::vector<ChatMessage> messages = c ? c->messages() : std::vector<ChatMessage>{};
    messages.push_back(message);
    if (role == ChatRole::System) {
        if (messages.size() > 1) {
            s_.status.showError(tr("A system message is accepted only as the first message: start a new conversation."), 10000);
            return false;
        }
    } else if (auto ok = check_conversation(messages); !ok) {
        s_.status.showError(QString::fromStdString(ok.error().message), 10000);
        return false;
    }
    const int number = c ? c->number : s_.conversations.create({});
    const size_t at = s_.conversations.append(number, given_turn(message));
    if (role == ChatRole::System) return true; // answered once a user message follows
    queueConversation(number, at);
    return true;
}

bool ConversationController::edit(size_t turn, const QString& text) {
    const ConversationRecord* c = s_.conversations.current();
    if (!c || turn >= c->turns.size() || busy() || text.trimmed().isEmpty()) return false;
    ChatMessage edited = c->turns[turn].message;
    edited.content = text.toStdString();
    const int number = s_.conversations.branch(c->number, turn);
    const size_t at = s_.conversations.append(number, given_turn(edited));
    queueConversation(number, at);
    return true;
}

bool ConversationController::regenerate(size_t turn) {
    const ConversationRecord* c = s_.conversations.current();
    if (!c || turn >= c->turns.size() || busy() || c->turns[turn].message.role != ChatRole::Assistant) return false;
    const int number = s_.conversations.branch(c->number, turn);
    queueConversation(number, turn);
    return true;
}

bool ConversationController::branch(size_t turn) {
    const ConversationRecord* c = s_.conversations.current();
    if (!c || turn >= c->turns.size() || busy()) return false;
    s_.conversations.branch(c->number, turn + 1);
    return true;
}

bool ConversationController::compare(int a, int b) {
    const ConversationRecord* ca = s_.conversations.find(a);
    const ConversationRecord* cb = s_.conversations.find(b);
    if (!ca || !cb || a == b) return false;
    const auto ra = ca->last_run(), rb = cb->last_run();
    if (ra && rb && *ra != *rb && s_.compare(*ra, *rb)) return true;
    s_.status.showError(tr("These conversations cannot be compared: each needs a last turn of its own, run on the same model."), 10000);
    return false;
}

bool ConversationController::openFile(const QString& path) {
    auto messages = read_conversation_file(path.toStdString());
    if (!messages) {
        s_.status.showError(tr("Cannot open the conversation: %1").arg(QString::fromStdString(messages.error().message)), 10000);
        return false;
    }
    if (busy()) {
        s_.status.showMessage(tr("Wait for the turn being generated, or cancel it (Esc)."), 8000);
        return false;
    }
    return open(messages.value());
}

bool ConversationController::saveFile(const QString& path) {
    const ConversationRecord* c = s_.conversations.current();
    if (!c || c->turns.empty()) {
        s_.status.showError(tr("No conversation to save: start one in the Conversation panel."), 10000);
        return false;
    }
    std::vector<ChatMessage> messages;
    for (const ChatTurnRecord& t : c->turns) {
        if (!t.pending) messages.push_back(t.message);
    }
    const std::string text = conversation_file_text(messages);
    QString error;
    if (!save_file(path, QByteArray::fromStdString(text), &error)) {
        s_.status.showError(tr("Cannot save the conversation: %1").arg(error), 10000);
        return false;
    }
    s_.status.showMessage(tr("Saved %1 messages to %2").arg(messages.size()).arg(path), 8000);
    return true;
}

void ConversationController::askOpenFile() {
    const QString path = QFileDialog::getOpenFileName(&s_.dialogs, tr("Open a conversation"), QString(),
                                                      tr("Conversations (*.json);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void ConversationController::askSaveFile() {
    const QString path = QFileDialog::getSaveFileName(&s_.dialogs, tr("Save the shown conversation"), QStringLiteral("conversation.json"),
                                                      tr("Conversations (*.json);;All files (*)"));
    if (!path.isEmpty()) saveFile(path);
}

void ConversationController::cancel() {
    if (!busy()) return;
    queue_.clear();
    script_.clear();
    s_.bridge.cancel(); // the step running now ends as cancelled (settled)
}

void ConversationController::queueConversation(int number, size_t from) {
    const ConversationRecord* c = s_.conversations.find(number);
    if (!c) return;
    const bool was = busy();
    // A server returns no measurements of turns it did not generate: given turns are not evaluated there.
    const bool on_server = s_.runs.model() && s_.runs.model()->engine.has_value();
    for (size_t t = from; t < c->turns.size() && !on_server; ++t) {
        if (c->turns[t].message.role == ChatRole::Assistant && !c->turns[t].run) queue_.push_back({number, t, false});
    }
    if (c->turns.empty() || c->turns.back().message.role != ChatRole::Assistant) {
        ChatTurnRecord answer;
        answer.message.role = ChatRole::Assistant;
        answer.generated = true;
        answer.pending = true;
        queue_.push_back({number, s_.conversations.append(number, std::move(answer)), true});
    }
    if (!was && busy()) emit busyChanged(true);
    if (!was && !busy()) emit busyChanged(false); // nothing to run: done at once (a server, every turn given)
    if (!in_flight_) next();
}

void ConversationController::next() {
    in_flight_.reset();
    in_flight_run_ = 0;
    while (!queue_.empty()) {
        const Step step = queue_.front();
        queue_.pop_front();
        const ConversationRecord* c = s_.conversations.find(step.conversation);
        if (!c || step.turn >= c->turns.size()) continue;
        RunSpec base = s_.editor_spec();
        base.attention_keeps_kv = true; // the conversation so far is reused; its new turn's attention recorded
        const std::vector<ChatMessage> messages = c->messages();
        const RunSpec spec = conversation_step_spec(messages, step.generate ? step.turn : step.turn + 1, step.generate, base);
        in_flight_ = step;
        in_flight_run_ = s_.bridge.run(spec, false);
        s_.runs.set_group(in_flight_run_, {RunGroup::Kind::Conversation, static_cast<uint64_t>(step.conversation), static_cast<int>(step.turn),
                                           static_cast<int>(c->turns.size()), {}});
        s_.conversations.set_run(step.conversation, step.turn, in_flight_run_);
        return;
    }
    if (!script_.empty() && s_.conversations.find(script_conversation_)) { // play(): the next user turn
        const size_t at = s_.conversations.append(script_conversation_, given_turn(script_.front()));
        script_.pop_front();
        queueConversation(script_conversation_, at);
        return;
    }
    emit busyChanged(false);
}

void ConversationController::streamed() {
    const RunRecord* r = s_.runs.current();
    if (!in_flight_ || !in_flight_->generate || !r || r->id != in_flight_run_) return;
    s_.conversations.set_text(in_flight_->conversation, in_flight_->turn, r->generated_text().toStdString(), true);
}

void ConversationController::settled(quint64 id) {
    if (!in_flight_ || id != in_flight_run_) return;
    const Step step = *in_flight_;
    const RunRecord* r = s_.runs.run(id);
    if (!r) return;
    if (step.generate) {
        const std::string text = r->trace.outcome ? r->trace.outcome->text : r->generated_text().toStdString();
        if (r->state == RunState::Failed && r->n_generated() == 0) {
            s_.conversations.remove_from(step.conversation, step.turn);
        } else {
            s_.conversations.set_text(step.conversation, step.turn, text, false); // a cancelled answer keeps what came
        }
    }
    if (r->state == RunState::Finished) {
        next();
        return;
    }
    stop(r->state == RunState::Cancelled ? tr("Conversation stopped: the turn was cancelled.")
                                         : tr("Conversation stopped: %1").arg(r->error));
}

void ConversationController::dropped(quint64 id) {
    if (!in_flight_ || id != in_flight_run_) return;
    const Step step = *in_flight_;
    if (step.generate) s_.conversations.remove_from(step.conversation, step.turn);
    s_.conversations.set_run(step.conversation, step.turn, std::nullopt);
    stop(tr("Conversation stopped: another run replaced its next turn before it started."));
}

void ConversationController::stop(const QString& why) {
    script_.clear();
    // Steps not run keep no run (their turns stay as given); a generated turn still waiting goes.
    for (auto it = queue_.rbegin(); it != queue_.rend(); ++it) {
        if (it->generate) s_.conversations.remove_from(it->conversation, it->turn);
    }
    queue_.clear();
    in_flight_.reset();
    in_flight_run_ = 0;
    s_.status.showMessage(why, 10000);
    emit busyChanged(false);
}

} // namespace octo::ui
