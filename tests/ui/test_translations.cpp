// The Chinese translation (resources/translations/octoscope_zh_CN.ts) and the language choice:
// every message is translated with its placeholders kept, the .ts covers every tr() string in
// the sources (lupdate finds nothing new), the main window built in zh_CN shows the .ts's
// strings, subsystem names are seed-digest's, English stays the default, and `octoscope --lang`
// starts the GUI in a language. Expected texts are read from the .ts and seed-digest.md, never
// from the code under test.
#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <map>
#include <set>

#include "engine/model/synthetic_model.h"
#include "ui/support/language.h"
#include "ui/main_window.h"
#include "ui/support/subsystem_palette.h" // subsystem_name
#include "ui/panels/switches_panel.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

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
const char* const kMenus[] = {"&File", "&Run", "&Model", "&View", "&Help"};
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
    const auto& menus = table.at(QStringLiteral("octo::ui::MainMenus"));
    const auto& docks = table.at(QStringLiteral("octo::ui::DockLayout"));
    QVERIFY(install_translations(QStringLiteral("zh_CN")));
    QCOMPARE(installed_language(), QStringLiteral("zh_CN"));
    MainWindow w;
    w.show();
    for (const char* menu : kMenus) {
        const QString expected = menus.at(QString::fromUtf8(menu));
        QVERIFY(expected != QString::fromUtf8(menu));
        QVERIFY2(menu_bar_action(w, expected), qPrintable(QStringLiteral("no menu ") + expected));
    }
    for (const auto& [name, title] : kDocks) {
        auto* dock = w.findChild<QDockWidget*>(QString::fromUtf8(name));
        QVERIFY2(dock, name);
        QCOMPARE(dock->windowTitle(), docks.at(QString::fromUtf8(title)));
    }
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
    for (const char* menu : kMenus) QVERIFY2(menu_bar_action(w, QString::fromUtf8(menu)), menu);
    for (const auto& [name, title] : kDocks) {
        QCOMPARE(w.findChild<QDockWidget*>(QString::fromUtf8(name))->windowTitle(), QString::fromUtf8(title));
    }
    QCOMPARE(part<SwitchesPanel>(w)->findChild<QCheckBox*>(QStringLiteral("rte-c"))->text(), QStringLiteral("rte-c"));
    QVERIFY(part<SwitchesPanel>(w)->findChild<QCheckBox*>(QStringLiteral("rte-c"))->toolTip().startsWith(QStringLiteral("Numerical reasoning")));

}

void TestTranslations::languageMenuRemembersTheChoice() {
    MainWindow w;
    w.show();
    auto* system = w.findChild<QAction*>(QStringLiteral("language_system"));
    auto* chinese = w.findChild<QAction*>(QStringLiteral("language_zh_CN"));
    auto* english = w.findChild<QAction*>(QStringLiteral("language_en"));
    QVERIFY(system && chinese && english);
    QVERIFY(system->isChecked());
    chinese->trigger();
    QCOMPARE(saved_language_choice(), QStringLiteral("zh_CN"));
    QVERIFY(chinese->isChecked() && !system->isChecked());
    QTRY_VERIFY(QApplication::activeModalWidget() != nullptr); // "applies from the next start"
    QApplication::activeModalWidget()->close();
    english->trigger(); // the language in use: nothing to announce
    QCOMPARE(saved_language_choice(), QStringLiteral("en"));
    QTest::qWait(50);
    QVERIFY(QApplication::activeModalWidget() == nullptr);
    MainWindow again; // a new window shows the saved choice
    QVERIFY(again.findChild<QAction*>(QStringLiteral("language_en"))->isChecked());
}

void TestTranslations::langOptionStartsTheGuiInChinese() {
    SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    spec.context_length = 256;
    const auto bytes = make_synthetic_model(spec).value();
    const QString model = dir_.filePath(QStringLiteral("small.gguf"));
    QFile f(model);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()));
    f.close();

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
