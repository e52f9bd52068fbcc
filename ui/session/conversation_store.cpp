#include "ui/session/conversation_store.h"

#include <algorithm>

namespace octo::ui {

std::vector<ChatMessage> ConversationRecord::messages() const {
    std::vector<ChatMessage> out;
    out.reserve(turns.size());
    for (const ChatTurnRecord& t : turns) out.push_back(t.message);
    return out;
}

std::optional<uint64_t> ConversationRecord::run_showing(size_t m) const {
    for (size_t i = m; i < turns.size(); ++i) {
        if (turns[i].run) return turns[i].run;
    }
    return last_run();
}

std::optional<uint64_t> ConversationRecord::last_run() const {
    for (auto it = turns.rbegin(); it != turns.rend(); ++it) {
        if (it->run) return it->run;
    }
    return std::nullopt;
}

const ConversationRecord* ConversationStore::find(int number) const {
    const auto it = std::ranges::find(conversations_, number, &ConversationRecord::number);
    return it == conversations_.end() ? nullptr : &*it;
}

ConversationRecord* ConversationStore::find_mutable(int number) { return const_cast<ConversationRecord*>(find(number)); }

std::optional<std::pair<int, size_t>> ConversationStore::turn_of_run(uint64_t run) const {
    // The newest conversation first: a branch shares its parent's runs, and is the one being worked on.
    for (auto c = conversations_.rbegin(); c != conversations_.rend(); ++c) {
        for (size_t t = 0; t < c->turns.size(); ++t) {
            if (c->turns[t].run == run) return std::pair{c->number, t};
        }
    }
    return std::nullopt;
}

int ConversationStore::create(const std::vector<ChatMessage>& messages) {
    ConversationRecord c;
    c.number = conversations_.empty() ? 1 : conversations_.back().number + 1;
    for (const ChatMessage& m : messages) c.turns.push_back(given_turn(m));
    conversations_.push_back(std::move(c));
    emit listChanged();
    show(conversations_.back().number);
    return conversations_.back().number;
}

int ConversationStore::branch(int from, size_t keep) {
    const ConversationRecord* source = find(from);
    if (!source) return 0;
    ConversationRecord c;
    c.number = conversations_.back().number + 1;
    c.parent = from;
    c.branched_at = std::min(keep, source->turns.size());
    c.turns.assign(source->turns.begin(), source->turns.begin() + static_cast<std::ptrdiff_t>(c.branched_at));
    for (ChatTurnRecord& t : c.turns) t.pending = false;
    conversations_.push_back(std::move(c));
    emit listChanged();
    show(conversations_.back().number);
    return conversations_.back().number;
}

size_t ConversationStore::append(int number, ChatTurnRecord turn) {
    ConversationRecord* c = find_mutable(number);
    if (!c) return 0;
    c->turns.push_back(std::move(turn));
    emit turnsChanged(number);
    return c->turns.size() - 1;
}

void ConversationStore::set_run(int number, size_t turn, std::optional<uint64_t> run) {
    ConversationRecord* c = find_mutable(number);
    if (!c || turn >= c->turns.size()) return;
    c->turns[turn].run = run;
    emit turnsChanged(number);
}

void ConversationStore::set_text(int number, size_t turn, const std::string& text, bool pending) {
    ConversationRecord* c = find_mutable(number);
    if (!c || turn >= c->turns.size()) return;
    c->turns[turn].message.content = text;
    c->turns[turn].pending = pending;
    emit turnsChanged(number);
}

void ConversationStore::remove_from(int number, size_t turn) {
    ConversationRecord* c = find_mutable(number);
    if (!c || turn >= c->turns.size()) return;
    c->turns.resize(turn);
    if (number == current_ && selected_ >= static_cast<int>(turn)) selected_ = -1;
    emit turnsChanged(number);
}

void ConversationStore::set_marks(std::vector<MessageSpan> marks) {
    marks_ = std::move(marks);
    emit marksChanged();
}

void ConversationStore::show(int number) {
    if (!find(number)) return;
    current_ = number;
    selected_ = -1;
    marks_.clear();
    emit shownChanged();
    emit selectionChanged();
}

void ConversationStore::select_turn(int turn) {
    const ConversationRecord* c = current();
    const int n = c ? static_cast<int>(c->turns.size()) : 0;
    const int chosen = turn >= 0 && turn < n ? turn : -1;
    if (chosen == selected_) return;
    selected_ = chosen;
    emit selectionChanged();
}

} // namespace octo::ui
