// Linked views (docs/workbench.md, "Linked views"): one focus (layer, head, expert), one hover and
// one token-axis zoom shared by every view, on a run of the built-in octet model. Clicking a cell
// of layers × heads focuses that head: the heatmap frames it, the attention view turns to its
// layer and frames its row, the logit lens marks the layer; a row of the lens focuses its layer.
// The pointer over a token of one plot is framed in the others; zooming one token plot zooms
// the others and survives new data; View → Reset Linked Views clears it all. A conversation's
// selected turn tints its positions in the plots over positions. With
// OCTOSCOPE_SCREENSHOT_DIR set, the window is saved as linked-views.png.
#include <QAction>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include "ui/controllers/conversation_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/dock_layout.h"
#include "ui/main_window.h"
#include "ui/session/conversation_store.h"
#include "ui/workbench.h"
#include "ui/views/attention_view.h"
#include "ui/views/head_heatmap_view.h"
#include "ui/views/latency_view.h"
#include "ui/views/linked_views.h"
#include "ui/views/logit_lens_view.h"
#include "ui/views/subsystem_strip_view.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");

QPoint pixel(const Plot& p, double x, double y) {
    return QPoint(static_cast<int>(std::lround(p.xAxis->coordToPixel(x))), static_cast<int>(std::lround(p.yAxis->coordToPixel(y))));
}

Plot* plot_named(const QWidget& w, const char* name) { return w.findChild<Plot*>(QString::fromLatin1(name)); }

QAction* action_named(const QMainWindow& w, const QString& text) {
    for (QAction* menu : w.menuBar()->actions()) {
        for (QAction* a : menu->menu()->actions()) {
            if (a->text() == text) return a;
        }
    }
    return nullptr;
}

} // namespace

class TestLinkedViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }
    void oneFocusOneHoverOneZoom();
    void aSelectedTurnIsTintedOverPositions();
};

void TestLinkedViews::oneFocusOneHoverOneZoom() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(test::load_model(w, kOctet));
    RunSpec s = w.runs().editorSpec();
    s.prompt = "What is the capital of France?";
    s.max_tokens = 6;
    s.record_attention = true;
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(s);
    QVERIFY(settled.wait(60000));
    RunStore& store = w.store();
    const RunRecord* r = store.current();
    QVERIFY(r && r->n_generated() >= 2);
    const int n = static_cast<int>(r->tokens().size());
    store.select_token(n - 1);
    for (const char* dock : {"heatmap", "attention", "strip", "latency"}) QVERIFY(show_dock(w, QString::fromLatin1(dock)));
    QVERIFY(show_dock(w, QStringLiteral("lens")));
    QApplication::processEvents();
    Plot* heat = part<HeadHeatmapView>(w)->plot();
    Plot* attention = part<AttentionView>(w)->plot();
    Plot* strip = plot_named(w, "subsystemStripPlot");
    Plot* latency = plot_named(w, "latencyPlot");
    QVERIFY(strip && latency);
    const int n_layer = static_cast<int>(store.model()->n_layer), n_head = static_cast<int>(store.model()->n_head);
    QVERIFY(n_layer >= 2 && n_head >= 2);

    // A click on layers × heads focuses the head; every view with layers follows.
    QVERIFY(show_dock(w, QStringLiteral("heatmap")));
    QApplication::processEvents();
    const int layer = n_layer - 1, head = 1;
    QTest::mouseClick(heat, Qt::LeftButton, Qt::NoModifier, pixel(*heat, head, layer));
    QCOMPARE(store.focus(), (RunStore::Focus{.layer = layer, .head = head}));
    QVERIFY(heat->marks().selected == cell_span(head, layer));
    auto* layer_box = part<AttentionView>(w)->findChild<QSpinBox*>();
    QVERIFY(layer_box);
    QCOMPARE(layer_box->value(), layer);
    QVERIFY(attention->marks().selected.has_value());
    QCOMPARE(attention->marks().selected->y0, head - 0.5);
    QVERIFY(show_dock(w, QStringLiteral("lens")));
    QTableWidget* lens = part<LogitLensView>(w)->table();
    QTRY_COMPARE_WITH_TIMEOUT(lens->rowCount(), n_layer, 30000);
    QCOMPARE(lens->item(layer, 0)->text(), QStringLiteral("▶ %1").arg(layer));
    QCOMPARE(lens->item(0, 0)->text(), QStringLiteral("0"));
    // A lens row focuses its layer (the head is dropped: it was another layer's).
    emit lens->cellClicked(0, 1);
    QCOMPARE(store.focus(), (RunStore::Focus{.layer = 0}));
    QVERIFY(heat->marks().selected == row_span(0, -0.5, n_head - 0.5));
    QCOMPARE(layer_box->value(), 0);

    // The pointer over a token of the strip: framed in attention and latency, and on its chip.
    QVERIFY(show_dock(w, QStringLiteral("strip")));
    QApplication::processEvents();
    const int t = n - 2; // generated, and a position the last token's attention reads
    QTest::mouseMove(strip, pixel(*strip, t, 3));
    QTRY_COMPARE(store.hover().token, t);
    QVERIFY(latency->marks().hovered == column_span(t - static_cast<int>(r->n_prompt())));
    QVERIFY(attention->marks().hovered == column_span(t));
    QVERIFY(strip->marks().hovered == column_span(t));
    // A click on the strip selects the token.
    QTest::mouseClick(strip, Qt::LeftButton, Qt::NoModifier, pixel(*strip, 2, 3));
    QCOMPARE(store.selected_token(), 2);
    QVERIFY(latency->marks().selected == std::nullopt); // a prompt token has no latency
    store.select_token(n - 1);

    // One zoom for the token axes: set on the strip as the user's wheel would, seen on attention.
    strip->xAxis->setRange(1.5, 4.5);
    QVERIFY(store.token_range().has_value());
    QCOMPARE(store.token_range()->first, 1.5);
    QCOMPARE(attention->xAxis->range().lower, 1.5);
    QCOMPARE(attention->xAxis->range().upper, 4.5);
    store.select_token(n - 2); // new data for the views: the shared zoom stays
    QCOMPARE(attention->xAxis->range().lower, 1.5);
    QCOMPARE(strip->xAxis->range().upper, 4.5);
    QVERIFY(show_dock(w, QStringLiteral("heatmap")));
    QTest::mouseMove(strip, pixel(*strip, 3, 3)); // a token hovered, framed in attention and latency
    QTRY_COMPARE(store.hover().token, 3);
    test::screenshot(w, QStringLiteral("linked-views.png"));

    // View → Reset Linked Views: no focus, no hover, every token axis back to its data.
    QAction* reset = action_named(w, QStringLiteral("Reset Lin&ked Views"));
    QVERIFY(reset);
    reset->trigger();
    QCOMPARE(store.focus(), RunStore::Focus{});
    QVERIFY(!store.token_range());
    QVERIFY(!heat->marks().selected);
    QVERIFY(strip->xAxis->range().lower < 0.0);
    QVERIFY(attention->xAxis->range().lower < 0.0);
    // A double click on one plot resets the shared zoom too.
    strip->xAxis->setRange(0.5, 2.5);
    QCOMPARE(attention->xAxis->range().upper, 2.5);
    strip->resetView();
    QVERIFY(!store.token_range());
    QVERIFY(attention->xAxis->range().upper > 2.5);
}

// The conversation's selected turn is part of the focus: the plots over positions tint its tokens.
void TestLinkedViews::aSelectedTurnIsTintedOverPositions() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(test::load_model(w, kOctet));
    ConversationController& conversation = w.workbench().conversationController();
    QVERIFY(conversation.open({{ChatRole::User, "What is the capital of France?"}}));
    for (int i = 0; i < 100 && conversation.busy(); ++i) QTest::qWait(100);
    QVERIFY(!conversation.busy());
    QVERIFY(show_dock(w, QStringLiteral("strip")));
    w.workbench().conversations().select_turn(0);
    QCOMPARE(w.store().focus().turn, 0);
    const RunRecord* r = w.store().current();
    QVERIFY(r);
    const auto band = turn_band(*r, 0);
    QVERIFY(band.has_value()); // the user's message is in the prompt octet reads
    QVERIFY(band->x1 - band->x0 >= 2.0);
    Plot* strip = plot_named(w, "subsystemStripPlot");
    QVERIFY(strip->marks().band == band);
    QVERIFY(part<AttentionView>(w)->plot()->marks().band == band || part<AttentionView>(w)->shownToken() < 0);
    w.workbench().conversations().select_turn(-1);
    QCOMPARE(w.store().focus().turn, -1);
    QVERIFY(!strip->marks().band);
}

QTEST_MAIN(TestLinkedViews)
#include "test_linked_views.moc"
