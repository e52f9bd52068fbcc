#include "ui/panels/conversation_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/controllers/conversation_controller.h"
#include "ui/session/conversation_store.h"
#include "ui/session/run_store.h"
#include "ui/support/retranslate.h"
#include "ui/views/conversation_transcript.h"
#include "ui/views/conversation_turns_plot.h"

namespace octo::ui {

namespace {

enum Column { Turn, Prompt, Reused, Evaluated, PrefillMs, Generated, TokensPerSecond, KvBlocks, ColumnCount };

ChatRole role_at(int index) { return index == 1 ? ChatRole::Assistant : index == 2 ? ChatRole::System : ChatRole::User; }
int index_of(ChatRole role) { return role == ChatRole::Assistant ? 1 : role == ChatRole::System ? 2 : 0; }

} // namespace

ConversationPanel::ConversationPanel(ConversationStore& conversations, RunStore& runs, QWidget* parent)
    : QWidget(parent), conversations_(conversations), runs_(runs) {
    setObjectName(QStringLiteral("conversationPanel"));
    createWidgets();
    layOut();
    connectActions();
    followStores();
    on_language_change(this, [this] { retranslate(); });
}

void ConversationPanel::createWidgets() {
    shown_ = new QComboBox(this);
    shown_->setObjectName(QStringLiteral("conversationShown"));
    shown_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    shown_->setMinimumContentsLength(14);
    new_ = new QPushButton(this);
    compare_with_ = new QComboBox(this);
    compare_with_->setObjectName(QStringLiteral("conversationCompareWith"));
    compare_with_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    compare_with_->setMinimumContentsLength(8);
    compare_ = new QPushButton(this);
    rendering_ = new QLabel(this);
    rendering_->setObjectName(QStringLiteral("conversationRendering"));
    rendering_->setWordWrap(true);
    transcript_ = new ConversationTranscript(conversations_, runs_, this);
    edit_ = new QPushButton(this);
    regenerate_ = new QPushButton(this);
    branch_ = new QPushButton(this);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName(QStringLiteral("conversationTurns"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setMinimumHeight(72);
    role_ = new QComboBox(this);
    role_->addItems({QString(), QString(), QString()});
    composer_ = new QPlainTextEdit(this);
    composer_->setObjectName(QStringLiteral("conversationComposer"));
    composer_->setTabChangesFocus(true);
    composer_->setMaximumHeight(72);
    send_ = new QPushButton(this);
    send_->setObjectName(QStringLiteral("conversationSend"));
    stop_ = new QPushButton(this);
    editing_note_ = new QLabel(this);
    editing_note_->setWordWrap(true);
    editing_note_->hide();
    figures_ = new QTabWidget(this);
    figures_->setObjectName(QStringLiteral("conversationFigures"));
    figures_->addTab(table_, QString());
    turns_plot_ = new ConversationTurnsPlot(conversations_, runs_, figures_);
    figures_->addTab(turns_plot_, QString());
    figures_->setMaximumHeight(280);
    figures_->setMinimumWidth(220); // not the plot's legend's width: the dock beside the prompt is narrow
}

void ConversationPanel::layOut() {
    auto* top = new QHBoxLayout;
    top->addWidget(shown_, 1);
    top->addWidget(new_);
    auto* turn_actions = new QHBoxLayout;
    turn_actions->addWidget(edit_);
    turn_actions->addWidget(regenerate_);
    turn_actions->addWidget(branch_);
    turn_actions->addStretch(1);
    auto* compare_row = new QHBoxLayout;
    compare_row->addWidget(compare_with_, 1);
    compare_row->addWidget(compare_);
    auto* composer_row = new QHBoxLayout;
    auto* composer_side = new QVBoxLayout;
    composer_side->addWidget(role_);
    composer_side->addWidget(send_);
    composer_side->addWidget(stop_);
    composer_side->addStretch(1);
    composer_row->addWidget(composer_, 1);
    composer_row->addLayout(composer_side);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(3);
    layout->addLayout(top);
    layout->addWidget(rendering_);
    layout->addWidget(transcript_, 1);
    layout->addLayout(turn_actions);
    layout->addWidget(figures_);
    layout->addLayout(compare_row);
    layout->addWidget(editing_note_);
    layout->addLayout(composer_row);
}

// The buttons, the composer's shortcuts (Ctrl+Enter sends, Esc leaves editing), the pickers.
void ConversationPanel::connectActions() {
    connect(new_, &QPushButton::clicked, this, &ConversationPanel::newConversation);
    connect(compare_, &QPushButton::clicked, this, &ConversationPanel::compareWithChosen);
    connect(edit_, &QPushButton::clicked, this, &ConversationPanel::editSelected);
    connect(regenerate_, &QPushButton::clicked, this, &ConversationPanel::regenerateSelected);
    connect(branch_, &QPushButton::clicked, this, &ConversationPanel::branchSelected);
    connect(send_, &QPushButton::clicked, this, &ConversationPanel::send);
    connect(stop_, &QPushButton::clicked, this, [this] {
        if (controller_) controller_->cancel();
    });
    for (const QKeySequence& keys : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* shortcut = new QShortcut(keys, composer_, nullptr, nullptr, Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, &ConversationPanel::send);
    }
    auto* leave_edit = new QShortcut(QKeySequence(Qt::Key_Escape), composer_, nullptr, nullptr, Qt::WidgetShortcut);
    connect(leave_edit, &QShortcut::activated, this, [this] {
        if (!editing_) return;
        editing_.reset();
        composer_->clear();
        refreshButtons();
    });
    connect(shown_, &QComboBox::activated, this, [this](int index) {
        editing_.reset();
        new_requested_ = false;
        conversations_.show(shown_->itemData(index).toInt());
    });
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = table_->selectionModel()->selectedRows();
        if (rows.isEmpty()) return;
        const int turn = table_->item(rows.front().row(), Turn)->data(Qt::UserRole).toInt();
        if (turn != conversations_.selected_turn()) conversations_.select_turn(turn);
    });
}

// What the panel shows follows the conversation store and the run store.
void ConversationPanel::followStores() {
    connect(&conversations_, &ConversationStore::listChanged, this, &ConversationPanel::refreshList);
    connect(&conversations_, &ConversationStore::shownChanged, this, [this] {
        refreshList();
        refreshTable();
        refreshButtons();
    });
    connect(&conversations_, &ConversationStore::turnsChanged, this, [this] {
        refreshTable();
        refreshButtons();
    });
    connect(&conversations_, &ConversationStore::selectionChanged, this, [this] {
        refreshButtons();
        const int t = conversations_.selected_turn();
        for (int row = 0; row < table_->rowCount(); ++row) {
            if (table_->item(row, Turn)->data(Qt::UserRole).toInt() == t) {
                if (table_->currentRow() != row) table_->selectRow(row);
                return;
            }
        }
    });
    connect(&runs_, &RunStore::runSettled, this, &ConversationPanel::refreshTable);
    connect(&runs_, &RunStore::modelLoaded, this, &ConversationPanel::refreshRendering);
}

void ConversationPanel::setController(ConversationController* controller) {
    controller_ = controller;
    connect(controller_, &ConversationController::busyChanged, this, &ConversationPanel::refreshButtons);
    refreshButtons();
}

void ConversationPanel::retranslate() {
    figures_->setTabText(0, tr("Table"));
    figures_->setTabText(1, tr("Per turn"));
    figures_->setTabToolTip(1, tr("Each turn's prompt tokens, reused from the KV pool and evaluated, and its prefill time"));
    new_->setText(tr("New"));
    new_->setToolTip(tr("Start a new conversation with the next message"));
    compare_->setText(tr("Compare"));
    compare_->setToolTip(tr("The shown conversation's last turn against the chosen one's, in the A/B compare dock"));
    edit_->setText(tr("Edit…"));
    edit_->setToolTip(tr("Put the selected turn into the composer; sending it makes a branch from there (the original stays)"));
    regenerate_->setText(tr("Regenerate"));
    regenerate_->setToolTip(tr("Generate the selected assistant turn again, in a branch (the original stays)"));
    branch_->setText(tr("Branch here"));
    branch_->setToolTip(tr("A new conversation with the turns up to the selected one, to continue differently"));
    role_->setItemText(0, tr("User"));
    role_->setItemText(1, tr("Assistant"));
    role_->setItemText(2, tr("System"));
    role_->setToolTip(tr("Who says the next turn: a user turn is answered by the model, an assistant turn is measured as "
                         "written, a system message only opens a conversation"));
    composer_->setPlaceholderText(tr("The next turn (Ctrl+Enter sends it)"));
    send_->setText(editing_ ? tr("Send as Branch") : tr("Send"));
    stop_->setText(tr("Stop"));
    stop_->setToolTip(tr("Cancel the turn being generated and the turns waiting after it"));
    table_->setHorizontalHeaderLabels({tr("Turn"), tr("Prompt tokens"), tr("Reused"), tr("Evaluated"), tr("Prefill ms"), tr("Generated"),
                                       tr("Tokens/s"), tr("KV blocks")});
    table_->horizontalHeaderItem(Reused)->setToolTip(tr("Prompt tokens taken from the KV pool: the conversation so far, whole blocks"));
    table_->horizontalHeaderItem(Evaluated)->setToolTip(tr("Prompt tokens computed by this turn's run (the rest of the prompt)"));
    table_->horizontalHeaderItem(KvBlocks)->setToolTip(tr("KV blocks held or cached when the turn's run ended"));
    refreshList();
    refreshRendering();
    refreshTable();
    refreshButtons();
}

QString ConversationPanel::conversationName(int number) const {
    const ConversationRecord* c = conversations_.find(number);
    if (!c) return {};
    if (!c->parent) return tr("Conversation %1").arg(number);
    return tr("Conversation %1 (branch of %2 after turn %3)").arg(number).arg(*c->parent).arg(c->branched_at);
}

void ConversationPanel::refreshList() {
    const ConversationRecord* current = conversations_.current();
    const int other = compare_with_->currentData().toInt();
    shown_->clear();
    compare_with_->clear();
    for (const ConversationRecord& c : conversations_.all()) {
        shown_->addItem(conversationName(c.number), c.number);
        if (!current || c.number != current->number) compare_with_->addItem(conversationName(c.number), c.number);
    }
    if (current) shown_->setCurrentIndex(shown_->findData(current->number));
    // The parent of a branch is what it is most often compared with.
    const int preferred = other > 0 && compare_with_->findData(other) >= 0 ? other : current && current->parent ? *current->parent : 0;
    if (const int at = compare_with_->findData(preferred); at >= 0) compare_with_->setCurrentIndex(at);
    refreshButtons();
}

void ConversationPanel::refreshRendering() {
    const auto& model = runs_.model();
    if (!model) {
        rendering_->setText(tr("No model loaded."));
    } else if (model->engine) {
        rendering_->setText(tr("Turns run on the server %1: its answers are measured, the given turns are not evaluated there.")
                                .arg(QString::fromStdString(model->engine->url)));
    } else if (!model->conversation_whole) {
        rendering_->setText(tr("This model states a prompt template and no chat template: only the last user message reaches it, so "
                               "its turns share no prefix and it cannot see earlier turns."));
    } else {
        rendering_->setText(tr("Turns reach the model through its %1; each turn reuses the KV blocks of the conversation so far.")
                                .arg(QString::fromStdString(model->conversation_rendering)));
    }
}

void ConversationPanel::refreshTable() {
    table_->setRowCount(0);
    const ConversationRecord* c = conversations_.current();
    if (!c) return;
    const auto cell = [this](int row, int column, const QString& text, int turn) {
        auto* item = new QTableWidgetItem(text);
        item->setData(Qt::UserRole, turn);
        if (column != Turn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(row, column, item);
    };
    for (size_t t = 0; t < c->turns.size(); ++t) {
        const ChatTurnRecord& turn = c->turns[t];
        if (!turn.run) continue;
        const RunRecord* r = runs_.run(*turn.run);
        const int row = table_->rowCount();
        table_->insertRow(row);
        const int ti = static_cast<int>(t);
        cell(row, Turn, tr("%1 (run %2)").arg(t + 1).arg(*turn.run), ti);
        if (!r || !r->trace.outcome) {
            cell(row, Prompt, r ? QString::number(r->n_prompt()) : QString(), ti);
            for (int col = Reused; col < ColumnCount; ++col) cell(row, col, turn.pending ? tr("…") : QStringLiteral("—"), ti);
            continue;
        }
        const RunOutcome& o = *r->trace.outcome;
        cell(row, Prompt, QString::number(r->n_prompt()), ti);
        cell(row, Reused, QString::number(o.reused_tokens), ti);
        cell(row, Evaluated, QString::number(static_cast<int64_t>(r->n_prompt()) - o.reused_tokens), ti); // the prompt's, not the decoded tokens
        cell(row, PrefillMs, QString::number(o.prefill_ms, 'f', 1), ti);
        cell(row, Generated, QString::number(r->n_generated()), ti);
        cell(row, TokensPerSecond, o.n_decoded > 0 && o.decode_ms > 0 ? QString::number(1000.0 * static_cast<double>(o.n_decoded) / o.decode_ms, 'f', 1)
                                                                      : QStringLiteral("—"), ti);
        cell(row, KvBlocks, o.kv.blocks_total > 0 ? QStringLiteral("%1 + %2 / %3").arg(o.kv.blocks_used).arg(o.kv.blocks_cached).arg(o.kv.blocks_total)
                                                  : QStringLiteral("—"), ti);
    }
}

void ConversationPanel::refreshButtons() {
    const ConversationRecord* c = conversations_.current();
    const int t = conversations_.selected_turn();
    const bool busy = controller_ && controller_->busy();
    const bool turn = c && t >= 0 && static_cast<size_t>(t) < c->turns.size() && !c->turns[static_cast<size_t>(t)].pending;
    edit_->setEnabled(turn && !busy);
    regenerate_->setEnabled(turn && !busy && c->turns[static_cast<size_t>(t)].message.role == ChatRole::Assistant);
    branch_->setEnabled(turn && !busy);
    compare_->setEnabled(c && compare_with_->count() > 0 && !busy);
    send_->setEnabled(controller_ && !busy);
    stop_->setEnabled(busy);
    send_->setText(editing_ ? tr("Send as Branch") : tr("Send"));
    role_->setEnabled(!editing_);
    editing_note_->setVisible(editing_.has_value());
    if (editing_) editing_note_->setText(tr("Editing turn %1: Send makes a branch from there (Esc leaves the edit).").arg(*editing_ + 1));
}

void ConversationPanel::send() {
    if (!controller_) return;
    const QString text = composer_->toPlainText();
    bool sent = false;
    if (editing_) {
        sent = controller_->edit(*editing_, text);
    } else {
        sent = controller_->send(role_at(role_->currentIndex()), text, new_requested_ || !conversations_.current());
    }
    if (!sent) return;
    editing_.reset();
    new_requested_ = false;
    composer_->clear();
    role_->setCurrentIndex(0);
    refreshButtons();
}

void ConversationPanel::editSelected() {
    const ConversationRecord* c = conversations_.current();
    const int t = conversations_.selected_turn();
    if (!c || t < 0 || static_cast<size_t>(t) >= c->turns.size()) return;
    editing_ = static_cast<size_t>(t);
    role_->setCurrentIndex(index_of(c->turns[static_cast<size_t>(t)].message.role));
    composer_->setPlainText(QString::fromStdString(c->turns[static_cast<size_t>(t)].message.content));
    composer_->setFocus();
    refreshButtons();
}

void ConversationPanel::regenerateSelected() {
    if (controller_ && conversations_.selected_turn() >= 0) controller_->regenerate(static_cast<size_t>(conversations_.selected_turn()));
}

void ConversationPanel::branchSelected() {
    if (controller_ && conversations_.selected_turn() >= 0) controller_->branch(static_cast<size_t>(conversations_.selected_turn()));
}

void ConversationPanel::compareWithChosen() {
    const ConversationRecord* c = conversations_.current();
    if (!controller_ || !c || compare_with_->count() == 0) return;
    // The chosen one is A (it is usually the original), the shown one B.
    controller_->compare(compare_with_->currentData().toInt(), c->number);
}

void ConversationPanel::newConversation() {
    editing_.reset();
    new_requested_ = true;
    composer_->clear();
    composer_->setFocus();
    refreshButtons();
}

} // namespace octo::ui
