#include "ui/panels/about_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStringList>
#include <QTextDocument>
#include <QVBoxLayout>

#include <spdlog/version.h>

#include "engine/model/user_data.h"
#include "ui/session/app_log.h"
#include "ui/session/autosave.h"
#include "ui/session/run_store.h"

namespace octo::ui {

QString spdlog_version() {
    return QStringLiteral("%1.%2.%3").arg(SPDLOG_VER_MAJOR).arg(SPDLOG_VER_MINOR).arg(SPDLOG_VER_PATCH);
}

QString compiler_version() {
#if defined(__clang__)
    return QStringLiteral("Clang %1").arg(QString::fromLatin1(__clang_version__).trimmed());
#elif defined(__GNUC__)
    return QStringLiteral("GCC %1").arg(QString::fromLatin1(__VERSION__));
#else
    return QStringLiteral("unknown compiler");
#endif
}

AboutDialog::AboutDialog(const AboutFacts& facts, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("About Octoscope"));
    setObjectName(QStringLiteral("aboutDialog"));
    auto* intro = new QLabel(
        tr("<p><b>Octoscope</b> — a workbench for debugging prompts and routes in language models: which "
           "of eight head groups (rte-a … rte-h) contributes to each token, measured inside the forward "
           "pass of the model it really runs.</p>"
           "<p>The built-in model <b>octet</b> was trained by this project so that head k of each of its "
           "16 layers serves subsystem k and a learned router gates the groups. Its specialisation is "
           "trained in on purpose: it <i>demonstrates</i> the idea of eight subsystems sharing one "
           "backbone, and is no evidence about how GPT-4 or any other model works inside.</p>"),
        this);
    intro->setWordWrap(true);
    const auto row = [](const QString& name, const QString& value) {
        return QStringLiteral("<tr><td style=\"padding-right:12px\"><b>%1</b></td><td>%2</td></tr>").arg(name.toHtmlEscaped(), value.toHtmlEscaped());
    };
    const QString none = tr("none loaded");
    QString table = QStringLiteral("<table>");
    table += row(tr("Version"), QApplication::applicationVersion().isEmpty() ? tr("(not set)") : QApplication::applicationVersion());
    table += row(tr("Qt"), tr("%1 at run time, built with %2").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)));
    table += row(tr("spdlog"), spdlog_version());
    table += row(tr("Compiler"), compiler_version());
    table += row(tr("Backend"), facts.backend.isEmpty() ? none : facts.backend);
    table += row(tr("Model"), facts.model.isEmpty() ? none : facts.model);
    if (!facts.model_features.isEmpty()) table += row(tr("Model features"), facts.model_features);
    table += row(tr("Settings"), facts.settings_file);
    table += row(tr("User data"), facts.data_dir);
    table += row(tr("Log file"), facts.log_file);
    table += row(tr("Autosave"), facts.autosave_file);
    table += QStringLiteral("</table>");
    facts_ = new QLabel(table, this);
    facts_->setObjectName(QStringLiteral("aboutFacts"));
    facts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    copy->setToolTip(tr("Copy the versions and paths (for a bug report)"));
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(factsText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(facts_);
    layout->addWidget(buttons);
    setMinimumWidth(640);
}

QString AboutDialog::factsText() const {
    QTextDocument doc;
    doc.setHtml(facts_->text());
    return doc.toPlainText();
}

void show_about(QWidget& parent, const RunStore& store) {
    AboutFacts facts;
    if (const auto& m = store.model()) {
        facts.backend = QString::fromStdString(m->backend);
        facts.model = QStringLiteral("%1 (%2)").arg(QString::fromStdString(m->name), QString::fromStdString(m->path));
        QStringList features{QString::fromStdString(m->architecture)};
        for (const std::string& f : m->features) features << QString::fromStdString(f);
        facts.model_features = features.join(QStringLiteral("; "));
    }
    facts.settings_file = QSettings().fileName();
    facts.data_dir = QString::fromStdString(user_data_dir().string());
    facts.log_file = QString::fromStdString(log_file_path().string());
    facts.autosave_file = QString::fromStdString(Autosave::filePath().string());
    auto* dialog = new AboutDialog(facts, &parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

} // namespace octo::ui
