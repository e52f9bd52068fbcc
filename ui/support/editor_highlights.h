// Highlights in a text editor from several sources at once (the router's firing features, the
// advisor's findings): each source owns a named layer, and the editor shows all layers. Spans
// come as UTF-8 byte offsets, as the engine reports them.
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPlainTextEdit>
#include <QTextCharFormat>

namespace octo::ui {

// Character position in the text whose UTF-8 bytes are `utf8` of the byte offset `byte`.
int char_position(const QByteArray& utf8, size_t byte);

class EditorHighlights : public QObject {
    Q_OBJECT
public:
    // The highlights of `editor` (one object per editor, a child of it).
    static EditorHighlights* of(QPlainTextEdit* editor);

    // A selection over bytes [start, end) of the editor's text `utf8`.
    QTextEdit::ExtraSelection span(const QByteArray& utf8, size_t start, size_t end,
                                   const QTextCharFormat& format) const;
    void setLayer(const QString& layer, const QList<QTextEdit::ExtraSelection>& selections);
    QList<QTextEdit::ExtraSelection> layer(const QString& layer) const { return layers_.value(layer); }

private:
    explicit EditorHighlights(QPlainTextEdit* editor);

    QPlainTextEdit* editor_;
    QHash<QString, QList<QTextEdit::ExtraSelection>> layers_;
};

} // namespace octo::ui
