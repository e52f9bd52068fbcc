// The Chinese translation (resources/translations/octoscope_zh_CN.ts) and the language choice:
// every message is translated with its placeholders kept, the .ts covers every tr() string in
// the sources (lupdate finds nothing new), the main window built in zh_CN shows the .ts's
// strings, subsystem names are seed-digest's, English stays the default, and `octoscope --lang`
// starts the GUI in a language; View → Language ticks the language shown and switches the window
// in place (menus, docks, buttons, plots, advisor findings) and back; access keys are unique in
// every menu and across the menu bar and the window's buttons, in both languages, and Alt+R opens
// the Run menu; the advisor's findings and the metric labels are Chinese under zh_CN. Expected
// texts are read from the .ts, the rule file and seed-digest.md, never from the code under test.
#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QXmlStreamReader>
#include <QtTest>

#include <qcustomplot.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "engine/generation/instrumented_generation.h"
#include "engine/model/synthetic_model.h"
#include "ui/support/engine_labels.h"
#include "ui/support/language.h"
#include "ui/main_window.h"
#include "ui/support/subsystem_palette.h" // subsystem_name
#include "ui/panels/advisor_panel.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/switches_panel.h"
#include "ui/controllers/run_controller.h"
#include "ui/session/run_store.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;
using octo::ui::test::write_synthetic_model;
using octo::ui::test::screenshot;

namespace {

struct TsMessage {
    QString context;
    QString source;
    QStringList translations; // one, or the numerus forms
    QString type;             // "", "unfinished", "vanished", "obsolete"
};

// Every <message> of a .ts file, in order.
QList<TsMessage> read_ts(const QString& path) {
    QList<TsMessage> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return out;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage message;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) {
            if (xml.isEndElement() && xml.name() == QStringLiteral("message")) out.append(message);
            continue;
        }
        if (xml.name() == QStringLiteral("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QStringLiteral("message")) {
            message = TsMessage{context, {}, {}, {}};
        } else if (xml.name() == QStringLiteral("source")) {
            message.source = xml.readElementText();
        } else if (xml.name() == QStringLiteral("translation")) {
            message.type = xml.attributes().value(QStringLiteral("type")).toString();
            // Either text, or <numerusform> children.
            QString text;
            while (!(xml.isEndElement() && xml.name() == QStringLiteral("translation")) && !xml.atEnd()) {
                xml.readNext();
                if (xml.isCharacters()) text += xml.text();
                if (xml.isStartElement() && xml.name() == QStringLiteral("numerusform")) {
                    message.translations.append(xml.readElementText());
                }
            }
            if (message.translations.isEmpty()) message.translations.append(text);
        }
    }
    if (xml.hasError()) qWarning("%s: %s", qPrintable(path), qPrintable(xml.errorString()));
    return out;
}

QString ts_path() { return QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/translations/octoscope_zh_CN.ts"); }

// context -> source -> translation (the first form).
std::map<QString, std::map<QString, QString>> ts_table() {
    std::map<QString, std::map<QString, QString>> table;
    for (const TsMessage& m : read_ts(ts_path())) table[m.context][m.source] = m.translations.value(0);
    return table;
}

// %1 … %99 and %n, sorted (the same placeholder may appear twice).
QStringList placeholders(const QString& text) {
    static const QRegularExpression re(QStringLiteral("%(L?\\d{1,2}|n)"));
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();) found << it.next().captured(0);
    found.sort();
    return found;
}

// The Chinese names of rte-a … rte-h in ../shared/docs/seed-digest.md's subsystem table, or an
// empty list when that file is absent.
QStringList seed_digest_names() {
    QFile file(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/../shared/docs/seed-digest.md"));
    if (!file.open(QIODevice::ReadOnly)) return {};
    QStringList names(kSubsystemCount);
    static const QRegularExpression row(QStringLiteral("^\\|\\s*rte-([a-h])\\s*\\|[^|]*\\|\\s*([^|]+?)\\s*\\|"));
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        const auto m = row.match(line);
        if (m.hasMatch()) names[m.captured(1).at(0).unicode() - 'a'] = m.captured(2);
    }
    return names;
}

QString rte(int s) { return QStringLiteral("rte-%1").arg(QChar(u'a' + s)); }

QAction* menu_bar_action(const QMainWindow& w, const QString& text) {
    for (QAction* a : w.menuBar()->actions()) {
        if (a->text() == text) return a;
    }
    return nullptr;
}

const std::pair<const char*, const char*> kDocks[] = {
    {"promptDock", "Prompt"},         {"switchesDock", "Subsystems"},        {"historyDock", "Run history"},
    {"routerDock", "Router"},         {"heatmapDock", "Layers × heads"},     {"attentionDock", "Attention"},
    {"stripDock", "Tokens × subsystems"}, {"kvDock", "KV pool"},          {"latencyDock", "Latency"},
    {"advisorDock", "Advisor"},       {"compareDock", "A/B compare"},
};
// Each menu of the bar: its class (the translation context) and its title.
const std::pair<const char*, const char*> kMenus[] = {{"octo::ui::FileMenu", "&File"}, {"octo::ui::RunMenu", "&Run"},
                                                     {"octo::ui::ModelMenu", "&Model"}, {"octo::ui::ViewMenu", "&View"},
                                                     {"octo::ui::HelpMenu", "&Help"}};

const QString kResources = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources");

bool has_cjk(const QString& text) {
    static const QRegularExpression cjk(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
    return text.contains(cjk);
}

// The access key of a text: the character after a single '&' ("&&" is a literal '&'), lower-case;
// none when it has no access key.
std::optional<QChar> access_key(QString text) {
    text.remove(QStringLiteral("&&"));
    const qsizetype at = text.indexOf(QLatin1Char('&'));
    if (at < 0 || at + 1 >= text.size()) return std::nullopt;
    return text.at(at + 1).toLower();
}

// Adds "where: key used by a, b" to `duplicates` for each access key that two of `texts` share.
void find_duplicates(const QString& where, const QStringList& texts, QStringList& duplicates) {
    std::map<QChar, QStringList> by_key;
    for (const QString& t : texts) {
        if (const auto k = access_key(t)) by_key[*k] << t;
    }
    for (const auto& [key, users] : by_key) {
        if (users.size() > 1) duplicates << QStringLiteral("%1: '%2' in %3").arg(where, key, users.join(QStringLiteral(" | ")));
    }
}

// Every menu of the menu bar, recursively: no two items of one menu share an access key.
void menu_duplicates(const QMenu& menu, QStringList& duplicates) {
    QStringList texts;
    for (QAction* a : menu.actions()) {
        if (a->isSeparator()) continue;
        texts << a->text();
        if (a->menu()) menu_duplicates(*a->menu(), duplicates);
    }
    find_duplicates(menu.title(), texts, duplicates);
}

// The menu bar's titles and every button, check box and buddied label in the window share one
// Alt+key space: no two of them may use the same key (a button with &R would take Alt+R from
// the Run menu).
QStringList access_key_duplicates(const QMainWindow& w) {
    QStringList duplicates;
    QStringList window_keys;
    for (QAction* a : w.menuBar()->actions()) {
        window_keys << a->text();
        if (a->menu()) menu_duplicates(*a->menu(), duplicates);
    }
    for (const QAbstractButton* b : w.findChildren<QAbstractButton*>()) window_keys << b->text();
    for (const QLabel* l : w.findChildren<QLabel*>()) {
        if (l->buddy()) window_keys << l->text();
    }
    find_duplicates(QStringLiteral("main window"), window_keys, duplicates);
    return duplicates;
}

// resources/rules/advisor_rules.json: rule id → {"en": title, "zh": title} and the explanations.
struct RuleTexts {
    QString title_en, title_zh, explanation_en, explanation_zh;
};
std::map<QString, RuleTexts> rule_texts() {
    QFile file(kResources + QStringLiteral("/rules/advisor_rules.json"));
    if (!file.open(QIODevice::ReadOnly)) return {};
    std::map<QString, RuleTexts> out;
    for (const QJsonValue& r : QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("rules")).toArray()) {
        const QJsonObject o = r.toObject();
        const auto in = [&o](const char* key, const char* lang) { return o.value(QLatin1String(key)).toObject().value(QLatin1String(lang)).toString(); };
        out[o.value(QStringLiteral("id")).toString()] = {in("title", "en"), in("title", "zh"), in("explanation", "en"), in("explanation", "zh")};
    }
    return out;
}

QAction* action_named(const QObject& w, const char* name) { return w.findChild<QAction*>(QString::fromLatin1(name)); }

// rte-a … rte-h's English names, the .ts's source texts.
const char* const kSubsystemSources[] = {"Entity recognition & linking", "Relation extraction", "Numerical reasoning",
                                         "Logical structure parsing", "Code semantics", "Style transfer & polishing",
                                         "Format generation & validation", "Safety & compliance filtering"};

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void everyMessageIsTranslated();
    void translationCoversTheSources();
    void subsystemNamesAreSeedDigests();
    void localeDecidesTheDefault();
    void mainWindowInChinese();
    void englishIsTheDefault();
    void languageMenuRemembersTheChoice();
    void languageMenuTicksTheLanguageShown();
    void switchingLanguageAtRunTime();
    void accessKeysAreUniqueInBothLanguages();
    void altROpensTheRunMenu();
    void advisorFindingsInChinese();
    void metricLabelsAreTranslated();
    void langOptionStartsTheGuiInChinese();

private:
    QTemporaryDir dir_;
};

void TestTranslations::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // settings go to a test location
    QVERIFY(dir_.isValid());
    QVERIFY2(!read_ts(ts_path()).isEmpty(), qPrintable(ts_path()));
}

void TestTranslations::cleanup() {
    install_translations(QStringLiteral("en"));
    save_language_choice(kSystemLanguage);
}

void TestTranslations::everyMessageIsTranslated() {
    int checked = 0;
    for (const TsMessage& m : read_ts(ts_path())) {
        const QString where = m.context + QStringLiteral(": ") + m.source;
        QVERIFY2(m.type.isEmpty(), qPrintable(where + QStringLiteral(" is ") + m.type));
        for (const QString& t : m.translations) {
            QVERIFY2(!t.trimmed().isEmpty(), qPrintable(where + QStringLiteral(" has an empty translation")));
            QVERIFY2(placeholders(t) == placeholders(m.source),
                     qPrintable(where + QStringLiteral(": placeholders ") + placeholders(m.source).join(',') +
                                QStringLiteral(" vs ") + placeholders(t).join(',') + QStringLiteral(" in ") + t));
            // A translated mnemonic stays a mnemonic (one "&x", or none when the source has none).
            const auto mnemonics = [](QString s) {
                static const QRegularExpression mnemonic(QStringLiteral("&\\S"));
                return s.remove(QStringLiteral("&&")).count(mnemonic);
            };
            QVERIFY2(mnemonics(t) == mnemonics(m.source), qPrintable(where + QStringLiteral(": mnemonic lost in ") + t));
        }
        ++checked;
    }
    QVERIFY(checked > 100);
}

// lupdate over the UI sources, into a copy of the .ts: it must find no string the .ts lacks
// (a new tr() without a translation fails here) and none the .ts has that the code dropped.
void TestTranslations::translationCoversTheSources() {
    const QString copy = dir_.filePath(QStringLiteral("copy_zh_CN.ts"));
    QFile::remove(copy);
    QVERIFY(QFile::copy(ts_path(), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    const QDir src(QStringLiteral(OCTOSCOPE_SOURCE_DIR));
    QStringList args = {QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none"),
                        QStringLiteral("-I"), src.path()};
    QDirIterator ui(src.filePath(QStringLiteral("ui")), {"*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
    while (ui.hasNext()) args << ui.next();
    args << src.filePath(QStringLiteral("app/gui/main.cpp")) << QStringLiteral("-ts") << copy;
    QProcess lupdate;
    lupdate.start(QStringLiteral(OCTOSCOPE_LUPDATE_PATH), args);
    QVERIFY(lupdate.waitForFinished(60000));
    QCOMPARE(lupdate.exitCode(), 0);
    std::set<std::pair<QString, QString>> committed, current;
    for (const TsMessage& m : read_ts(ts_path())) committed.insert({m.context, m.source});
    for (const TsMessage& m : read_ts(copy)) {
        current.insert({m.context, m.source});
        QVERIFY2(m.type.isEmpty(), qPrintable(QStringLiteral("not in the .ts (run the update_translations target and "
                                                             "translate): ") + m.context + QStringLiteral(": ") + m.source));
    }
    QCOMPARE(current.size(), committed.size());
    QVERIFY(current == committed);
}

void TestTranslations::subsystemNamesAreSeedDigests() {
    const QStringList digest = seed_digest_names();
    if (digest.isEmpty()) QSKIP("../shared/docs/seed-digest.md is absent");
    const auto table = ts_table();
    const auto& names = table.at(QStringLiteral("Subsystem"));
    QCOMPARE(names.size(), size_t{kSubsystemCount});
    QVERIFY(install_translations(QStringLiteral("zh_CN")));
    for (int s = 0; s < kSubsystemCount; ++s) {
        QVERIFY2(!digest[s].isEmpty(), qPrintable(rte(s)));
        QCOMPARE(names.at(QString::fromUtf8(kSubsystemSources[s])), digest[s]);
        QCOMPARE(subsystem_name(s), digest[s]); // what the UI shows
    }
}

void TestTranslations::localeDecidesTheDefault() {
    QCOMPARE(language_for_locale(QLocale(QLocale::Chinese, QLocale::China)), QStringLiteral("zh_CN"));
    QCOMPARE(language_for_locale(QLocale(QLocale::Chinese, QLocale::Taiwan)), QStringLiteral("zh_CN"));
    QCOMPARE(language_for_locale(QLocale(QLocale::German, QLocale::Germany)), QStringLiteral("en"));
    QCOMPARE(language_for_locale(QLocale::c()), QStringLiteral("en"));
    QCOMPARE(resolve_language(kSystemLanguage, QLocale(QLocale::Chinese, QLocale::China)), QStringLiteral("zh_CN"));
    QCOMPARE(resolve_language(QStringLiteral("en"), QLocale(QLocale::Chinese, QLocale::China)), QStringLiteral("en"));
    QCOMPARE(resolve_language(QStringLiteral("zh_CN"), QLocale(QLocale::French, QLocale::France)), QStringLiteral("zh_CN"));
    QCOMPARE(resolve_language(QStringLiteral("klingon"), QLocale(QLocale::French, QLocale::France)), QStringLiteral("en"));
    QCOMPARE(saved_language_choice(), kSystemLanguage);
    QVERIFY(!install_translations(QStringLiteral("xx"))); // no such translation: stays English
    QCOMPARE(installed_language(), QStringLiteral("en"));
}

void TestTranslations::mainWindowInChinese() {
    const auto table = ts_table();
    const auto& docks = table.at(QStringLiteral("octo::ui::DockLayout"));
    QVERIFY(install_translations(QStringLiteral("zh_CN")));
    QCOMPARE(installed_language(), QStringLiteral("zh_CN"));
    MainWindow w;
    w.show();
    for (const auto& [context, menu] : kMenus) {
        const QString expected = table.at(QString::fromUtf8(context)).at(QString::fromUtf8(menu));
        QVERIFY(expected != QString::fromUtf8(menu));
        QVERIFY2(menu_bar_action(w, expected), qPrintable(QStringLiteral("no menu ") + expected));
    }
    for (const auto& [name, title] : kDocks) {
        auto* dock = w.findChild<QDockWidget*>(QString::fromUtf8(name));
        QVERIFY2(dock, name);
        QCOMPARE(dock->windowTitle(), docks.at(QString::fromUtf8(title)));
    }
    const auto& menus = table.at(QStringLiteral("octo::ui::FileMenu"));
    const QString file_menu = menus.at(QStringLiteral("&File"));
    QMenu* file = menu_bar_action(w, file_menu)->menu();
    QVERIFY(file);
    QCOMPARE(file->actions().first()->text(), menus.at(QStringLiteral("&Open Model…")));
    auto* language = w.findChild<QMenu*>(QStringLiteral("languageMenu"));
    QVERIFY(language);
    QCOMPARE(language->title(), table.at(QStringLiteral("octo::ui::LanguageMenu")).at(QStringLiteral("&Language")));

    // The switches show "rte-x" with seed-digest's names in their tooltips (the .ts's when that file is absent).
    QStringList names = seed_digest_names();
    if (names.isEmpty()) {
        for (const char* source : kSubsystemSources) names << table.at(QStringLiteral("Subsystem")).at(QString::fromUtf8(source));
    }
    for (int s = 0; s < kSubsystemCount; ++s) {
        auto* box = part<SwitchesPanel>(w)->findChild<QCheckBox*>(rte(s));
        QVERIFY(box);
        QCOMPARE(box->text(), rte(s));
        QVERIFY2(box->toolTip().startsWith(names[s]), qPrintable(box->toolTip()));
    }
    // Chinese labels still fit the 1280 × 800 window.
    QVERIFY2(w.minimumSizeHint().width() <= 1280 && w.minimumSizeHint().height() <= 800,
             qPrintable(QStringLiteral("%1 × %2").arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())));
}

void TestTranslations::englishIsTheDefault() {
    QCOMPARE(installed_language(), QStringLiteral("en"));
    MainWindow w;
    for (const auto& [context, menu] : kMenus) QVERIFY2(menu_bar_action(w, QString::fromUtf8(menu)), menu);
    for (const auto& [name, title] : kDocks) {
        QCOMPARE(w.findChild<QDockWidget*>(QString::fromUtf8(name))->windowTitle(), QString::fromUtf8(title));
    }
    QCOMPARE(part<SwitchesPanel>(w)->findChild<QCheckBox*>(QStringLiteral("rte-c"))->text(), QStringLiteral("rte-c"));
    QVERIFY(part<SwitchesPanel>(w)->findChild<QCheckBox*>(QStringLiteral("rte-c"))->toolTip().startsWith(QStringLiteral("Numerical reasoning")));

}

void TestTranslations::languageMenuRemembersTheChoice() {
    MainWindow w;
    w.show();
    QVERIFY(action_named(w, "language_system")->isChecked());
    action_named(w, "language_zh_CN")->trigger();
    QCOMPARE(saved_language_choice(), QStringLiteral("zh_CN"));
    QCOMPARE(installed_language(), QStringLiteral("zh_CN")); // at once, no restart
    QVERIFY(QApplication::activeModalWidget() == nullptr); // and no message box about one
    QTRY_VERIFY(action_named(w, "language_zh_CN") && action_named(w, "language_zh_CN")->isChecked());
    action_named(w, "language_en")->trigger();
    QCOMPARE(saved_language_choice(), QStringLiteral("en"));
    QCOMPARE(installed_language(), QStringLiteral("en"));
    QTRY_VERIFY(action_named(w, "language_en") && action_named(w, "language_en")->isChecked());
    MainWindow again; // a new window shows the saved choice
    QVERIFY(action_named(again, "language_en")->isChecked());
}

// A start with --lang (main.cpp installs that language whatever the saved choice) ticks the
// language shown, not the saved "system" that would give another.
void TestTranslations::languageMenuTicksTheLanguageShown() {
    const QString system_language = resolve_language(kSystemLanguage);
    const QString other = system_language == QStringLiteral("zh_CN") ? QStringLiteral("en") : QStringLiteral("zh_CN");
    QVERIFY(install_translations(other)); // as `octoscope --lang <other>` does
    {
        MainWindow w;
        QVERIFY2(action_named(w, qPrintable(QStringLiteral("language_") + other))->isChecked(), qPrintable(other));
        QVERIFY(!action_named(w, "language_system")->isChecked());
    }
    QVERIFY(install_translations(system_language)); // --lang giving the system's language: "System" is right
    {
        MainWindow w;
        QVERIFY(action_named(w, "language_system")->isChecked());
    }
    save_language_choice(other); // saved Chinese (or English), started with --lang in the other
    {
        MainWindow w;
        QVERIFY(action_named(w, qPrintable(QStringLiteral("language_") + system_language))->isChecked());
        QVERIFY(!action_named(w, qPrintable(QStringLiteral("language_") + other))->isChecked());
    }
}

// View → Language switches the window in place: the menu bar, a dock's title, a panel's button,
// a plot's axis title and the advisor's findings change to Chinese and back, in the same window.
void TestTranslations::switchingLanguageAtRunTime() {
    const auto table = ts_table();
    const auto zh = [&table](const char* context, const char* source) { return table.at(QString::fromLatin1(context)).at(QString::fromUtf8(source)); };
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(kResources + QStringLiteral("/octet/octet.gguf"));
    QVERIFY(loaded.wait(60000));
    auto* advisor_dock = w.findChild<QDockWidget*>(QStringLiteral("advisorDock"));
    auto* run_button = w.findChild<QPushButton*>(QStringLiteral("runButton"));
    auto* heatmap = w.findChild<QCustomPlot*>(QStringLiteral("headHeatmapPlot"));
    auto* advisor = part<AdvisorPanel>(w);
    QVERIFY(advisor_dock && run_button && heatmap);
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("Give me the latest news as json."));
    QTRY_VERIFY(!advisor->findings().empty());
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().runPrompt();
    QVERIFY(settled.wait(60000));
    w.showPanel(QStringLiteral("advisor"));
    const QString first_finding = advisor->list()->topLevelItem(0)->text(1);
    QVERIFY(!has_cjk(first_finding));
    QCOMPARE(run_button->text(), QStringLiteral("Ru&n"));

    action_named(w, "language_zh_CN")->trigger();
    QTRY_VERIFY2(menu_bar_action(w, zh("octo::ui::RunMenu", "&Run")), "the menu bar is not Chinese");
    for (const auto& [context, menu] : kMenus) QVERIFY2(menu_bar_action(w, zh(context, menu)), menu);
    QCOMPARE(w.menuBar()->actions().size(), 5); // built again, not added to
    QCOMPARE(advisor_dock->windowTitle(), zh("octo::ui::DockLayout", "Advisor"));
    QCOMPARE(run_button->text(), zh("octo::ui::PromptPanel", "Ru&n"));
    QCOMPARE(heatmap->xAxis->label(), zh("octo::ui::HeadHeatmapView", "head (subsystem)"));
    auto* note_undo = w.findChild<QToolButton*>(QStringLiteral("noteUndo"));
    QVERIFY(note_undo && note_undo->defaultAction());
    QCOMPARE(note_undo->defaultAction()->text(), zh("octo::ui::PresenterPanel", "Undo Note Edit"));
    QVERIFY2(has_cjk(advisor->list()->topLevelItem(0)->text(1)), qPrintable(advisor->list()->topLevelItem(0)->text(1)));
    QVERIFY(has_cjk(advisor->list()->headerItem()->text(1)));
    screenshot(w, QStringLiteral("runtime-zh.png"));

    action_named(w, "language_en")->trigger();
    QTRY_VERIFY2(menu_bar_action(w, QStringLiteral("&Run")), "the menu bar is not English again");
    for (const auto& [context, menu] : kMenus) QVERIFY2(menu_bar_action(w, QString::fromUtf8(menu)), menu);
    QCOMPARE(advisor_dock->windowTitle(), QStringLiteral("Advisor"));
    QCOMPARE(run_button->text(), QStringLiteral("Ru&n"));
    QCOMPARE(heatmap->xAxis->label(), QStringLiteral("head (subsystem)"));
    QCOMPARE(note_undo->defaultAction()->text(), QStringLiteral("Undo Note Edit"));
    QCOMPARE(advisor->list()->topLevelItem(0)->text(1), first_finding);
    screenshot(w, QStringLiteral("runtime-en.png"));
}

// Alt+R opens the Run menu, in English and in Chinese (运行(&R)): no button of the window takes it.
// Chinese is reached as a user does, through View → Language in a window started in English.
void TestTranslations::altROpensTheRunMenu() {
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QVERIFY(install_translations(QStringLiteral("en")));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        action_named(w, qPrintable(QStringLiteral("language_") + language))->trigger();
        const QString title = language == QLatin1String("en")
                                  ? QStringLiteral("&Run")
                                  : ts_table().at(QStringLiteral("octo::ui::RunMenu")).at(QStringLiteral("&Run"));
        QTRY_VERIFY(menu_bar_action(w, title));
        QMenu* run = menu_bar_action(w, title)->menu();
        QVERIFY(!run->isVisible());
        QTest::keyClick(&w, Qt::Key_R, Qt::AltModifier);
        QTRY_VERIFY2(run->isVisible(), qPrintable(language + QStringLiteral(": Alt+R did not open the Run menu")));
        run->close();
    }
}

// No two items of a menu share an access key, and no two of the menu bar's titles and the
// window's buttons: in English, and in Chinese after switching at run time.
void TestTranslations::accessKeysAreUniqueInBothLanguages() {
    MainWindow w;
    w.show();
    QStringList duplicates = access_key_duplicates(w);
    QVERIFY2(duplicates.isEmpty(), qPrintable(QStringLiteral("English: ") + duplicates.join(QStringLiteral("; "))));
    QVERIFY(access_key(menu_bar_action(w, QStringLiteral("&Run"))->text()) == QChar(u'r')); // Alt+R is the Run menu's
    action_named(w, "language_zh_CN")->trigger();
    QTRY_VERIFY(!menu_bar_action(w, QStringLiteral("&Run")));
    duplicates = access_key_duplicates(w);
    QVERIFY2(duplicates.isEmpty(), qPrintable(QStringLiteral("Chinese: ") + duplicates.join(QStringLiteral("; "))));
    QVERIFY(menu_bar_action(w, ts_table().at(QStringLiteral("octo::ui::RunMenu")).at(QStringLiteral("&Run"))));
    QVERIFY(access_key(ts_table().at(QStringLiteral("octo::ui::RunMenu")).at(QStringLiteral("&Run"))) == QChar(u'r'));
    // The check itself finds a clash: a button that takes Alt+R.
    auto* clash = new QPushButton(QStringLiteral("&Robot"), w.centralWidget());
    QVERIFY(!access_key_duplicates(w).isEmpty());
    delete clash;
}

// Under zh_CN the advisor's findings (title, explanation) are the rule file's Chinese texts.
void TestTranslations::advisorFindingsInChinese() {
    const auto rules = rule_texts();
    QVERIFY(rules.size() > 10);
    QVERIFY(install_translations(QStringLiteral("zh_CN")));
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    auto* advisor = part<AdvisorPanel>(w);
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("Give me the latest news as json."));
    QTRY_VERIFY(advisor->findings().size() >= 2);
    advisor->setOutput(QStringLiteral("What is 20% of 300?"), QStringLiteral("0.2 * 300 = 50."));
    QVERIFY(std::any_of(advisor->findings().begin(), advisor->findings().end(),
                        [](const Finding& f) { return f.place == FindingPlace::Output; }));
    for (int i = 0; i < advisor->list()->topLevelItemCount(); ++i) {
        const auto& f = advisor->findings()[static_cast<size_t>(i)];
        const RuleTexts& r = rules.at(QString::fromStdString(f.rule));
        QTreeWidgetItem* item = advisor->list()->topLevelItem(i);
        QCOMPARE(item->text(1), r.title_zh);
        QVERIFY(has_cjk(item->text(2)) && has_cjk(item->text(4))); // "in" and "source" too
        advisor->list()->setCurrentItem(item);
        const QString details = w.findChild<QLabel*>(QStringLiteral("advisorDetails"))->text();
        QVERIFY2(details.contains(r.explanation_zh.toHtmlEscaped()), qPrintable(details));
        QVERIFY2(!details.contains(r.title_en.toHtmlEscaped()) && !details.contains(r.explanation_en.toHtmlEscaped()), qPrintable(details));
    }
}

// Metric names are shown as translated labels (never the engine's ids such as "norm_share"): in
// the Colour by list and on the tokens × subsystems colour scale.
void TestTranslations::metricLabelsAreTranslated() {
    const auto table = ts_table();
    const auto& labels = table.at(QStringLiteral("Metric"));
    QCOMPARE(labels.size(), std::size(kAllMetrics));
    for (const char* language : {"en", "zh_CN"}) {
        QVERIFY(install_translations(QString::fromLatin1(language)));
        MainWindow w;
        QComboBox* box = part<SwitchesPanel>(w)->metricBox();
        QVERIFY(box->count() >= 3);
        for (int i = 0; i < box->count(); ++i) {
            const Metric m = static_cast<Metric>(box->itemData(i).toInt());
            QCOMPARE(box->itemText(i), metric_label(m));
            QVERIFY2(box->itemText(i) != QString::fromUtf8(metric_name(m)), metric_name(m));
            QVERIFY2(!box->itemText(i).contains(QLatin1Char('_')), qPrintable(box->itemText(i)));
            if (QLatin1String(language) == QLatin1String("zh_CN")) {
                QVERIFY2(has_cjk(box->itemText(i)), qPrintable(box->itemText(i)));
            }
        }
    }
    for (Metric m : kAllMetrics) {
        QVERIFY(install_translations(QStringLiteral("en")));
        const QString english = metric_label(m);
        QVERIFY(install_translations(QStringLiteral("zh_CN")));
        QCOMPARE(metric_label(m), labels.at(english));
        QVERIFY(has_cjk(metric_label(m)));
    }
}

void TestTranslations::langOptionStartsTheGuiInChinese() {
    SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    spec.context_length = 256;
    const QString model = dir_.filePath(QStringLiteral("small.gguf"));
    QVERIFY(write_synthetic_model(model, spec));

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));
    QProcess bad;
    bad.setProcessEnvironment(env);
    bad.start(QStringLiteral(OCTOSCOPE_GUI_PATH), {"--lang", "xx"});
    QVERIFY(bad.waitForFinished(30000));
    QCOMPARE(bad.exitCode(), 2);

    const QString png = dir_.filePath(QStringLiteral("zh.png"));
    QProcess gui;
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(OCTOSCOPE_GUI_PATH),
              {"--lang", "zh_CN", "--model", model, "--prompt", "Hello", "--max-tokens", "8", "--screenshot", png});
    QVERIFY(gui.waitForFinished(120000));
    QCOMPARE(gui.exitCode(), 0);
    QCOMPARE(QImage(png).size(), QSize(1280, 800)); // the Chinese window fits 1280 × 800
}

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
