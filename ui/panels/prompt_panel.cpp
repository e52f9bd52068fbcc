#include "ui/panels/prompt_panel.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/grammar/json_schema.h"
#include "ui/panels/structured_output_dialog.h"
#include "ui/support/engine_labels.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {

constexpr int kModelDefault = -1; // the Precision box's data for "the model's default"

// The QSettings / autosave spelling: "default", or precision_name.
QString precision_key(std::optional<Precision> p) {
    return p ? precision_id(*p) : QStringLiteral("default");
}

} // namespace

PromptPanel::PromptPanel(QWidget* parent) : QWidget(parent) {
    createTextFields();
    createSettings();
    createActions();
    const Captions captions = layOut();
    on_language_change(this, [this, captions] { retranslate(captions); });
}

void PromptPanel::createTextFields() {
    editor_ = new QPlainTextEdit(this);
    editor_->setObjectName(QStringLiteral("promptEditor"));
    editor_->setTabChangesFocus(true); // Tab / Shift+Tab leave the editor like any other field; Ctrl+Tab inserts a tab
    editor_->installEventFilter(this);
    editor_->setMinimumHeight(48);
    chat_ = new QCheckBox(this);
    chat_->setObjectName(QStringLiteral("chatBox"));
    system_ = new QLineEdit(this);
    system_->setEnabled(false);
    connect(chat_, &QCheckBox::toggled, system_, &QWidget::setEnabled);
    // gpt-oss (a harmony template): the system message's reasoning level, beside the system message
    reasoning_ = new QComboBox(this);
    reasoning_->setObjectName(QStringLiteral("reasoningBox"));
    for (ReasoningEffort e : {ReasoningEffort::Low, ReasoningEffort::Medium, ReasoningEffort::High}) {
        reasoning_->addItem(QString(), static_cast<int>(e));
    }
    reasoning_->setCurrentIndex(1); // medium, the template's default
    reasoning_->setEnabled(false);
    reasoning_->hide();
    connect(chat_, &QCheckBox::toggled, reasoning_, &QWidget::setEnabled);
}

void PromptPanel::createSettings() {
    max_tokens_ = new QSpinBox(this);
    max_tokens_->setRange(1, 4096);
    max_tokens_->setValue(64);
    temperature_ = new QDoubleSpinBox(this);
    temperature_->setRange(0.0, 5.0);
    temperature_->setSingleStep(0.1);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 2147483647);
    top_p_ = new QDoubleSpinBox(this);
    top_p_->setRange(0.01, 1.0);
    top_p_->setSingleStep(0.05);
    top_p_->setValue(1.0);
    top_k_ = new QSpinBox(this);
    top_k_->setRange(0, 100000);
    precision_ = new QComboBox(this);
    precision_->setObjectName(QStringLiteral("precisionBox"));
    precision_->addItem(QString(), kModelDefault);
    for (Precision p : {Precision::Reference, Precision::Exact}) precision_->addItem(precision_label(p), static_cast<int>(p));
    output_ = new QComboBox(this);
    output_->setObjectName(QStringLiteral("outputBox"));
    output_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // the panel's width is the dock's
    output_->setMinimumContentsLength(10);
    for (int i = 0; i < 4; ++i) output_->addItem(QString());
    output_edit_ = new QPushButton(this);
    output_edit_->setObjectName(QStringLiteral("outputEditButton"));
    output_edit_->setEnabled(false);
    connect(output_, &QComboBox::activated, this, [this](int index) {
        if ((index == JsonSchema && schema_text_.isEmpty()) || (index == Grammar && grammar_text_.isEmpty())) editOutput();
        else last_output_ = index;
        output_edit_->setEnabled(output_->currentIndex() >= JsonSchema);
        showOutputSummary();
    });
    connect(output_edit_, &QPushButton::clicked, this, &PromptPanel::editOutput);
}

void PromptPanel::createActions() {
    dla_ = new QCheckBox(this);
    dla_->setObjectName(QStringLiteral("dlaBox"));
    attention_ = new QCheckBox(this);
    attention_->setObjectName(QStringLiteral("attentionBox"));
    attention_->setChecked(true);
    run_ = new QPushButton(this);
    run_->setObjectName(QStringLiteral("runButton"));
    cancel_ = new QPushButton(this);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    cancel_->setEnabled(false);
    connect(run_, &QPushButton::clicked, this, &PromptPanel::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &PromptPanel::cancelRequested);

}

PromptPanel::Captions PromptPanel::layOut() {
    auto* form = new QFormLayout;
    Captions c{new QLabel(this), new QLabel(this), new QLabel(this), new QLabel(this), new QLabel(this), new QLabel(this), new QLabel(this)};
    c.max_tokens->setBuddy(max_tokens_);
    c.temperature->setBuddy(temperature_);
    c.seed->setBuddy(seed_);
    c.top_p->setBuddy(top_p_);
    c.precision->setBuddy(precision_);
    form->addRow(c.max_tokens, max_tokens_);
    // Temperature and seed share a row, as top-p and top-k do, so that the Output row fits.
    auto* sampling = new QHBoxLayout;
    sampling->addWidget(temperature_, 1);
    sampling->addWidget(c.seed);
    sampling->addWidget(seed_, 1);
    form->addRow(c.temperature, sampling);
    // Top-p and top-k share a row, so that Precision fits: the window must fit 1280 × 800 with
    // CJK line heights too.
    auto* top = new QHBoxLayout;
    top->addWidget(top_p_, 1);
    c.top_k->setBuddy(top_k_);
    top->addWidget(c.top_k);
    top->addWidget(top_k_, 1);
    form->addRow(c.top_p, top);
    form->addRow(c.precision, precision_);
    c.output->setBuddy(output_);
    auto* output_row = new QHBoxLayout;
    output_row->addWidget(output_, 1);
    output_row->addWidget(output_edit_);
    form->addRow(c.output, output_row);
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
    auto* system_row = new QHBoxLayout;
    system_row->addWidget(system_, 1);
    system_row->addWidget(reasoning_);
    layout->addLayout(system_row);
    layout->addLayout(flags);
    layout->addLayout(form);
    layout->addLayout(buttons);
    // Tab walks the panel as it is laid out: the editor, the system message, the flags row (Chat,
    // DLA, Record attention), the settings, then Cancel and Run. In creation order the flags came
    // after Precision, so Tab from Chat seemed to skip them.
    const QList<QWidget*> tab_order = {editor_, chat_, system_, reasoning_, dla_, attention_, max_tokens_, temperature_,
                                       seed_, top_p_, top_k_, precision_, output_, output_edit_, cancel_, run_};
    for (qsizetype i = 1; i < tab_order.size(); ++i) setTabOrder(tab_order[i - 1], tab_order[i]);
    return c;
}

void PromptPanel::retranslate(const Captions& c) {
    editor_->setPlaceholderText(tr("Prompt — Ctrl+Enter runs, Esc cancels"));
    editor_->setAccessibleName(tr("Prompt"));
    chat_->setText(tr("&Chat"));
    chat_->setToolTip(tr("Send system + user turns through the model's chat template"));
    system_->setPlaceholderText(tr("System message (chat mode)"));
    reasoning_->setItemText(0, tr("Reasoning: low"));
    reasoning_->setItemText(1, tr("Reasoning: medium"));
    reasoning_->setItemText(2, tr("Reasoning: high"));
    reasoning_->setToolTip(tr("How much a gpt-oss model reasons before its final answer (the level its chat template "
                              "writes into the system message; chat mode)"));
    temperature_->setToolTip(tr("0: greedy"));
    precision_->setAccessibleName(tr("Precision"));
    dla_->setText(tr("&DLA"));
    dla_->setToolTip(tr("Also compute direct logit attribution (one more projection per layer)"));
    attention_->setText(tr("Record a&ttention"));
    attention_->setToolTip(attentionTip());
    // "Ru&n", not "&Run": Alt+R opens the Run menu.
    run_->setText(tr("Ru&n"));
    run_->setToolTip(tr("Run the prompt (Ctrl+Enter)"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the run (Esc)"));
    c.max_tokens->setText(tr("Max tokens"));
    c.temperature->setText(tr("Temperature"));
    c.seed->setText(tr("Seed"));
    c.top_p->setText(tr("Top-p"));
    c.top_k->setText(tr("Top-k"));
    c.precision->setText(tr("Precision"));
    c.output->setText(tr("Output"));
    output_->setItemText(FreeText, tr("Free text"));
    output_->setItemText(JsonObject, tr("JSON object"));
    output_->setItemText(JsonSchema, tr("JSON Schema…"));
    output_->setItemText(Grammar, tr("Grammar (GBNF)…"));
    output_->setToolTip(tr("Structured output: constrain every answer to JSON, a JSON Schema or a grammar. Each token "
                           "then records how much probability the constraint removed (docs/structured-output.md)"));
    output_edit_->setText(tr("Edit…"));
    showOutputSummary();
    for (int i = 1; i < precision_->count(); ++i) precision_->setItemText(i, precision_label(static_cast<Precision>(precision_->itemData(i).toInt())));
    setModelPrecision(model_precision_);
}

void PromptPanel::editOutput() {
    const int kind = output_->currentIndex();
    if (kind < JsonSchema) return;
    const auto dialog_kind = kind == JsonSchema ? StructuredOutputDialog::Kind::JsonSchema : StructuredOutputDialog::Kind::Grammar;
    StructuredOutputDialog dialog(dialog_kind, kind == JsonSchema ? schema_text_ : grammar_text_, this);
    if (dialog.exec() == QDialog::Accepted) {
        (kind == JsonSchema ? schema_text_ : grammar_text_) = dialog.text();
        last_output_ = kind;
    } else if ((kind == JsonSchema ? schema_text_ : grammar_text_).isEmpty()) {
        output_->setCurrentIndex(last_output_); // nothing to constrain with: the choice before stays
    }
    output_edit_->setEnabled(output_->currentIndex() >= JsonSchema);
    showOutputSummary();
}

void PromptPanel::showOutputSummary() {
    const int kind = output_->currentIndex();
    const QString& text = kind == JsonSchema ? schema_text_ : grammar_text_;
    output_edit_->setToolTip(kind >= JsonSchema ? text.left(600).toHtmlEscaped().prepend(QStringLiteral("<pre>")) + QStringLiteral("</pre>")
                                                : tr("Choose JSON Schema or Grammar to edit their text"));
}

QString PromptPanel::attentionTip() const {
    return attention_->isEnabled() ? tr("Record attention weights for the attention view (runs that record them do not reuse "
                                        "cached prompt prefixes)")
                                   : tr("A server sends no attention weights: runs on it record none. Your choice returns with a local model.");
}

void PromptPanel::addNote(QWidget* note) {
    note->setParent(this);
    static_cast<QVBoxLayout*>(layout())->insertWidget(0, note);
    note->show();
}

bool PromptPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == editor_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && (key->modifiers() & Qt::ControlModifier)) {
            emit runRequested();
            return true;
        }
        if (key->key() == Qt::Key_Tab && key->modifiers() == Qt::ControlModifier) { // Tab moves focus on; Ctrl+Tab types a tab
            editor_->insertPlainText(QStringLiteral("\t"));
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

RunSpec PromptPanel::spec() const {
    RunSpec s;
    s.prompt = editor_->toPlainText().toStdString();
    s.chat = chat_->isChecked();
    s.system = system_->text().toStdString();
    s.reasoning_effort = static_cast<ReasoningEffort>(reasoning_->currentData().toInt());
    s.max_tokens = max_tokens_->value();
    s.sampling.temperature = static_cast<float>(temperature_->value());
    s.sampling.seed = static_cast<uint64_t>(seed_->value());
    s.sampling.top_p = static_cast<float>(top_p_->value());
    s.sampling.top_k = top_k_->value();
    if (const int p = precision_->currentData().toInt(); p != kModelDefault) s.precision = static_cast<Precision>(p);
    s.dla = dla_->isChecked();
    s.record_attention = attention_->isChecked();
    switch (output_->currentIndex()) {
    case JsonObject:
        s.json_schema = std::string(kJsonObjectSchema);
        s.grammar = json_object_gbnf();
        break;
    case JsonSchema:
        s.json_schema = schema_text_.toStdString();
        s.grammar = StructuredOutputDialog::compile(StructuredOutputDialog::Kind::JsonSchema, schema_text_, nullptr).toStdString();
        break;
    case Grammar: s.grammar = grammar_text_.toStdString(); break;
    default: break;
    }
    return s;
}

void PromptPanel::restore(const RunSpec& s) {
    editor_->setPlainText(QString::fromStdString(s.prompt));
    chat_->setChecked(s.chat);
    system_->setText(QString::fromStdString(s.system));
    reasoning_->setCurrentIndex(reasoning_->findData(static_cast<int>(s.reasoning_effort)));
    max_tokens_->setValue(static_cast<int>(s.max_tokens));
    temperature_->setValue(s.sampling.temperature);
    seed_->setValue(static_cast<int>(s.sampling.seed));
    top_p_->setValue(s.sampling.top_p);
    top_k_->setValue(s.sampling.top_k);
    precision_->setCurrentIndex(precision_->findData(s.precision ? static_cast<int>(*s.precision) : kModelDefault));
    dla_->setChecked(s.dla);
    int output = FreeText;
    if (s.json_schema == kJsonObjectSchema) {
        output = JsonObject;
    } else if (!s.json_schema.empty()) {
        output = JsonSchema;
        schema_text_ = QString::fromStdString(s.json_schema);
    } else if (!s.grammar.empty()) {
        output = Grammar;
        grammar_text_ = QString::fromStdString(s.grammar);
    }
    output_->setCurrentIndex(output);
    last_output_ = output;
    output_edit_->setEnabled(output >= JsonSchema);
    showOutputSummary();
    if (attention_->isEnabled()) attention_->setChecked(s.record_attention);
    else attention_local_ = s.record_attention; // on a server: kept for the next local model
}

void PromptPanel::setOnServer(bool on_server) {
    if (on_server == !attention_->isEnabled()) return;
    if (on_server) { // a server sends no attention weights: not ticked, and it cannot be
        attention_local_ = attention_->isChecked();
        attention_->setChecked(false);
        attention_->setEnabled(false);
    } else {
        attention_->setEnabled(true);
        attention_->setChecked(attention_local_);
    }
    attention_->setToolTip(attentionTip());
}

void PromptPanel::setReasoningShown(bool shown) { reasoning_->setVisible(shown); }

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
    st.setValue("prompt/precision", precision_key(spec().precision));
    st.setValue("prompt/dla", dla_->isChecked());
    st.setValue("prompt/attention", attention_->isEnabled() ? attention_->isChecked() : attention_local_);
    st.setValue("prompt/output", output_->currentIndex());
    st.setValue("prompt/output_schema", schema_text_);
    st.setValue("prompt/output_grammar", grammar_text_);
}

void PromptPanel::load(const QSettings& st) {
    editor_->setPlainText(st.value("prompt/text").toString());
    max_tokens_->setValue(st.value("prompt/max_tokens", 64).toInt());
    temperature_->setValue(st.value("prompt/temperature", 0.0).toDouble());
    seed_->setValue(st.value("prompt/seed", 0).toInt());
    top_p_->setValue(st.value("prompt/top_p", 1.0).toDouble());
    top_k_->setValue(st.value("prompt/top_k", 0).toInt());
    const auto precision = parse_precision(st.value("prompt/precision").toString().toStdString());
    precision_->setCurrentIndex(precision_->findData(precision ? static_cast<int>(*precision) : kModelDefault));
    dla_->setChecked(st.value("prompt/dla", false).toBool());
    attention_->setChecked(st.value("prompt/attention", true).toBool());
    schema_text_ = st.value("prompt/output_schema").toString();
    grammar_text_ = st.value("prompt/output_grammar").toString();
    int output = std::clamp(st.value("prompt/output", 0).toInt(), 0, 3);
    if ((output == JsonSchema && schema_text_.isEmpty()) || (output == Grammar && grammar_text_.isEmpty())) output = FreeText;
    output_->setCurrentIndex(output);
    last_output_ = output;
    output_edit_->setEnabled(output >= JsonSchema);
    showOutputSummary();
}

void PromptPanel::setModelPrecision(std::optional<Precision> model_default) {
    model_precision_ = model_default;
    precision_->setItemText(0, model_default ? tr("Model default: %1").arg(precision_label(*model_default))
                                             : tr("Model default"));
    precision_->setToolTip(
        tr("How matrix products with quantised weights treat the activations.\n"
           "Reference: the activations are quantised as llama.cpp does (8-bit blocks; F16/BF16 rounding for F16/BF16 "
           "weights), so the tokens match what llama.cpp-based tools produce.\n"
           "Exact: the activations stay 32-bit floats (the weights as stored times the activations as computed).\n"
           "F32 weights are multiplied in float either way.\n"
           "This model's default: %1")
            .arg(model_default ? precision_label(*model_default) : tr("no model loaded")));
}

} // namespace octo::ui
