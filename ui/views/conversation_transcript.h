// The shown conversation as a chat transcript: each turn under its role, its text coloured token by
// token by the dominant subsystem in the chosen metric (as the token stream colours a run), read
// from the run whose prompt first holds that turn — so every turn is shown where the model read
// it. A turn the model never read (a prompt template that takes only the last user message, a turn
// not run yet) is plain text with a note saying so. Click a turn, or move with the Up and Down
// keys, to select it: every other view then follows it (ConversationController). The words a
// coherence finding points at are underlined in red.
#pragma once

#include <QTextBrowser>

#include <utility>
#include <vector>

namespace octo::ui {

class ConversationStore;
class RunStore;

class ConversationTranscript : public QTextBrowser {
    Q_OBJECT
public:
    ConversationTranscript(ConversationStore& conversations, RunStore& runs, QWidget* parent = nullptr);

    // Turn t's characters in the document, [first, second) (for tests and the selection).
    const std::vector<std::pair<int, int>>& turnRanges() const { return ranges_; }
    int turnAt(int document_position) const; // -1 outside every turn
    // How many chips of turn t are coloured by a subsystem (0: shown as plain text).
    int colouredChips(size_t turn) const { return turn < coloured_.size() ? coloured_[turn] : 0; }
    // The marked words as the document holds them (ConversationStore::marks found in their turns).
    QStringList markedWords() const;

protected:
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void rebuild();
    void showSelection();

    ConversationStore& conversations_;
    RunStore& runs_;
    std::vector<std::pair<int, int>> ranges_;
    std::vector<int> header_ends_; // where each turn's header line ends (the selection bands it, not the coloured text)
    std::vector<int> coloured_;
};

} // namespace octo::ui
