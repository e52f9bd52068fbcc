// The Conversation panel (docs/workbench.md, "Conversations"): the shown conversation as a
// transcript coloured token by token, its turns' figures (tokens reused from the KV pool and
// evaluated, prefill time, decode speed, KV blocks held) as a table and a plot, and a composer to write the
// next turn — user, assistant (evaluated as written) or a first system message. A selected turn
// can be edited or regenerated, or the conversation branched after it; each makes a branch and
// keeps the original. Any two conversations compare in the A/B compare dock. The state is the
// ConversationStore's; the panel asks the ConversationController for everything that runs.
#pragma once

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace octo::ui {

class ConversationController;
class ConversationStore;
class ConversationTranscript;
class ConversationTurnsPlot;
class RunStore;

class ConversationPanel : public QWidget {
    Q_OBJECT
public:
    ConversationPanel(ConversationStore& conversations, RunStore& runs, QWidget* parent = nullptr);
    void setController(ConversationController* controller); // set once, before the panel is used

    ConversationTranscript* transcript() const { return transcript_; }
    QTableWidget* turnsTable() const { return table_; }
    ConversationTurnsPlot* turnsPlot() const { return turns_plot_; }
    QTabWidget* figures() const { return figures_; }
    QPlainTextEdit* composer() const { return composer_; }
    QComboBox* roleBox() const { return role_; }
    QComboBox* conversationBox() const { return shown_; }
    QComboBox* compareBox() const { return compare_with_; }
    QLabel* renderingNote() const { return rendering_; }

    void send();                   // the composer's text as the next turn (or the edited turn)
    void editSelected();           // the selected turn into the composer, to be sent as a branch
    void regenerateSelected();
    void branchSelected();
    void compareWithChosen();
    void newConversation();        // an empty composer and no conversation shown until the first turn
    // A name for conversation `number` in the UI's language: "Conversation 3 (branch of 1 after turn 4)".
    QString conversationName(int number) const;

private:
    void refreshList();
    void refreshTable();
    void refreshButtons();
    void refreshRendering();
    void createWidgets();
    void layOut();
    void connectActions();
    void followStores();
    void retranslate();

    ConversationStore& conversations_;
    RunStore& runs_;
    ConversationController* controller_ = nullptr;
    QComboBox* shown_;
    QPushButton* new_;
    QComboBox* compare_with_;
    QPushButton* compare_;
    QLabel* rendering_;
    ConversationTranscript* transcript_;
    QPushButton* edit_;
    QPushButton* regenerate_;
    QPushButton* branch_;
    QTabWidget* figures_;
    QTableWidget* table_;
    ConversationTurnsPlot* turns_plot_;
    QComboBox* role_;
    QPlainTextEdit* composer_;
    QPushButton* send_;
    QPushButton* stop_;
    QLabel* editing_note_;
    std::optional<size_t> editing_; // the turn the composer edits
    bool new_requested_ = false;    // New: the next turn starts a conversation
};

} // namespace octo::ui
