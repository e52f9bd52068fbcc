#include "ui/panels/documentation.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>

namespace octo::ui {

QStringList documentation_candidates(const QString& resource_dir) {
    const QDir resources(resource_dir.isEmpty() ? QStringLiteral(".") : resource_dir);
    return {QDir::cleanPath(resources.filePath(QStringLiteral("../../doc/octoscope/README.md"))),
            QDir::cleanPath(resources.filePath(QStringLiteral("../docs/README.md")))};
}

QUrl documentation_url(const QString& resource_dir) {
    if (resource_dir.isEmpty()) return {};
    for (const QString& path : documentation_candidates(resource_dir)) {
        if (QFileInfo(path).isFile()) return QUrl::fromLocalFile(path);
    }
    return {};
}

void open_documentation(QWidget& parent, const QString& resource_dir) {
    const QUrl url = documentation_url(resource_dir);
    QString problem;
    if (url.isEmpty()) {
        problem = QCoreApplication::translate("octo::ui::Documentation", "The documentation was not found. It is installed in /usr/share/doc/octoscope (the Debian "
                     "package) or <prefix>/share/doc/octoscope, and it is the docs/ folder of the source tree; "
                     "README.md there lists every document. Looked for:");
        const QStringList tried = resource_dir.isEmpty() ? QStringList{QCoreApplication::translate("octo::ui::Documentation", "(no resource folder was found)")}
                                                         : documentation_candidates(resource_dir);
        problem += QStringLiteral("\n\n") + tried.join(QLatin1Char('\n'));
    } else if (!QDesktopServices::openUrl(url)) {
        problem = QCoreApplication::translate("octo::ui::Documentation", "No application opens %1. Open it in a text editor or a Markdown viewer.").arg(url.toLocalFile());
    }
    if (problem.isEmpty()) return;
    auto* box = new QMessageBox(QMessageBox::Information, QCoreApplication::translate("octo::ui::Documentation", "Documentation"), problem, QMessageBox::Close, &parent);
    box->setObjectName(QStringLiteral("documentationMessage"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace octo::ui
