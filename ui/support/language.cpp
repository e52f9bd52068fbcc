#include "ui/support/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

#include <memory>
#include <vector>

namespace octo::ui {

namespace {

const QString kSettingKey = QStringLiteral("ui/language");
const QString kEnglish = QStringLiteral("en");

struct Installed {
    QString language = kEnglish;
    std::vector<std::unique_ptr<QTranslator>> translators;
};

Installed& installed() {
    static Installed state;
    return state;
}

} // namespace

QStringList ui_languages() { return {kEnglish, QStringLiteral("zh_CN")}; }

QString language_native_name(const QString& language) {
    return language == QStringLiteral("zh_CN") ? QStringLiteral("中文（简体）") : QStringLiteral("English");
}

QString language_for_locale(const QLocale& locale) {
    return locale.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : kEnglish;
}

QString resolve_language(const QString& choice, const QLocale& system) {
    return ui_languages().contains(choice) ? choice : language_for_locale(system);
}

QString saved_language_choice() {
    const QString choice = QSettings().value(kSettingKey, kSystemLanguage).toString();
    return ui_languages().contains(choice) ? choice : kSystemLanguage;
}

void save_language_choice(const QString& choice) { QSettings().setValue(kSettingKey, choice); }

QString language_choice_shown() {
    const QString saved = saved_language_choice();
    return resolve_language(saved) == installed_language() ? saved : installed_language();
}

bool install_translations(const QString& language) {
    Installed& state = installed();
    for (const auto& t : state.translators) QCoreApplication::removeTranslator(t.get());
    state.translators.clear();
    state.language = kEnglish;
    if (language == kEnglish) return true;
    auto app = std::make_unique<QTranslator>();
    if (!app->load(QStringLiteral(":/i18n/octoscope_%1.qm").arg(language))) return false;
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QStringLiteral("qtbase_%1").arg(language), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        state.translators.push_back(std::move(qt));
    }
    QCoreApplication::installTranslator(app.get());
    state.translators.push_back(std::move(app));
    state.language = language;
    return true;
}

QString installed_language() { return installed().language; }

} // namespace octo::ui
