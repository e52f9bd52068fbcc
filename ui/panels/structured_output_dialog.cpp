#include "ui/panels/structured_output_dialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/json_schema.h"

namespace octo::ui {

StructuredOutputDialog::StructuredOutputDialog(Kind kind, const QString& text, QWidget* parent) : QDialog(parent), kind_(kind) {
    setWindowTitle(kind == Kind::JsonSchema ? tr("JSON Schema of the answer") : tr("Grammar of the answer (GBNF)"));
    auto* intro = new QLabel(kind == Kind::JsonSchema
                                 ? tr("Every answer will be a JSON document this schema accepts. Keywords the grammar cannot "
                                      "enforce are refused (docs/structured-output.md).")
                                 : tr("Every answer will be a sentence of this grammar (llama.cpp's GBNF; the rule 'root' starts it)."),
                             this);
    intro->setWordWrap(true);
    editor_ = new QPlainTextEdit(this);
    editor_->setObjectName(QStringLiteral("structuredOutputText"));
    editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor_->setPlainText(text);
    editor_->setPlaceholderText(kind == Kind::JsonSchema ? QStringLiteral("{\"type\": \"object\", \"properties\": {…}}")
                                                         : QStringLiteral("root ::= …"));
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("structuredOutputError"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    error_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* load = buttons->addButton(tr("&Load file…"), QDialogButtonBox::ActionRole);
    connect(load, &QPushButton::clicked, this, &StructuredOutputDialog::loadFile);
    connect(buttons, &QDialogButtonBox::accepted, this, &StructuredOutputDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &StructuredOutputDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(editor_, 1);
    layout->addWidget(error_);
    layout->addWidget(buttons);
    resize(560, 420);
}

QString StructuredOutputDialog::text() const { return editor_->toPlainText(); }

QString StructuredOutputDialog::compile(Kind kind, const QString& text, QString* error) {
    const std::string source = text.toStdString();
    if (kind == Kind::JsonSchema) {
        auto gbnf = json_schema_to_gbnf(source);
        if (!gbnf) {
            if (error) *error = QString::fromStdString(gbnf.error().message);
            return {};
        }
        return QString::fromStdString(gbnf.value());
    }
    if (auto g = Grammar::parse(source); !g) {
        if (error) *error = QString::fromStdString(g.error().message);
        return {};
    }
    return text;
}

void StructuredOutputDialog::accept() {
    QString error;
    if (compile(kind_, text(), &error).isEmpty()) {
        error_->setText(error);
        error_->show();
        return; // stays open until fixed or cancelled
    }
    QDialog::accept();
}

void StructuredOutputDialog::loadFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load"), QString(),
                                                      kind_ == Kind::JsonSchema ? tr("JSON Schema (*.json);;All files (*)")
                                                                                : tr("GBNF grammar (*.gbnf);;All files (*)"));
    if (path.isEmpty()) return;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > 1024 * 1024) {
        error_->setText(tr("Cannot read %1 (at most 1 MiB).").arg(path));
        error_->show();
        return;
    }
    editor_->setPlainText(QString::fromUtf8(file.readAll()));
    error_->hide();
}

} // namespace octo::ui
