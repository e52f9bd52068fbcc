#include "ui/views/conversation_transcript.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

#include <map>

#include "engine/conversation/conversation_run.h"
#include "ui/session/conversation_store.h"
#include "ui/session/run_store.h"
#include "ui/support/retranslate.h"
#include "ui/support/subsystem_palette.h"
#include "ui/views/token_chips.h"

namespace octo::ui {

namespace {

QString role_title(ChatRole role) {
    switch (role) {
    case ChatRole::System: return ConversationTranscript::tr("System");
    case ChatRole::User: return ConversationTranscript::tr("User");
    case ChatRole::Assistant: return ConversationTranscript::tr("Assistant");
    case ChatRole::Tool: return ConversationTranscript::tr("Tool");
    }
    return {};
}

} // namespace

ConversationTranscript::ConversationTranscript(ConversationStore& conversations, RunStore& runs, QWidget* parent)
    : QTextBrowser(parent), conversations_(conversations), runs_(runs) {
    setObjectName(QStringLiteral("conversationTranscript"));
    setOpenLinks(false);
    setMinimumHeight(160);
    connect(&conversations_, &ConversationStore::shownChanged, this, &ConversationTranscript::rebuild);
    connect(&conversations_, &ConversationStore::turnsChanged, this, [this](int number) {
        if (conversations_.current() && conversations_.current()->number == number) rebuild();
    });
    connect(&conversations_, &ConversationStore::selectionChanged, this, [this] {
        showSelection();
        const int t = conversations_.selected_turn();
        if (t < 0 || static_cast<size_t>(t) >= ranges_.size()) return;
        QTextCursor at(document());
        at.setPosition(ranges_[static_cast<size_t>(t)].first);
        setTextCursor(at);
        ensureCursorVisible();
    });
    connect(&conversations_, &ConversationStore::marksChanged, this, &ConversationTranscript::showSelection);
    connect(&runs_, &RunStore::metricChanged, this, &ConversationTranscript::rebuild);
    connect(&runs_, &RunStore::runSettled, this, &ConversationTranscript::rebuild);
    connect(&runs_, &RunStore::modelLoaded, this, &ConversationTranscript::rebuild);
    on_language_change(this, [this] {
        setPlaceholderText(tr("No conversation yet: type a message below and press Ctrl+Enter, or open one (File → Open "
                              "Conversation…, Help → Examples…)."));
        rebuild();
    });
}

void ConversationTranscript::rebuild() {
    const int scrolled = verticalScrollBar()->value();
    const bool at_end = scrolled >= verticalScrollBar()->maximum() - 4;
    clear();
    ranges_.clear();
    header_ends_.clear();
    coloured_.clear();
    const ConversationRecord* c = conversations_.current();
    if (!c || c->turns.empty()) return;
    QTextCursor cursor(document());
    struct Located {
        std::vector<ConversationTurn> turns; // where the run's messages lie
        std::vector<TokenChip> chips;        // its tokens as the token stream groups them
    };
    std::map<uint64_t, Located> located; // per run, made once per rebuild
    const Metric metric = runs_.metric();
    QTextCharFormat plain;
    QTextCharFormat header;
    header.setFontWeight(QFont::Bold);
    QTextCharFormat note;
    note.setFontItalic(true);
    note.setForeground(palette().color(QPalette::PlaceholderText));
    for (size_t t = 0; t < c->turns.size(); ++t) {
        const ChatTurnRecord& turn = c->turns[t];
        if (t > 0) cursor.insertBlock();
        const int first = cursor.position();
        cursor.insertText(QStringLiteral("%1  ").arg(t + 1), note);
        cursor.insertText(role_title(turn.message.role), header);
        QString about;
        if (turn.pending) about = tr("generating…");
        else if (turn.message.role == ChatRole::Assistant) about = turn.generated ? tr("generated") : tr("given");
        if (turn.run && !turn.pending) {
            const RunRecord* r = runs_.run(*turn.run);
            about += (about.isEmpty() ? QString() : QStringLiteral(" · ")) + tr("run %1").arg(*turn.run);
            if (r && r->trace.outcome) {
                about += QStringLiteral(" · ") + tr("%1 tokens reused, %2 evaluated").arg(r->trace.outcome->reused_tokens)
                                                   .arg(static_cast<int64_t>(r->n_prompt()) - r->trace.outcome->reused_tokens);
            }
        }
        if (!about.isEmpty()) cursor.insertText(QStringLiteral("  ") + about, note);
        header_ends_.push_back(cursor.position());
        cursor.insertBlock();
        // The turn's tokens in the first run that read it, coloured chip by chip.
        int coloured = 0;
        bool read = false; // the turn's tokens were found in the run
        const std::optional<uint64_t> run_id = turn.pending ? std::nullopt : c->run_showing(t);
        const RunRecord* r = run_id ? runs_.run(*run_id) : nullptr;
        if (r && r->state != RunState::Running) {
            auto it = located.find(r->id);
            if (it == located.end()) it = located.emplace(r->id, Located{locate_turns(r->trace), make_chips(r->tokens())}).first;
            const std::vector<ConversationTurn>& where = it->second.turns;
            if (t < where.size() && where[t].end_token > where[t].first_token) {
                read = true;
                const auto& tokens = r->tokens();
                for (const TokenChip& chip : it->second.chips) {
                    if (chip.first < static_cast<int>(where[t].first_token) || chip.first >= static_cast<int>(where[t].end_token)) continue;
                    std::string bytes; // a generated token shows the text it released (an end-of-generation token none)
                    for (int i = chip.first; i < chip.first + chip.count; ++i) {
                        const TraceToken& token = tokens[static_cast<size_t>(i)];
                        bytes += token.generated ? token.visible_text : token.bytes;
                    }
                    if (bytes.empty()) continue;
                    QTextCharFormat f = plain;
                    if (const int s = dominant_subsystem(tokens, chip, metric); s >= 0) {
                        QColor tint = subsystem_color(s);
                        tint.setAlpha(90);
                        f.setBackground(tint);
                        f.setToolTip(tr("token %1 · %2").arg(chip.first).arg(subsystem_id(s)));
                        ++coloured;
                    }
                    cursor.insertText(QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size())), f);
                }
            }
        }
        if (!read) {
            cursor.insertText(QString::fromStdString(turn.message.content), plain);
            if (r && !turn.pending && r->state == RunState::Finished && !turn.message.content.empty()) {
                cursor.insertText(QStringLiteral("  ") + tr("(not in the prompt the model read)"), note);
            }
        }
        coloured_.push_back(coloured);
        ranges_.emplace_back(first, cursor.position());
    }
    if (at_end || c->turns.back().pending) verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    else verticalScrollBar()->setValue(scrolled);
    showSelection();
}

QStringList ConversationTranscript::markedWords() const {
    QStringList words;
    for (const QTextEdit::ExtraSelection& s : extraSelections()) {
        if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline) words.append(s.cursor.selectedText());
    }
    return words;
}

int ConversationTranscript::turnAt(int position) const {
    for (size_t t = 0; t < ranges_.size(); ++t) {
        if (position >= ranges_[t].first && position <= ranges_[t].second) return static_cast<int>(t);
    }
    return -1;
}

void ConversationTranscript::showSelection() {
    QList<QTextEdit::ExtraSelection> marks;
    const int t = conversations_.selected_turn();
    if (t >= 0 && static_cast<size_t>(t) < ranges_.size()) {
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(document());
        // The header line, across the whole width: a band over the text would hide its colours.
        mark.cursor.setPosition(ranges_[static_cast<size_t>(t)].first);
        mark.cursor.setPosition(header_ends_[static_cast<size_t>(t)], QTextCursor::KeepAnchor);
        QColor band = palette().color(QPalette::Highlight);
        band.setAlpha(70);
        mark.format.setBackground(band);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        marks.append(mark);
    }
    // The words a coherence finding points at: found in their turn's text as shown.
    const ConversationRecord* c = conversations_.current();
    for (const MessageSpan& span : conversations_.marks()) {
        if (!c || span.message >= c->turns.size() || span.message >= ranges_.size()) continue;
        const std::string& content = c->turns[span.message].message.content;
        const size_t begin = std::min(span.begin, content.size());
        const QString words = QString::fromStdString(content.substr(begin, std::min(span.end, content.size()) - begin)).trimmed();
        if (words.isEmpty()) continue;
        QTextCursor from(document());
        from.setPosition(header_ends_[span.message]);
        const QTextCursor found = document()->find(words, from);
        if (found.isNull() || found.selectionEnd() > ranges_[span.message].second) continue;
        QTextEdit::ExtraSelection mark;
        mark.cursor = found;
        mark.format.setFontUnderline(true);
        mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        mark.format.setUnderlineColor(QColor(200, 0, 0));
        marks.append(mark);
    }
    setExtraSelections(marks);
}

void ConversationTranscript::mouseReleaseEvent(QMouseEvent* event) {
    const bool chose_text = textCursor().hasSelection();
    QTextBrowser::mouseReleaseEvent(event);
    if (chose_text || event->button() != Qt::LeftButton) return; // copying text selects no turn
    const int turn = turnAt(cursorForPosition(event->position().toPoint()).position());
    if (turn >= 0) conversations_.select_turn(turn);
}

void ConversationTranscript::keyPressEvent(QKeyEvent* event) {
    const int n = static_cast<int>(ranges_.size());
    const int t = conversations_.selected_turn();
    if (n > 0 && (event->key() == Qt::Key_Up || event->key() == Qt::Key_Down) && event->modifiers() == Qt::NoModifier) {
        const int next = t < 0 ? (event->key() == Qt::Key_Up ? n - 1 : 0) : std::clamp(t + (event->key() == Qt::Key_Up ? -1 : 1), 0, n - 1);
        conversations_.select_turn(next);
        event->accept();
        return;
    }
    QTextBrowser::keyPressEvent(event);
}

} // namespace octo::ui
