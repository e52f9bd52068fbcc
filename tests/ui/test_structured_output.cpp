// Structured output in the workbench (docs/structured-output.md): the Output setting (free text,
// JSON object, JSON Schema, GBNF grammar) goes into the run's settings, comes back from history
// and from the remembered settings; the schema dialog refuses what it cannot enforce and stays
// open; a constrained run of the built-in octet model answers a document of the schema, and the
// token stream marks the steps where the constraint bent the model, its tooltip saying how much,
// what the model wanted instead and (with DLA) which groups pulled toward it. With
// OCTOSCOPE_SCREENSHOT_DIR set, the window is saved there as structured-output.png at 1366 × 768.
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "ui/controllers/advisor_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/main_window.h"
#include "ui/panels/advisor_panel.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/structured_output_dialog.h"
#include "ui/views/compare_view.h"
#include "ui/views/token_chips.h"
#include "ui/views/token_stream_view.h"
#include "engine/grammar/json_schema.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");
const char* const kSchema =
    R"({"type": "object", "properties": {"animal": {"enum": ["hedgehog", "otter"]}, "legs": {"type": "integer", "minimum": 0, "maximum": 8}},
        "required": ["animal", "legs"], "additionalProperties": false})";

bool load(MainWindow& w) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(kOctet);
    return loaded.wait(30000);
}

bool submitAndWait(MainWindow& w, const RunSpec& spec) {
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(spec);
    return settled.wait(60000);
}

} // namespace

class TestStructuredOutput : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void settingGoesIntoTheRunAndComesBack();
    void theSchemaDialogRefusesWhatItCannotEnforce();
    void aConstrainedRunIsMarkedWhereTheSchemaBentIt();
    void theAdvisorReadsTheBentStepsAndComparesWithAConstrainedRun();
};

void TestStructuredOutput::settingGoesIntoTheRunAndComesBack() {
    PromptPanel panel;
    QCOMPARE(panel.outputBox()->currentIndex(), 0);
    QVERIFY2(panel.spec().grammar.empty(), "free text by default");

    RunSpec s = panel.spec();
    s.json_schema = kSchema;
    panel.restore(s);
    QCOMPARE(panel.outputBox()->currentIndex(), 2);
    const RunSpec schema = panel.spec();
    QCOMPARE(schema.json_schema, std::string(kSchema));
    QCOMPARE(schema.grammar, json_schema_to_gbnf(kSchema).value()); // the schema compiled for the engine

    s.json_schema = std::string(kJsonObjectSchema);
    panel.restore(s);
    QCOMPARE(panel.outputBox()->currentIndex(), 1);
    QCOMPARE(panel.spec().grammar, json_object_gbnf());

    s.json_schema.clear();
    s.grammar = "root ::= [0-9]+";
    panel.restore(s);
    QCOMPARE(panel.outputBox()->currentIndex(), 3);
    QCOMPARE(panel.spec().grammar, std::string("root ::= [0-9]+"));

    // Remembered across sessions.
    QTemporaryDir dir;
    {
        QSettings st(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        s.grammar.clear();
        s.json_schema = kSchema;
        panel.restore(s);
        panel.save(st);
    }
    PromptPanel again;
    QSettings st(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    again.load(st);
    QCOMPARE(again.outputBox()->currentIndex(), 2);
    QCOMPARE(again.spec().json_schema, std::string(kSchema));
}

void TestStructuredOutput::theSchemaDialogRefusesWhatItCannotEnforce() {
    StructuredOutputDialog d(StructuredOutputDialog::Kind::JsonSchema, QStringLiteral(R"({"type": "array", "uniqueItems": true})"));
    d.show();
    d.accept();
    QVERIFY2(d.isVisible(), "stays open");
    QCOMPARE(d.result(), int(QDialog::Rejected));
    auto* error = d.findChild<QLabel*>(QStringLiteral("structuredOutputError"));
    QVERIFY(error && error->isVisible());
    QVERIFY(error->text().contains(QStringLiteral("/uniqueItems")));
    d.findChild<QPlainTextEdit*>(QStringLiteral("structuredOutputText"))->setPlainText(QString::fromUtf8(kSchema));
    d.accept();
    QCOMPARE(d.result(), int(QDialog::Accepted));

    StructuredOutputDialog g(StructuredOutputDialog::Kind::Grammar, QStringLiteral("root ::= missing"));
    g.show();
    g.accept();
    QVERIFY(g.isVisible());
    QVERIFY(g.findChild<QLabel*>(QStringLiteral("structuredOutputError"))->text().contains(QStringLiteral("missing")));
}

void TestStructuredOutput::aConstrainedRunIsMarkedWhereTheSchemaBentIt() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w));
    PromptPanel* panel = part<PromptPanel>(w);
    panel->editor()->setPlainText(QStringLiteral("Add 17 and 26."));
    RunSpec s = panel->spec();
    s.json_schema = kSchema;
    s.max_tokens = 40;
    s.dla = true;
    panel->restore(s);
    QVERIFY(submitAndWait(w, w.runs().editorSpec()));
    const RunRecord* run = w.store().current();
    QVERIFY(run);
    const auto doc = nlohmann::json::parse(run->generated_text().toStdString(), nullptr, false);
    QVERIFY2(doc.is_object(), qPrintable(run->generated_text()));
    QVERIFY(doc["animal"] == "hedgehog" || doc["animal"] == "otter");
    QVERIFY(doc["legs"].is_number_integer());
    QCOMPARE(run->trace.spec.json_schema, std::string(kSchema)); // recorded with the run

    TokenStreamView* stream = part<TokenStreamView>(w);
    int bent = -1;
    for (size_t i = 0; i < stream->chips().size(); ++i) {
        if (chip_constraint(run->tokens(), stream->chips()[i]).removed_mass >= kBentMass) {
            bent = static_cast<int>(i);
            break;
        }
    }
    QVERIFY2(bent >= 0, "an arithmetic prompt does not lead to a hedgehog by itself: some step was bent");
    const QString tip = stream->tooltip(bent);
    QVERIFY2(tip.contains(QStringLiteral("the constraint removed")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("the model wanted:")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("(DLA)")), qPrintable(tip));
    int free_chip = -1; // a prompt chip: no constraint there
    for (size_t i = 0; i < stream->chips().size(); ++i) {
        if (!stream->chips()[i].generated) free_chip = static_cast<int>(i);
    }
    QVERIFY(free_chip >= 0);
    QVERIFY(!stream->tooltip(free_chip).contains(QStringLiteral("constraint removed")));

    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QApplication::processEvents();
        QVERIFY(w.exportScreenshot(dir + QStringLiteral("/structured-output.png")));
    }
}

// After a constrained run the advisor names where the schema bent the model and what it wanted
// (rte-g.constraint_bent); "Constrained A/B" then runs A = the prompt with the
// rewrite's schema, free, against B = the prompt as it was, constrained to the schema of the fields
// it asks for.
void TestStructuredOutput::theAdvisorReadsTheBentStepsAndComparesWithAConstrainedRun() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w));
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    PromptPanel* panel = part<PromptPanel>(w);
    const QString prompt = QStringLiteral("Give me the name and age of Alice.");
    panel->editor()->setPlainText(prompt);
    RunSpec s = panel->spec();
    s.json_schema = kSchema;
    s.max_tokens = 40;
    panel->restore(s);
    AdvisorPanel* advisor = part<AdvisorPanel>(w);
    QVERIFY(submitAndWait(w, w.runs().editorSpec()));
    int row = -1;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 for (size_t i = 0; i < advisor->findings().size(); ++i) {
                                     if (advisor->findings()[i].rule == "rte-g.constraint_bent") row = static_cast<int>(i);
                                 }
                                 return row >= 0;
                             }()),
                             5000);
    const Finding& bent = advisor->findings()[static_cast<size_t>(row)];
    QCOMPARE(bent.place, FindingPlace::Output);
    QVERIFY2(QString::fromStdString(bent.detail.en).contains(QStringLiteral("the model wanted")), bent.detail.en.c_str());
    auto* constrained = advisor->findChild<QPushButton*>(QStringLiteral("advisorConstrainedCompare"));
    QVERIFY(constrained);
    advisor->list()->setCurrentItem(advisor->list()->topLevelItem(row));
    QVERIFY(constrained->isEnabled());

    QSignalSpy compared(w.advisorController(), &AdvisorController::compared);
    constrained->click();
    QVERIFY(compared.wait(60000));
    const auto& c = part<CompareView>(w)->comparison();
    QVERIFY(c.has_value());
    const RunRecord* b = w.store().current();
    QVERIFY(b);
    QCOMPARE(QString::fromStdString(b->trace.spec.prompt), prompt);
    const auto schema = nlohmann::json::parse(b->trace.spec.json_schema, nullptr, false);
    QVERIFY2(schema.is_object() && schema["properties"].contains("name") && schema["properties"].contains("age"), b->trace.spec.json_schema.c_str());
    QCOMPARE(schema["properties"]["age"]["type"], "number");
    const auto doc = nlohmann::json::parse(b->generated_text().toStdString(), nullptr, false);
    QVERIFY2(doc.is_object() && doc.contains("name") && doc.contains("age"), qPrintable(b->generated_text()));
    QVERIFY2(part<CompareView>(w)->sideA()->toPlainText().contains(QStringLiteral("exactly in this schema")),
             qPrintable(part<CompareView>(w)->sideA()->toPlainText()));
    QVERIFY2(part<CompareView>(w)->summary().contains(QStringLiteral("constrained")), qPrintable(part<CompareView>(w)->summary()));
    QCOMPARE(panel->editor()->toPlainText(), prompt); // the editor is left as it was
    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        w.showPanel(QStringLiteral("advisor"));
        QApplication::processEvents();
        QVERIFY(w.exportScreenshot(dir + QStringLiteral("/advisor-constrained-compare.png")));
    }
}

QTEST_MAIN(TestStructuredOutput)
#include "test_structured_output.moc"
