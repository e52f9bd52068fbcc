// Help → Documentation: opens the documentation's index (docs/README.md) with the desktop's
// handler for local files. Where it lives, relative to the resource folder
// (<prefix>/share/octoscope/resources, `octoscope-cli paths`):
//   <prefix>/share/doc/octoscope/README.md — an installation and the Debian package (the root
//       CMakeLists.txt installs docs/ there) and the build tree (<build>/share/doc/octoscope
//       links to the source docs/);
//   <resources>/../docs/README.md — the source tree, when OCTOSCOPE_RESOURCES names its resources/.
// When neither exists, a message names the places looked at; nothing is fetched from the network.
#pragma once

#include <QString>
#include <QStringList>
#include <QUrl>

class QWidget;

namespace octo::ui {

// The index files looked for, in order.
QStringList documentation_candidates(const QString& resource_dir);
// The first candidate that exists as a file, as a file:// URL; empty when none does.
QUrl documentation_url(const QString& resource_dir);
// Opens it (QDesktopServices::openUrl), or shows a non-blocking message naming the candidates.
void open_documentation(QWidget& parent, const QString& resource_dir);

} // namespace octo::ui
