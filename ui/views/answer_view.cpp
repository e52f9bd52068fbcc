#include "ui/views/answer_view.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/session/run_store.h"
#include "ui/support/engine_labels.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

AnswerView::AnswerView(RunStore& store, QWidget* parent) : QWidget(parent), store_(store) {
    setObjectName(QStringLiteral("answerView"));
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("answerHeader"));
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    header_->setWordWrap(true); // a narrow centre takes two lines rather than cutting the header
    const auto button = [this](const char* name, bool checkable) {
        auto* b = new QToolButton(this);
        b->setObjectName(QLatin1String(name));
        b->setCheckable(checkable);
        b->setAutoRaise(true);
        return b;
    };
    rendering_button_ = button("answerMarkdown", true);
    rendering_button_->setChecked(true);
    placement_button_ = button("answerBeside", true);
    copy_button_ = button("answerCopy", false);
    copy_markdown_button_ = button("answerCopyMarkdown", false);
    browser_ = new QTextBrowser(this);
    browser_->setObjectName(QStringLiteral("answerText"));
    browser_->setOpenExternalLinks(false);
    browser_->setOpenLinks(false);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(header_, 1);
    top->addWidget(rendering_button_);
    top->addWidget(placement_button_);
    top->addWidget(copy_button_);
    top->addWidget(copy_markdown_button_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(browser_, 1);

    connect(rendering_button_, &QToolButton::toggled, this,
            [this](bool markdown) { setRendering(markdown ? Rendering::Markdown : Rendering::Text); });
    connect(placement_button_, &QToolButton::toggled, this, [this](bool beside) { setBeside(beside); });
    connect(copy_button_, &QToolButton::clicked, this, &AnswerView::copyText);
    connect(copy_markdown_button_, &QToolButton::clicked, this, &AnswerView::copyMarkdown);
    connect(browser_, &QTextBrowser::selectionChanged, this, &AnswerView::selectFromBrowser);
    connect(&store_, &RunStore::runChanged, this, &AnswerView::rebuild);
    connect(&store_, &RunStore::tokensAppended, this, &AnswerView::rebuild);
    connect(&store_, &RunStore::runFinished, this, &AnswerView::rebuild);
    connect(&store_, &RunStore::selectionChanged, this, &AnswerView::markSelected);
    on_language_change(this, [this] { retranslate(); });
    rebuild();
}

void AnswerView::retranslate() {
    rendering_button_->setText(tr("Markdown"));
    rendering_button_->setToolTip(tr("Show the answer rendered as Markdown (headings, lists, tables, code), or as the plain characters"));
    placement_button_->setText(tr("Beside"));
    placement_button_->setToolTip(tr("Put the answer beside the token stream, or under it (remembered)"));
    copy_button_->setText(tr("Copy"));
    copy_button_->setToolTip(tr("Copy the answer as it is shown"));
    copy_markdown_button_->setText(tr("Copy Markdown"));
    copy_markdown_button_->setToolTip(tr("Copy the answer as the model wrote it (its Markdown source)"));
    browser_->setPlaceholderText(tr("The answer of the shown run appears here."));
    refreshHeader();
}

void AnswerView::setRendering(Rendering rendering) {
    if (rendering_button_->isChecked() != (rendering == Rendering::Markdown)) rendering_button_->setChecked(rendering == Rendering::Markdown);
    if (rendering_ == rendering) return;
    rendering_ = rendering;
    answer_.clear(); // rendered anew
    rebuild();
    emit renderingChanged(rendering_);
}

void AnswerView::setBeside(bool beside) {
    if (placement_button_->isChecked() != beside) placement_button_->setChecked(beside);
    if (beside_ == beside) return;
    beside_ = beside;
    emit placementChanged(beside_);
}

void AnswerView::rebuild() {
    const RunRecord* r = store_.current();
    std::string bytes;
    starts_.clear();
    first_generated_ = r ? static_cast<int>(r->n_prompt()) : 0;
    if (r) {
        for (size_t i = r->n_prompt(); i < r->tokens().size(); ++i) {
            starts_.push_back(static_cast<int>(bytes.size()));
            bytes += r->tokens()[i].visible_text;
        }
    }
    starts_.push_back(static_cast<int>(bytes.size())); // byte offsets; the end last
    const QString text = QString::fromUtf8(bytes);
    if (text != answer_ || browser_->document()->isEmpty() != text.isEmpty()) {
        answer_ = text;
        if (rendering_ == Rendering::Markdown) {
            browser_->setMarkdown(answer_);
        } else {
            browser_->setPlainText(answer_);
        }
    }
    refreshHeader();
    markSelected();
}

QString AnswerView::headerText() const { return header_->text(); }

void AnswerView::refreshHeader() {
    const RunRecord* r = store_.current();
    if (!r) {
        header_->setText(tr("Answer"));
        return;
    }
    QString text = tr("Answer · %1 tokens").arg(r->n_generated());
    if (r->state == RunState::Running) {
        text += QStringLiteral(" · ") + tr("generating…");
    } else if (r->trace.outcome) {
        const RunOutcome& o = *r->trace.outcome;
        text += QStringLiteral(" · ") + tr("stopped: %1").arg(stop_reason_label(o.stop_reason));
        if (o.decode_ms > 0.0 && o.n_decoded > 0) {
            text += QStringLiteral(" · ") + tr("%1 s, %2 tokens/s")
                                                .arg(o.decode_ms / 1000.0, 0, 'f', 2)
                                                .arg(1000.0 * static_cast<double>(o.n_decoded) / o.decode_ms, 0, 'f', 1);
        }
    } else if (r->state == RunState::Failed) {
        text += QStringLiteral(" · ") + tr("failed");
    } else if (r->state == RunState::Cancelled) {
        text += QStringLiteral(" · ") + tr("cancelled");
    }
    header_->setText(text);
}

int AnswerView::tokenAt(int at) const {
    if (at < 0 || at >= answer_.size() || starts_.size() < 2) return -1;
    const int byte = static_cast<int>(answer_.left(at).toUtf8().size());
    // The last token starting at or before the byte (tokens that release nothing are skipped).
    for (size_t k = starts_.size() - 1; k-- > 0;) {
        if (starts_[k] <= byte && starts_[k + 1] > byte) return first_generated_ + static_cast<int>(k);
    }
    return -1;
}

void AnswerView::selectFromBrowser() {
    const QTextCursor cursor = browser_->textCursor();
    if (!cursor.hasSelection()) return;
    int at = cursor.selectionStart();
    if (rendering_ == Rendering::Markdown) { // the rendered text differs from the source: find it there
        QString selected = cursor.selectedText();
        selected.replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
        at = static_cast<int>(answer_.indexOf(selected.left(200)));
    }
    const int token = tokenAt(at);
    if (token < 0) return;
    selecting_ = true;
    store_.select_token(token);
    selecting_ = false;
}

void AnswerView::markSelected() {
    if (selecting_) return;
    QList<QTextEdit::ExtraSelection> marks;
    const RunRecord* r = store_.current();
    const int token = store_.selected_token();
    const int k = token - first_generated_;
    if (r && token >= 0 && k >= 0 && k + 1 < static_cast<int>(starts_.size()) && starts_[static_cast<size_t>(k)] < starts_[static_cast<size_t>(k) + 1]) {
        const QByteArray bytes = answer_.toUtf8();
        const int begin = static_cast<int>(QString::fromUtf8(bytes.left(starts_[static_cast<size_t>(k)])).size());
        const int end = static_cast<int>(QString::fromUtf8(bytes.left(starts_[static_cast<size_t>(k) + 1])).size());
        QTextCursor cursor(browser_->document());
        if (rendering_ == Rendering::Text) {
            cursor.setPosition(begin);
            cursor.setPosition(end, QTextCursor::KeepAnchor);
        } else {
            cursor = browser_->document()->find(answer_.mid(begin, end - begin).trimmed());
        }
        if (!cursor.isNull() && cursor.hasSelection()) {
            QTextEdit::ExtraSelection mark;
            mark.cursor = cursor;
            mark.format.setBackground(palette().color(QPalette::Highlight).lighter(160));
            marks << mark;
        }
    }
    browser_->setExtraSelections(marks);
}

void AnswerView::copyText() const { QApplication::clipboard()->setText(browser_->toPlainText()); }

void AnswerView::copyMarkdown() const { QApplication::clipboard()->setText(answer_); }

} // namespace octo::ui
