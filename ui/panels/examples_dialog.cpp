#include "ui/panels/examples_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPixmap>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/support/language.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

namespace {

// A small square in the subsystem's colour (the legend's colours).
QIcon swatch(int subsystem) {
    QPixmap p(12, 12);
    p.fill(subsystem_color(subsystem));
    return QIcon(p);
}

// A prompt on one line: rte-e's code snippets have line breaks.
QString one_line(QString text) { return text.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ ")); }

} // namespace

ExamplesDialog::ExamplesDialog(QList<OctetExample> examples, QList<ConversationExample> conversations, const QString& ui_language,
                               QWidget* parent)
    : QDialog(parent), all_(std::move(examples)), conversations_(std::move(conversations)), zh_descriptions_(ui_language.startsWith(QStringLiteral("zh"))) {
    setWindowTitle(tr("Examples"));
    setObjectName(QStringLiteral("examplesDialog"));
    auto* intro = new QLabel(tr("Prompts the built-in model <b>octet</b> answers correctly — at least one for each of its "
                                "eight subsystems. octet is a small teaching model, not a chat model: it answers prompts "
                                "like these and little else. The answers hold at temperature 0, without chat mode; another model may answer "
                                "differently. The conversations at the end open in the Conversation panel, one turn after another."),
                             this);
    intro->setWordWrap(true);
    language_ = new QComboBox(this);
    language_->setObjectName(QStringLiteral("examplesLanguage"));
    language_->addItem(language_native_name(QStringLiteral("en")), QStringLiteral("en"));
    language_->addItem(language_native_name(QStringLiteral("zh_CN")), QStringLiteral("zh"));
    language_->setCurrentIndex(zh_descriptions_ ? 1 : 0);
    auto* language_label = new QLabel(tr("Prompt &language:"), this);
    language_label->setBuddy(language_);
    auto* language_row = new QHBoxLayout;
    language_row->addWidget(language_label);
    language_row->addWidget(language_);
    language_row->addStretch(1);

    list_ = new QTreeWidget(this);
    list_->setObjectName(QStringLiteral("examplesList"));
    list_->setAccessibleName(tr("Examples"));
    list_->setRootIsDecorated(false);
    list_->setUniformRowHeights(true);
    list_->setAllColumnsShowFocus(true);
    list_->setHeaderLabels({tr("Subsystem"), tr("Prompt"), tr("octet answers"), tr("What it shows")});
    list_->header()->setStretchLastSection(true);
    connect(list_, &QTreeWidget::itemDoubleClicked, this, [this] { choose(false); });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* use = buttons->addButton(tr("&Use Prompt"), QDialogButtonBox::AcceptRole);
    use->setObjectName(QStringLiteral("examplesUse"));
    use->setToolTip(tr("Put the prompt into the prompt editor (Enter)"));
    use->setDefault(true);
    QPushButton* run = buttons->addButton(tr("Use and &Run"), QDialogButtonBox::ActionRole);
    run->setObjectName(QStringLiteral("examplesRun"));
    run->setToolTip(tr("Put the prompt into the prompt editor and run it on the loaded model"));
    connect(use, &QPushButton::clicked, this, [this] { choose(false); });
    connect(run, &QPushButton::clicked, this, [this] { choose(true); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(language_, &QComboBox::currentIndexChanged, this, &ExamplesDialog::fill);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(language_row);
    layout->addWidget(list_, 1);
    layout->addWidget(buttons);
    fill();
    resize(980, 520);
    list_->setFocus();
}

void ExamplesDialog::fill() {
    shown_ = examples_in(all_, language_->currentData().toString());
    list_->clear();
    for (const OctetExample& e : shown_) {
        const QString description = zh_descriptions_ && !e.description_zh.isEmpty() ? e.description_zh : e.description_en;
        auto* item = new QTreeWidgetItem(list_, {subsystem_id(e.subsystem), one_line(e.prompt), one_line(e.answer), description});
        item->setIcon(0, swatch(e.subsystem));
        item->setToolTip(0, subsystem_name(e.subsystem));
        item->setToolTip(1, e.prompt);
        item->setToolTip(2, e.answer);
        item->setToolTip(3, description);
    }
    shown_conversations_.clear();
    for (const ConversationExample& e : conversations_) {
        if (e.lang != language_->currentData().toString()) continue;
        shown_conversations_.append(e);
        const QString description = zh_descriptions_ && !e.description_zh.isEmpty() ? e.description_zh : e.description_en;
        QStringList users;
        for (const ChatMessage& m : e.messages) {
            if (m.role == ChatRole::User) users.append(QString::fromStdString(m.content));
        }
        const QString answers = e.answers.isEmpty() ? tr("(assistant turns given)") : one_line(e.answers.join(QStringLiteral(" · ")));
        auto* item = new QTreeWidgetItem(list_, {tr("Conversation"), one_line(users.join(QStringLiteral(" → "))), answers, description});
        item->setToolTip(1, users.join(QStringLiteral("\n")));
        item->setToolTip(3, description);
    }
    for (int c = 0; c < 3; ++c) list_->resizeColumnToContents(c);
    list_->setColumnWidth(1, std::min(list_->columnWidth(1), 460));
    if (list_->topLevelItemCount() > 0) list_->setCurrentItem(list_->topLevelItem(0));
}

void ExamplesDialog::choose(bool run) {
    const int row = list_->currentIndex().row();
    if (row >= shown_.size() && row < shown_.size() + shown_conversations_.size()) {
        emit conversationChosen(shown_conversations_[row - shown_.size()].messages); // always runs: a conversation is shown by its runs
        accept();
        return;
    }
    if (row < 0 || row >= shown_.size()) return;
    emit chosen(shown_[row].prompt, run);
    accept();
}

void show_examples(QWidget& parent, const QString& resource_dir, std::function<void(const QString& prompt, bool run)> use,
                   std::function<void(const std::vector<ChatMessage>& messages)> open_conversation) {
    QString error;
    QList<OctetExample> examples = load_examples(examples_path(resource_dir), &error);
    if (examples.isEmpty()) {
        auto* box = new QMessageBox(QMessageBox::Warning, ExamplesDialog::tr("Examples"),
                                    ExamplesDialog::tr("The examples cannot be read: %1").arg(error), QMessageBox::Close, &parent);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return;
    }
    QList<ConversationExample> conversations = load_conversation_examples(examples_path(resource_dir), &error);
    auto* dialog = new ExamplesDialog(std::move(examples), std::move(conversations), installed_language(), &parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &ExamplesDialog::chosen, &parent, [use = std::move(use)](const QString& prompt, bool run) { use(prompt, run); });
    QObject::connect(dialog, &ExamplesDialog::conversationChosen, &parent,
                     [open = std::move(open_conversation)](const std::vector<ChatMessage>& messages) { open(messages); });
    dialog->open();
}

} // namespace octo::ui
