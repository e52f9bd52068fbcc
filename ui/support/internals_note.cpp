#include "ui/support/internals_note.h"

#include <QEvent>

#include "ui/session/run_record.h"

namespace octo::ui {

QString internals_missing_text(const RunRecord* run) {
    if (!run || !run->engine || run->engine->octoscope) return {};
    return InternalsNote::tr("This run came from %1, a server that gives outputs only. This view needs the model's internals: "
                      "run the prompt on a local model or on an Octoscope server (octoscope-cli serve).")
        .arg(QString::fromStdString(run->engine->url));
}

InternalsNote::InternalsNote(QWidget* view) : QLabel(view) {
    setObjectName(QStringLiteral("internalsNote"));
    setWordWrap(true);
    setAlignment(Qt::AlignCenter);
    setAutoFillBackground(true); // covers the plot beneath
    setMargin(24);
    hide();
    view->installEventFilter(this);
}

void InternalsNote::showFor(const RunRecord* run) {
    const QString text = internals_missing_text(run);
    setText(text);
    setVisible(!text.isEmpty());
    if (!text.isEmpty()) {
        setGeometry(parentWidget()->rect());
        raise();
    }
}

bool InternalsNote::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
    return QLabel::eventFilter(watched, event);
}

} // namespace octo::ui
