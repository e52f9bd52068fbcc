#include "ui/prompt_panel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace octo::ui {

PromptPanel::PromptPanel(QWidget* parent) : QWidget(parent) {
    editor_ = new QPlainTextEdit(this);
    editor_->setObjectName(QStringLiteral("promptEditor"));
    editor_->setPlaceholderText(tr("Prompt — Ctrl+Enter runs, Esc cancels"));
    editor_->setAccessibleName(tr("Prompt"));
    editor_->installEventFilter(this);
    editor_->setMinimumHeight(48);
    chat_ = new QCheckBox(tr("&Chat"), this);
    chat_->setToolTip(tr("Send system + user turns through the model's chat template"));
    system_ = new QLineEdit(this);
    system_->setPlaceholderText(tr("System message (chat mode)"));
    system_->setEnabled(false);
    connect(chat_, &QCheckBox::toggled, system_, &QWidget::setEnabled);
    max_tokens_ = new QSpinBox(this);
    max_tokens_->setRange(1, 4096);
    max_tokens_->setValue(64);
    temperature_ = new QDoubleSpinBox(this);
    temperature_->setRange(0.0, 5.0);
    temperature_->setSingleStep(0.1);
    temperature_->setToolTip(tr("0: greedy"));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 2147483647);
    top_p_ = new QDoubleSpinBox(this);
    top_p_->setRange(0.01, 1.0);
    top_p_->setSingleStep(0.05);
    top_p_->setValue(1.0);
    top_k_ = new QSpinBox(this);
    top_k_->setRange(0, 100000);
    dla_ = new QCheckBox(tr("&DLA"), this);
    dla_->setToolTip(tr("Also compute direct logit attribution (one more projection per layer)"));
    attention_ = new QCheckBox(tr("Record &attention"), this);
    attention_->setChecked(true);
    attention_->setToolTip(tr("Record attention weights for the attention view (runs that record them do not reuse "
                              "cached prompt prefixes)"));
    run_ = new QPushButton(tr("&Run"), this);
    run_->setToolTip(tr("Run the prompt (Ctrl+Enter)"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setToolTip(tr("Stop the run (Esc)"));
    cancel_->setEnabled(false);
    connect(run_, &QPushButton::clicked, this, &PromptPanel::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &PromptPanel::cancelRequested);

    auto* form = new QFormLayout;
    form->addRow(tr("Max tokens"), max_tokens_);
    form->addRow(tr("Temperature"), temperature_);
    form->addRow(tr("Seed"), seed_);
    form->addRow(tr("Top-p"), top_p_);
    form->addRow(tr("Top-k"), top_k_);
    auto* flags = new QHBoxLayout;
    flags->addWidget(chat_);
    flags->addWidget(dla_);
    flags->addWidget(attention_);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(cancel_);
    buttons->addWidget(run_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(editor_, 1);
    layout->addWidget(system_);
    layout->addLayout(flags);
    layout->addLayout(form);
    layout->addLayout(buttons);
}

bool PromptPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == editor_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && (key->modifiers() & Qt::ControlModifier)) {
            emit runRequested();
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            emit cancelRequested();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

RunSettings PromptPanel::settings() const {
    RunSettings s;
    s.prompt = editor_->toPlainText().toStdString();
    s.chat = chat_->isChecked();
    s.system = system_->text().toStdString();
    s.max_tokens = max_tokens_->value();
    s.sampling.temperature = static_cast<float>(temperature_->value());
    s.sampling.seed = static_cast<uint64_t>(seed_->value());
    s.sampling.top_p = static_cast<float>(top_p_->value());
    s.sampling.top_k = top_k_->value();
    s.dla = dla_->isChecked();
    s.record_attention = attention_->isChecked();
    return s;
}

void PromptPanel::restore(const RunSettings& s) {
    editor_->setPlainText(QString::fromStdString(s.prompt));
    chat_->setChecked(s.chat);
    system_->setText(QString::fromStdString(s.system));
    max_tokens_->setValue(static_cast<int>(s.max_tokens));
    temperature_->setValue(s.sampling.temperature);
    seed_->setValue(static_cast<int>(s.sampling.seed));
    top_p_->setValue(s.sampling.top_p);
    top_k_->setValue(s.sampling.top_k);
    dla_->setChecked(s.dla);
    attention_->setChecked(s.record_attention);
}

void PromptPanel::setRunning(bool running) {
    cancel_->setEnabled(running);
}

void PromptPanel::save(QSettings& st) const {
    st.setValue("prompt/text", editor_->toPlainText());
    st.setValue("prompt/max_tokens", max_tokens_->value());
    st.setValue("prompt/temperature", temperature_->value());
    st.setValue("prompt/seed", seed_->value());
    st.setValue("prompt/top_p", top_p_->value());
    st.setValue("prompt/top_k", top_k_->value());
    st.setValue("prompt/dla", dla_->isChecked());
    st.setValue("prompt/attention", attention_->isChecked());
}

void PromptPanel::load(const QSettings& st) {
    editor_->setPlainText(st.value("prompt/text").toString());
    max_tokens_->setValue(st.value("prompt/max_tokens", 64).toInt());
    temperature_->setValue(st.value("prompt/temperature", 0.0).toDouble());
    seed_->setValue(st.value("prompt/seed", 0).toInt());
    top_p_->setValue(st.value("prompt/top_p", 1.0).toDouble());
    top_k_->setValue(st.value("prompt/top_k", 0).toInt());
    dla_->setChecked(st.value("prompt/dla", false).toBool());
    attention_->setChecked(st.value("prompt/attention", true).toBool());
}

} // namespace octo::ui
