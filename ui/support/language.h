// The UI language. The workbench ships English source strings and a Chinese (zh_CN)
// translation compiled into the binary (:/i18n/octoscope_zh_CN.qm). The user's choice is
// "system" (follow QLocale::system(): zh* gives Chinese, anything else English), "en" or
// "zh_CN", remembered in QSettings. The GUI installs the translators at start-up (--lang
// overrides the choice for that start) and again when the user picks a language in View →
// Language; Qt then sends QEvent::LanguageChange and the widgets set their texts again
// (ui/support/retranslate.h), so a change needs no restart.
#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>

namespace octo::ui {

inline const QString kSystemLanguage = QStringLiteral("system");
QStringList ui_languages(); // {"en", "zh_CN"}
QString language_native_name(const QString& language); // "English", "中文（简体）"

// "zh_CN" for a Chinese locale, "en" otherwise.
QString language_for_locale(const QLocale& locale);
// The language a choice ("system", "en", "zh_CN") means on a system with this locale.
QString resolve_language(const QString& choice, const QLocale& system = QLocale::system());

QString saved_language_choice(); // "system" unless the user picked one
void save_language_choice(const QString& choice);
// The choice View → Language ticks: the saved one when it gives the installed language, else the
// installed language itself (a start with --lang, or a failed install).
QString language_choice_shown();

// Installs the workbench's and Qt's own translations for `language` ("en" or "zh_CN") on the
// application, replacing those installed before. False when the workbench's translation for a
// non-English language cannot be loaded (the UI then stays English). Qt's own (qtbase) strings
// are loaded from Qt's translation folder when it holds them.
bool install_translations(const QString& language);
QString installed_language(); // the language of the last install_translations, "en" before

} // namespace octo::ui
