#include "ui/panels/first_start_hint.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/support/note_frame.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {
const char* const kDismissedKey = "onboarding/hintDismissed";
} // namespace

FirstStartHint::FirstStartHint(std::function<void()> show_examples, QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("firstStartHint"));
    style_as_note(*this);
    auto* text = new_note_text(*this, QStringLiteral("firstStartHintText"));
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* examples = new QPushButton(this);
    examples->setObjectName(QStringLiteral("firstStartHintExamples"));
    connect(examples, &QPushButton::clicked, this, [show = std::move(show_examples)] {
        if (show) show();
    });
    auto* close = new_note_close(*this, QStringLiteral("firstStartHintClose"));
    connect(close, &QToolButton::clicked, this, &FirstStartHint::dismiss);
    auto* side = new QVBoxLayout;
    side->addWidget(close, 0, Qt::AlignRight);
    side->addStretch(1);
    side->addWidget(examples);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 4, 4);
    layout->addWidget(text, 1);
    layout->addLayout(side);
    on_language_change(this, [text, examples, close] {
        text->setText(tr("<b>octet</b>, the built-in model, is a small teaching model trained on a synthetic task set, with eight "
                         "head groups (rte-a … rte-h). It answers prompts like those in Help → Examples (arithmetic such as "
                         "“What is 20% of 300?”, entities, relations, logic, code, style, formats, refusals); it is <i>not</i> a "
                         "general chat model. For a real one, load a GGUF model (File → Open Model…)."));
        examples->setText(tr("E&xamples…"));
        examples->setToolTip(tr("Prompts octet answers (Help → Examples…)"));
        close->setToolTip(tr("Dismiss this note; it will not be shown again"));
        close->setAccessibleName(tr("Dismiss"));
    });
}

bool FirstStartHint::wanted() { return !QSettings().value(kDismissedKey, false).toBool(); }

void FirstStartHint::dismiss() {
    QSettings().setValue(kDismissedKey, true);
    hide();
    emit dismissed();
    deleteLater();
}

} // namespace octo::ui
