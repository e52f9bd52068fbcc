#include "ui/panels/presenter_panel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QToolButton>
#include <QUndoCommand>
#include <QUndoStack>

#include <utility>
#include <QVBoxLayout>

#include <cmath>

#include "ui/support/retranslate.h"
#include "ui/session/run_store.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

namespace {

QString token_text(const TraceToken& t) {
    return QString::fromUtf8(t.bytes.data(), static_cast<qsizetype>(t.bytes.size())).replace(QLatin1Char('\n'), QStringLiteral("↵"));
}

// One token's note changed (typing merges into one command per token).
class SetNote : public QUndoCommand {
public:
    SetNote(RunStore& store, quint64 run, int index, QString before, QString after)
        : store_(store), run_(run), index_(index), before_(std::move(before)), after_(std::move(after)) {
        setText(QObject::tr("note on token %1").arg(index));
    }
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = static_cast<const SetNote*>(other);
        if (o->run_ != run_ || o->index_ != index_) return false;
        after_ = o->after_;
        return true;
    }
    void undo() override { set(before_); }
    void redo() override { set(after_); }

private:
    void set(const QString& text) {
        if (const RunRecord* r = store_.current(); r && r->id == run_) store_.select_token(index_);
        store_.set_note(run_, index_, text);
    }

    RunStore& store_;
    quint64 run_;
    int index_;
    QString before_;
    QString after_;
};

} // namespace

PresenterPanel::PresenterPanel(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    setObjectName(QStringLiteral("presenterPanel"));
    undo_ = new QUndoStack(this);
    token_ = new QLabel(this);
    token_->setTextFormat(Qt::PlainText);
    token_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // long tokens never widen the dock
    token_->setWordWrap(true); // … and the header wraps instead of being cut
    note_ = new QPlainTextEdit(this);
    note_->setObjectName(QStringLiteral("noteEditor"));
    note_->setUndoRedoEnabled(false); // the panel's undo stack keeps note edits
    auto* buttons = new QHBoxLayout;
    auto* undo_button = new QToolButton(this);
    undo_button->setObjectName(QStringLiteral("noteUndo"));
    auto* redo_button = new QToolButton(this);
    redo_button->setObjectName(QStringLiteral("noteRedo"));
    buttons->addWidget(undo_button);
    buttons->addWidget(redo_button);
    buttons->addStretch(1);
    // The stack's actions keep the text prefix they were made with: made again in each language.
    on_language_change(this, [this, undo_button, redo_button] {
        for (QToolButton* b : {undo_button, redo_button}) {
            if (QAction* old = b->defaultAction()) {
                removeAction(old);
                old->deleteLater();
            }
        }
        QAction* undo = undo_->createUndoAction(this, tr("Undo Note Edit"));
        undo->setShortcut(QKeySequence::Undo);
        QAction* redo = undo_->createRedoAction(this, tr("Redo Note Edit"));
        redo->setShortcut(QKeySequence::Redo);
        for (auto [a, b] : {std::pair{undo, undo_button}, std::pair{redo, redo_button}}) {
            a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
            addAction(a);
            b->setDefaultAction(a);
        }
    });
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("noteList"));
    report_ = new QLabel(this);
    report_->setTextFormat(Qt::PlainText);
    report_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    report_->setWordWrap(true);
    report_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(token_);
    layout->addWidget(note_, 2);
    layout->addLayout(buttons);
    auto* notes_label = new QLabel(this);
    layout->addWidget(notes_label);
    layout->addWidget(list_, 1);
    layout->addWidget(report_);
    connect(note_, &QPlainTextEdit::textChanged, this, &PresenterPanel::edited);
    connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { store_.select_token(item->data(Qt::UserRole).toInt()); });
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { store_.select_token(item->data(Qt::UserRole).toInt()); });
    connect(&store_, &RunStore::selectionChanged, this, &PresenterPanel::refresh);
    connect(&store_, &RunStore::runChanged, this, [this] {
        report_->hide();
        refresh();
        refreshList();
    });
    connect(&store_, &RunStore::tokensAppended, this, &PresenterPanel::refresh);
    connect(&store_, &RunStore::notesChanged, this, [this](quint64 run, int) {
        const RunRecord* r = store_.current();
        if (!r || r->id != run) return;
        refresh();
        refreshList();
    });
    on_language_change(this, [this, notes_label] {
        note_->setPlaceholderText(tr("Select a token (timeline, or click it), then write what to say about it here."));
        notes_label->setText(tr("Notes in this run:"));
        refresh();
        refreshList();
    });
}

void PresenterPanel::showReport(const QString& text) {
    report_->setText(text);
    report_->setToolTip(text);
    report_->setVisible(!text.isEmpty());
}

void PresenterPanel::edited() {
    const RunRecord* r = store_.current();
    const int s = store_.focused_token();
    if (!r || s < 0) return;
    const auto it = r->notes.find(s);
    const QString before = it == r->notes.end() ? QString() : it->second;
    const QString after = note_->toPlainText();
    if (before == after) return;
    undo_->push(new SetNote(store_, r->id, s, before, after));
}

void PresenterPanel::refresh() {
    const RunRecord* r = store_.current();
    const int s = store_.focused_token(); // the token the other views show: the selected one, else the last
    const bool on_token = r && s >= 0 && s < static_cast<int>(r->tokens().size());
    note_->setEnabled(on_token);
    QString note;
    if (!on_token) {
        token_->setText(r ? tr("No tokens yet.") : tr("No run shown."));
    } else {
        const TraceToken& t = r->tokens()[static_cast<size_t>(s)];
        const bool generated = static_cast<size_t>(s) >= r->n_prompt();
        // Counted as the timeline counts: positions from 0, and the run's number of tokens
        // ("position 17 · 18 tokens"; "token 17 of 17" read as the 17th of 17).
        const int n = static_cast<int>(r->tokens().size());
        QString line = tr("Position %1 (%2), %3: “%4” (id %5)")
                           .arg(s)
                           .arg(n == 1 ? tr("1 token") : tr("%1 tokens").arg(n))
                           .arg(generated ? tr("generated") : tr("prompt"), token_text(t))
                           .arg(t.id);
        if (t.logprobs) line += tr(", p = %1").arg(std::exp(double(t.logprobs->logprob)), 0, 'f', 3);
        if (const auto& v = t.metrics.get(store_.metric())) {
            const auto top = std::max_element(v->begin(), v->end());
            line += tr(", strongest %1 (%2)").arg(subsystem_id(static_cast<int>(top - v->begin()))).arg(*top, 0, 'f', 2);
        }
        if (store_.selected_token() < 0) line += tr(" — the last token; step with Alt+Left / Alt+Right");
        token_->setText(line);
        token_->setToolTip(line);
        if (auto it = r->notes.find(s); it != r->notes.end()) note = it->second;
    }
    if (note_->toPlainText() != note) {
        const QSignalBlocker block(note_);
        note_->setPlainText(note);
        note_->moveCursor(QTextCursor::End);
    }
}

void PresenterPanel::refreshList() {
    const QSignalBlocker block(list_);
    list_->clear();
    const RunRecord* r = store_.current();
    if (!r) return;
    for (const auto& [index, note] : r->notes) {
        if (index < 0 || static_cast<size_t>(index) >= r->tokens().size()) continue;
        auto* item = new QListWidgetItem(tr("%1 “%2”: %3").arg(index).arg(token_text(r->tokens()[static_cast<size_t>(index)]), note.simplified()), list_);
        item->setData(Qt::UserRole, static_cast<int>(index));
    }
}

} // namespace octo::ui
