#include "ui/support/editor_highlights.h"

namespace octo::ui {

int char_position(const QByteArray& utf8, size_t byte) {
    return static_cast<int>(QString::fromUtf8(utf8.left(static_cast<qsizetype>(byte))).size());
}

EditorHighlights::EditorHighlights(QPlainTextEdit* editor) : QObject(editor), editor_(editor) {
    setObjectName(QStringLiteral("editorHighlights"));
}

EditorHighlights* EditorHighlights::of(QPlainTextEdit* editor) {
    if (auto* existing = editor->findChild<EditorHighlights*>(QStringLiteral("editorHighlights"), Qt::FindDirectChildrenOnly)) {
        return existing;
    }
    return new EditorHighlights(editor);
}

QTextEdit::ExtraSelection EditorHighlights::span(const QByteArray& utf8, size_t start, size_t end,
                                                 const QTextCharFormat& format) const {
    QTextEdit::ExtraSelection sel;
    sel.cursor = QTextCursor(editor_->document());
    sel.cursor.setPosition(char_position(utf8, start));
    sel.cursor.setPosition(char_position(utf8, end), QTextCursor::KeepAnchor);
    sel.format = format;
    return sel;
}

void EditorHighlights::setLayer(const QString& layer, const QList<QTextEdit::ExtraSelection>& selections) {
    layers_.insert(layer, selections);
    QList<QTextEdit::ExtraSelection> all;
    for (auto it = layers_.cbegin(); it != layers_.cend(); ++it) all += it.value();
    editor_->setExtraSelections(all);
}

} // namespace octo::ui
