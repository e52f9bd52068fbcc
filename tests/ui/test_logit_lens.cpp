// The logit lens view (docs/workbench.md, "Logit lens"): with its dock shown, selecting a token of
// a run of the built-in octet model computes, on the engine thread, what each layer predicted at
// the position before it; one row per layer, the last row the model's own choice (rank 1 for a
// greedy token, the same token on top); the top-k size is remembered and a smaller one needs no
// new computation; the first token and runs it cannot read say why. "By head group" adds each head
// group's direct part per layer, checked against the run's own DLA shares. With OCTOSCOPE_SCREENSHOT_DIR
// set, the window is saved there as logit-lens.png at 1366 × 768.
#include <QCheckBox>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include "ui/controllers/run_controller.h"
#include "ui/dock_layout.h"
#include "ui/main_window.h"
#include "ui/session/capture_record.h"
#include "ui/panels/prompt_panel.h"
#include "ui/views/lens_groups_plot.h"
#include "ui/views/logit_lens_view.h"
#include "ui/support/plot.h"
#include "ui/views/token_chips.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");

bool load(MainWindow& w) { return test::load_model(w, kOctet); }

bool run(MainWindow& w, const QString& prompt) {
    part<PromptPanel>(w)->editor()->setPlainText(prompt);
    RunSpec s = w.runs().editorSpec();
    s.max_tokens = 4;
    s.sampling.temperature = 0.0f;
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(s);
    return settled.wait(60000);
}

} // namespace

class TestLogitLens : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }
    void eachLayerPredictsTheSelectedToken();
    void eachHeadGroupsDirectPart();
};

void TestLogitLens::eachLayerPredictsTheSelectedToken() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w));
    QVERIFY(run(w, QStringLiteral("What is the capital of France?")));
    const RunRecord* r = w.store().current();
    QVERIFY(r && r->n_generated() >= 1);
    QVERIFY(show_dock(w, QStringLiteral("lens")));
    LogitLensView* view = part<LogitLensView>(w);
    QTRY_VERIFY(view->isVisible());
    const int n_layer = static_cast<int>(w.store().model()->n_layer);

    // The first generated token: computed on demand, one row per layer.
    const int t = static_cast<int>(r->n_prompt());
    w.store().select_token(t);
    QTRY_COMPARE_WITH_TIMEOUT(view->table()->rowCount(), n_layer, 30000);
    QCOMPARE(view->table()->columnCount(), 2 + LogitLensView::kDefaultK);
    const QString chosen = QStringLiteral("“%1”").arg(token_display_text(r->tokens()[static_cast<size_t>(t)].bytes));
    QVERIFY2(view->message().contains(chosen), qPrintable(view->message()));
    const int last = n_layer - 1;
    QVERIFY2(view->table()->item(last, 1)->text().startsWith(QStringLiteral("1 · ")), qPrintable(view->table()->item(last, 1)->text()));
    QVERIFY2(view->table()->item(last, 2)->text().startsWith(chosen), qPrintable(view->table()->item(last, 2)->text()));
    QVERIFY(view->table()->item(last, 2)->font().bold());
    QVERIFY(r->lenses.contains(t - 1));
    test::screenshot(w, QStringLiteral("logit-lens.png"));

    // Fewer tokens per layer: shown from what was computed, nothing asked again (remembered).
    view->findChild<QSpinBox*>(QStringLiteral("lensK"))->setValue(2);
    QCOMPARE(view->table()->columnCount(), 4);
    QVERIFY(!w.store().lens_pending());
    QCOMPARE(QSettings().value(QStringLiteral("lens/k")).toInt(), 2);

    // A prompt token: the position before it.
    w.store().select_token(3);
    QTRY_COMPARE_WITH_TIMEOUT(view->table()->rowCount(), n_layer, 30000);
    QVERIFY(r->lenses.contains(2));
    // Kept in a capture of the run: opened, the lens shows without the engine computing it.
    CaptureContext context;
    context.model = static_cast<const ModelDescription&>(*w.store().model());
    context.head_map = w.store().model()->head_map;
    RunRecord reopened = record_of_capture(capture_of_record(*r, context), QStringLiteral("/tmp/lens.octo"));
    QCOMPARE(reopened.lenses.size(), r->lenses.size());
    w.store().add_run(std::move(reopened));
    w.store().select_token(t);
    QCOMPARE(view->table()->rowCount(), n_layer);
    QVERIFY(!w.store().lens_pending());
    // The first token has nothing before it.
    w.store().select_token(0);
    QCOMPARE(view->table()->rowCount(), 0);
    QVERIFY2(view->message().contains(QStringLiteral("first token")), qPrintable(view->message()));
}

// "By head group": each group's summed DLA per layer toward the token; its mean per head over the
// layers, positive part normalised, is the run's own DLA share of that token (computed by the
// engine's metrics, not from this plot's numbers). Without DLA the plot says how to get it.
void TestLogitLens::eachHeadGroupsDirectPart() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w));
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("What is the capital of France?"));
    RunSpec s = w.runs().editorSpec();
    s.max_tokens = 4;
    s.dla = true;
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(s);
    QVERIFY(settled.wait(60000));
    QVERIFY(show_dock(w, QStringLiteral("lens")));
    LogitLensView* view = part<LogitLensView>(w);
    auto* by_group = view->findChild<QCheckBox*>(QStringLiteral("lensByGroup"));
    QVERIFY(by_group);
    by_group->setChecked(true);
    QCOMPARE(QSettings().value(QStringLiteral("lens/groups")).toBool(), true);
    const RunRecord* r = w.store().current();
    const int t = static_cast<int>(r->n_prompt()) + 1; // a generated token
    w.store().select_token(t);
    QVERIFY(!view->groups()->plot()->hasNoData());
    QTRY_COMPARE_WITH_TIMEOUT(view->table()->rowCount(), static_cast<int>(w.store().model()->n_layer), 30000);
    test::screenshot(w, QStringLiteral("lens-groups.png"));
    const HeadMap& map = *w.store().model()->head_map;
    const auto v = lens_group_logits(*r, t, map);
    QVERIFY(v.has_value());
    const int n_layer = static_cast<int>(map.n_layer());
    std::array<double, 8> mean{}, heads{};
    for (int l = 0; l < n_layer; ++l) {
        for (int g = 0; g < 8; ++g) {
            mean[static_cast<size_t>(g)] += (*v)[static_cast<size_t>(l * 8 + g)];
            heads[static_cast<size_t>(g)] += static_cast<double>(map.heads_of(g, l).size());
        }
    }
    double positive = 0.0;
    for (int g = 0; g < 8; ++g) {
        if (heads[static_cast<size_t>(g)] > 0) mean[static_cast<size_t>(g)] /= heads[static_cast<size_t>(g)];
        positive += std::max(0.0, mean[static_cast<size_t>(g)]);
    }
    QVERIFY(positive > 0.0);
    const auto& share = r->tokens()[static_cast<size_t>(t)].metrics.dla;
    QVERIFY(share.has_value());
    for (int g = 0; g < 8; ++g) {
        QVERIFY2(std::abs(std::max(0.0, mean[static_cast<size_t>(g)]) / positive - (*share)[static_cast<size_t>(g)]) < 1e-4,
                 qPrintable(QStringLiteral("group %1").arg(g)));
    }
    // A run without DLA: nothing to show, and the plot says how to get it.
    s.dla = false;
    w.runs().submit(s);
    QVERIFY(settled.wait(60000));
    w.store().select_token(static_cast<int>(w.store().current()->n_prompt()) + 1);
    QVERIFY(view->groups()->plot()->hasNoData());
    QVERIFY(view->groups()->plot()->noDataMessage().contains(QStringLiteral("DLA")));
}

QTEST_MAIN(TestLogitLens)
#include "test_logit_lens.moc"
