// The plot layer (ui/support/plot.h) and the layout rules every view follows, checked on the real
// window with octet and with a synthetic model that has no head map of its own: whole-number
// ticks on index and count axes, a "no data" state instead of invented axes, DLA's signed scale
// centred on 0, legends outside the data, hover readouts with token text, zoom and reset, the
// token tooltip's bars, group labels without a map's meaning, the window's minimum size, plot
// heights at 1366 × 768, the preset layouts and the View menu bringing a dock to the front.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QSlider>
#include <QToolButton>
#include <QTreeWidget>
#include <QStatusBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <QVBoxLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QScreen>

#include <cmath>

#include "engine/model/synthetic_model.h"
#include "tests/ui/window_parts.h"
#include "ui/controllers/run_controller.h"
#include "ui/panels/view_menu.h"
#include "ui/dock_layout.h"
#include "ui/main_window.h"
#include "ui/panels/advisor_panel.h"
#include "ui/panels/calibration_banner.h"
#include "ui/panels/first_start_hint.h"
#include "ui/panels/presenter_panel.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/switches_panel.h"
#include "ui/support/focus_ring.h"
#include "ui/support/plot.h"
#include "ui/support/status_message.h"
#include "ui/support/subsystem_palette.h"
#include "ui/views/attention_view.h"
#include "ui/views/compare_view.h"
#include "ui/views/head_heatmap_view.h"
#include "ui/views/kv_view.h"
#include "ui/views/latency_view.h"
#include "ui/views/subsystem_strip_view.h"
#include "ui/views/token_chips.h"
#include "ui/views/timeline_scrubber.h"
#include "ui/views/token_stream_view.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;
using octo::ui::test::write_synthetic_model;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");

bool whole(double v) { return std::fabs(v - std::round(v)) < 1e-9; }

// Every tick of `axis` as last drawn is a whole number and its label has no decimal point.
bool whole_ticks(QCPAxis* axis, QString* why) {
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 0; i < ticks.size(); ++i) {
        if (!whole(ticks[i]) || (i < labels.size() && labels[i].contains(QLatin1Char('.')))) {
            *why = QStringLiteral("tick %1 labelled '%2' on '%3'").arg(ticks[i]).arg(i < labels.size() ? labels[i] : QString(), axis->label());
            return false;
        }
    }
    return true;
}

} // namespace

class TestPlots : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void wholeNumberTickerNeverSplitsAUnit();
    void emptyViewsSayNoData();
    void runViewsHaveWholeTicksReadoutsAndReset();
    void dlaNotRecordedIsSaidAndSignedDlaIsDiverging();
    void tokenTooltipBarsGrowWithTheValue();
    void groupsWithoutAMapAreNotNamed();
    void groupsWithoutHeadsSaySo();
    void layoutFitsALaptop();
    void firstWindowFitsItsScreen();
    void groupLabelsNeverRunTogether();
    void colourByAndThePlotsAgreeAfterALoad();
    void docksNeedNoSidewaysScrollingAndRunIsInView();
    void presetsAndViewMenuBringDocksForward();
    void screenshotAtTheAskedSize();
    void keyboardTabLeavesThePromptAndEscCancels();
    void keyboardTabWalksThePromptPanelAsLaidOut();
    void statusErrorsFitOnOneLine();
    void wheelZoomsOnlyAFocusedPlot();
    void viewsAgreeOnTheShownToken();
    void layoutHoldsStillOnTheFirstRun();
    void keyboardFocusIsRingedAndWalksHeatmapCells();
    void attentionShowsEachHeadsSink();

private:
    bool load(MainWindow& w, const QString& path);
    bool run(MainWindow& w, const QString& prompt, int max_tokens, bool dla = false);

    QTemporaryDir dir_;
    QString synthetic_;
};

void TestPlots::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    spec.context_length = 256;
    synthetic_ = dir_.filePath("synthetic.gguf");
    QVERIFY(write_synthetic_model(synthetic_, spec));
}

bool TestPlots::load(MainWindow& w, const QString& path) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(path);
    return loaded.wait(30000);
}

bool TestPlots::run(MainWindow& w, const QString& prompt, int max_tokens, bool dla) {
    part<PromptPanel>(w)->editor()->setPlainText(prompt);
    RunSpec s = part<PromptPanel>(w)->spec();
    s.max_tokens = max_tokens;
    s.dla = dla;
    s.record_attention = true;
    part<PromptPanel>(w)->restore(s);
    QSignalSpy settled(&w, &MainWindow::runSettled);
    QTest::keyClick(part<PromptPanel>(w)->editor(), Qt::Key_Return, Qt::ControlModifier);
    return settled.wait(60000);
}

// gpt-oss: each head's sink weight is a column after the attended positions, labelled "sink",
// with its own readout; a head's weights and its sink add up to 1.
void TestPlots::attentionShowsEachHeadsSink() {
    const SyntheticModelSpec spec{.architecture = "gpt-oss", .n_embd = 256, .n_ff = 64, .n_head = 8, .n_head_kv = 2,
                                  .n_layer = 2, .head_dim = 32, .context_length = 128, .sliding_window = 4, .seed = 3,
                                  .n_expert = 4, .n_expert_used = 2, .n_ff_exp = 64, .router_spread = 1.0f};
    const QString path = dir_.filePath(QStringLiteral("gpt-oss.gguf"));
    QVERIFY(write_synthetic_model(path, spec));
    MainWindow w;
    w.show();
    QVERIFY(load(w, path));
    QVERIFY(run(w, QStringLiteral("Hello there"), 3));
    w.store().select_token(6);
    QApplication::processEvents();
    AttentionView* att = part<AttentionView>(w);
    QCOMPARE(att->shownToken(), 6);
    QVERIFY(!att->plot()->hasNoData());
    auto* map = qobject_cast<QCPColorMap*>(att->plot()->plottable(0));
    QVERIFY(map);
    const int seen = 7; // positions 0 … 6
    QCOMPARE(map->data()->keySize(), seen + 1);
    for (int h = 0; h < 8; ++h) {
        double sum = 0.0;
        for (int p = 0; p <= seen; ++p) sum += map->data()->cell(p, h);
        QVERIFY2(std::abs(sum - 1.0) < 1e-4, qPrintable(QString::number(sum)));
    }
    att->plot()->replot();
    QVERIFY2(att->plot()->xAxis->tickVectorLabels().contains(QStringLiteral("sink")),
             qPrintable(att->plot()->xAxis->tickVectorLabels().join(QLatin1Char('|'))));
    const QString sink = att->hoverText(seen, 2);
    QVERIFY2(sink.contains(QStringLiteral("→ sink")) && sink.contains(QString::number(map->data()->cell(seen, 2), 'f', 4)),
             qPrintable(sink));
    QVERIFY(att->hoverText(3, 2).contains(QStringLiteral("→ position 3")));
    QVERIFY(att->findChild<QLabel*>(QStringLiteral("attentionNote"))->text().contains(QStringLiteral("sink")));
    if (const QByteArray shot = qgetenv("OCTOSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        for (QWidget* p = att; p; p = p->parentWidget()) {
            if (auto* dock = qobject_cast<QDockWidget*>(p)) dock->raise();
        }
        QApplication::processEvents();
        w.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/attention-sinks.png"));
    }
    // A model without sinks has no such column.
    QVERIFY(load(w, synthetic_));
    QVERIFY(run(w, QStringLiteral("Hello there"), 3));
    w.store().select_token(6);
    QApplication::processEvents();
    QCOMPARE(qobject_cast<QCPColorMap*>(att->plot()->plottable(0))->data()->keySize(), seen);
}

void TestPlots::wholeNumberTickerNeverSplitsAUnit() {
    Plot plot(QStringLiteral("p"), nullptr);
    plot.resize(600, 300);
    plot.setWholeNumbers(plot.xAxis);
    plot.setWholeNumbers(plot.yAxis);
    plot.setHome(QCPRange(0, 1), QCPRange(0, 1));
    const QCPRange ranges[] = {{-0.5, 16.5}, {0, 3}, {-0.5, 2.5}, {0, 0.8}, {0, 1300}, {7.2, 7.9}};
    for (const QCPRange& r : ranges) {
        plot.xAxis->setRange(r);
        plot.yAxis->setRange(r);
        plot.replot();
        QString why;
        QVERIFY2(whole_ticks(plot.xAxis, &why), qPrintable(why));
        QVERIFY2(whole_ticks(plot.yAxis, &why), qPrintable(why));
    }
    // A plain QCustomPlot axis on the same range would tick at 2.5: the ticker is what prevents it.
    plot.xAxis->setRange(-0.5, 16.5);
    plot.replot();
    QVERIFY(plot.xAxis->tickVector().size() >= 3);
}

void TestPlots::emptyViewsSayNoData() {
    MainWindow w;
    w.show();
    QVERIFY(load(w, kOctet));
    QApplication::processEvents();
    for (Plot* p : {part<HeadHeatmapView>(w)->plot(), part<SubsystemStripView>(w)->plot(), part<KvView>(w)->plot(),
                    part<LatencyView>(w)->tokenPlot(), part<LatencyView>(w)->histogramPlot(), part<AttentionView>(w)->plot()}) {
        QVERIFY2(p->hasNoData(), qPrintable(p->objectName()));
        QVERIFY(!p->noDataMessage().isEmpty());
        QVERIFY(!p->xAxis->tickLabels()); // no invented 0–5 axes
        for (QCPAxis* axis : p->axisRect()->axes()) QVERIFY2(!axis->visible(), qPrintable(p->objectName())); // nor bare axis lines
        for (QCPLayoutElement* e : p->plotLayout()->elements(false)) {
            if (qobject_cast<QCPColorScale*>(e)) QVERIFY2(!e->visible(), qPrintable(p->objectName())); // no 0–6 colour bar
        }
    }
    // The A/B plots before any comparison: a message, not a solid-colour map.
    for (Plot* p : w.findChild<CompareView*>()->findChildren<Plot*>()) QVERIFY2(p->hasNoData(), qPrintable(p->objectName()));
    // The message is drawn: inside the empty heatmap's axis rect (no data, no grid) only its text
    // differs from the background.
    Plot* heat = part<HeadHeatmapView>(w)->plot();
    part<HeadHeatmapView>(w)->window()->findChild<QDockWidget*>(QStringLiteral("heatmapDock"))->raise();
    QApplication::processEvents();
    const QImage image = heat->grab().toImage();
    const QColor background = QApplication::palette().color(QPalette::Base);
    int text_pixels = 0;
    const QRect r = heat->axisRect()->rect().adjusted(4, 4, -4, -4);
    for (int y = r.top(); y < r.bottom(); ++y) {
        for (int x = r.left(); x < r.right(); ++x) {
            if (image.pixelColor(x, y) != background) ++text_pixels;
        }
    }
    QVERIFY2(text_pixels > 20, qPrintable(QString::number(text_pixels)));
}

void TestPlots::runViewsHaveWholeTicksReadoutsAndReset() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w, kOctet));
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 8));
    w.showPanel(QStringLiteral("attention"));
    for (const char* dock : {"kvDock", "latencyDock"}) {
        w.findChild<QDockWidget*>(QString::fromLatin1(dock))->raise();
        QApplication::processEvents();
    }
    const QList<Plot*> plots = w.findChildren<Plot*>();
    for (Plot* p : plots) p->replot();
    // Index and count axes: the strip's tokens, the KV pool's operations and blocks, the latency
    // plot's tokens, the histogram's counts.
    const std::pair<Plot*, QCPAxis*> integer_axes[] = {
        {part<SubsystemStripView>(w)->plot(), part<SubsystemStripView>(w)->plot()->xAxis},
        {part<KvView>(w)->plot(), part<KvView>(w)->plot()->xAxis},
        {part<KvView>(w)->plot(), part<KvView>(w)->plot()->yAxis},
        {part<LatencyView>(w)->tokenPlot(), part<LatencyView>(w)->tokenPlot()->xAxis},
        {part<LatencyView>(w)->histogramPlot(), part<LatencyView>(w)->histogramPlot()->yAxis},
    };
    for (const auto& [plot, axis] : integer_axes) {
        QVERIFY2(!plot->hasNoData(), qPrintable(plot->objectName()));
        QVERIFY(!axis->tickVector().isEmpty());
        QString why;
        QVERIFY2(whole_ticks(axis, &why), qPrintable(plot->objectName() + QStringLiteral(": ") + why));
    }
    // Heatmap axes: whole layers (text ticks at every layer index).
    QString why;
    QVERIFY2(whole_ticks(part<HeadHeatmapView>(w)->plot()->yAxis, &why), qPrintable(why));

    // The KV legend sits outside the data.
    Plot* kv = part<KvView>(w)->plot();
    QVERIFY(kv->legend->visible());
    QVERIFY(!kv->legend->outerRect().intersects(kv->axisRect()->rect()));

    // Hover readouts: layer, head, token text and value; the strip names the token; attention
    // names both positions by their text, and its axis carries the tokens' text.
    const RunRecord* r = w.store().current();
    QVERIFY(r);
    w.store().select_token(5);
    QApplication::processEvents();
    const QString cell = part<HeadHeatmapView>(w)->hoverText(2, 3);
    QVERIFY2(cell.contains(QStringLiteral("layer 2, head 3")) && cell.contains(QStringLiteral("rte-")), qPrintable(cell));
    QVERIFY2(cell.contains(QString::number(part<HeadHeatmapView>(w)->cell(2, 3), 'g', 4)), qPrintable(cell));
    const QString strip = part<SubsystemStripView>(w)->hoverText(1, 2);
    QVERIFY2(strip.contains(QStringLiteral("“What”")) && strip.contains(QStringLiteral("rte-c")), qPrintable(strip));
    AttentionView* att = part<AttentionView>(w);
    QVERIFY(!att->plot()->hasNoData());
    const QString a = att->hoverText(1, 0);
    QVERIFY2(a.contains(QStringLiteral("“What”")) && a.contains(QStringLiteral("weight")), qPrintable(a));
    att->plot()->replot();
    QVERIFY2(att->plot()->xAxis->tickVectorLabels().join(QLatin1Char(' ')).contains(QStringLiteral("What")),
             qPrintable(att->plot()->xAxis->tickVectorLabels().join(QLatin1Char('|'))));
    // The same readout reaches the tooltip from a pixel position.
    Plot* heat = part<HeadHeatmapView>(w)->plot();
    heat->replot();
    const QPointF pixel(heat->xAxis->coordToPixel(3), heat->yAxis->coordToPixel(2));
    QCOMPARE(heat->hoverTextAt(pixel), cell);

    // Zoom and pan, then reset.
    const QCPRange home = heat->xAxis->range();
    heat->xAxis->scaleRange(0.3);
    heat->xAxis->moveRange(1.0);
    QVERIFY(heat->xAxis->range() != home);
    QTest::keyClick(heat, Qt::Key_R);
    QCOMPARE(heat->xAxis->range().lower, home.lower);
    QCOMPARE(heat->xAxis->range().upper, home.upper);
}

void TestPlots::dlaNotRecordedIsSaidAndSignedDlaIsDiverging() {
    MainWindow w;
    w.show();
    QVERIFY(load(w, kOctet));
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 4, false));
    w.store().set_metric(Metric::Dla);
    QApplication::processEvents();
    Plot* heat = part<HeadHeatmapView>(w)->plot();
    QVERIFY(heat->hasNoData());
    QVERIFY2(heat->noDataMessage().contains(QStringLiteral("DLA was not recorded")), qPrintable(heat->noDataMessage()));
    QVERIFY(part<SubsystemStripView>(w)->plot()->hasNoData());

    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 4, true));
    w.store().set_metric(Metric::Dla);
    QApplication::processEvents();
    QVERIFY(!heat->hasNoData());
    auto* map = qobject_cast<QCPColorMap*>(heat->plottable(0));
    QVERIFY(map);
    QVERIFY(Plot::isDiverging(map));
    QCOMPARE(map->dataRange().lower, -map->dataRange().upper);
    // Zero maps to the middle of the scale, a neutral grey, not to a colour read as a middle value.
    const QRgb zero = map->gradient().color(0.0, map->dataRange());
    QVERIFY2(qAbs(qRed(zero) - qGreen(zero)) < 8 && qAbs(qGreen(zero) - qBlue(zero)) < 8 && qRed(zero) > 200, qPrintable(QString::number(zero, 16)));
    auto* strip_map = qobject_cast<QCPColorMap*>(part<SubsystemStripView>(w)->plot()->plottable(0));
    QVERIFY(Plot::isDiverging(strip_map));
    // Back to shares: a sequential 0–1 scale.
    w.store().set_metric(Metric::NormShare);
    QApplication::processEvents();
    QVERIFY(!Plot::isDiverging(strip_map));
    QCOMPARE(strip_map->dataRange().upper, 1.0);
}

void TestPlots::tokenTooltipBarsGrowWithTheValue() {
    MainWindow w;
    w.show();
    QVERIFY(load(w, kOctet));
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 4));
    TokenStreamView* view = part<TokenStreamView>(w);
    const RunRecord* r = w.store().current();
    const auto chips = make_chips(r->tokens());
    const int chip = static_cast<int>(chips.size()) - 2; // a generated chip
    const auto& values = *r->tokens()[static_cast<size_t>(chips[static_cast<size_t>(chip)].first)].metrics.get(w.store().metric());
    const QString html = view->tooltip(chip);
    // Each row: the coloured run of blocks has round(value × 20) blocks, in the subsystem's colour.
    for (int s = 0; s < 8; ++s) {
        const QRegularExpression row(QStringLiteral("<span style='color:%1'>(█*)</span>").arg(subsystem_color(s).name()));
        const QRegularExpressionMatch m = row.match(html);
        QVERIFY2(m.hasMatch(), qPrintable(html));
        QCOMPARE(m.captured(1).size(), static_cast<qsizetype>(std::lround(values[static_cast<size_t>(s)] * 20)));
    }
    // Alternatives are named by their text, bytes are written as hexadecimal.
    QVERIFY2(html.contains(QStringLiteral("0x")), qPrintable(html));
    QVERIFY2(!html.contains(QStringLiteral("alternatives: 1")), qPrintable(html));
    // A space is never a blank chip.
    for (const TokenChip& c : chips) QVERIFY(!c.text.trimmed().isEmpty());
}

// A 4-head model: the default map gives groups 4–7 no heads. Their switches are off-limits (and
// say why) and their rows in Tokens × subsystems say "no heads" instead of looking measured.
void TestPlots::groupsWithoutHeadsSaySo() {
    SyntheticModelSpec spec;
    spec.n_head = 4;
    spec.n_head_kv = 2;
    spec.context_length = 128;
    const QString path = dir_.filePath(QStringLiteral("four-heads.gguf"));
    QVERIFY(write_synthetic_model(path, spec));
    MainWindow w;
    w.show();
    QVERIFY(load(w, path));
    QVERIFY(run(w, QStringLiteral("Hello there"), 2));
    SwitchesPanel* switches = part<SwitchesPanel>(w);
    for (int g = 0; g < 8; ++g) {
        QCOMPARE(switches->toggle(g)->isEnabled(), g < 4);
        QVERIFY(switches->toggle(g)->isChecked());
        QCOMPARE(switches->toggle(g)->toolTip().contains(QStringLiteral("no heads")), g >= 4);
    }
    QVERIFY(w.runs().editorSpec().disabled == (std::array<bool, 8>{}));
    Plot* strip = part<SubsystemStripView>(w)->plot();
    strip->replot();
    const QStringList labels = strip->yAxis->tickVectorLabels();
    QCOMPARE(labels.size(), 8);
    for (int g = 0; g < 8; ++g) QCOMPARE(labels[g].contains(QStringLiteral("no heads")), g >= 4);
    // An 8-head model has heads in every group: all switches back.
    QVERIFY(load(w, synthetic_));
    for (int g = 0; g < 8; ++g) QVERIFY(switches->toggle(g)->isEnabled());
}

void TestPlots::groupsWithoutAMapAreNotNamed() {
    MainWindow w;
    w.show();
    QVERIFY(load(w, synthetic_));
    QVERIFY(!groups_are_named(*w.store().model()));
    QVERIFY(run(w, QStringLiteral("Hello there"), 3));
    Plot* strip = part<SubsystemStripView>(w)->plot();
    strip->replot();
    const QString labels = strip->yAxis->tickVectorLabels().join(QLatin1Char('|'));
    QVERIFY2(labels.contains(QStringLiteral("group 0")) && !labels.contains(QStringLiteral("rte-")), qPrintable(labels));
    Plot* heat = part<HeadHeatmapView>(w)->plot();
    heat->replot();
    QVERIFY(!heat->xAxis->tickVectorLabels().join(QLatin1Char('|')).contains(QStringLiteral("rte-")));
    QVERIFY(!part<HeadHeatmapView>(w)->hoverText(0, 0).contains(QStringLiteral("rte-")));
    // A banner says why and offers calibration; closing it hides it for this model.
    auto* banner = w.findChild<CalibrationBanner*>();
    QVERIFY(banner && banner->offered() && banner->isVisible());
    auto* calibrate = banner->findChild<QPushButton*>(QStringLiteral("calibrationBannerCalibrate"));
    QVERIFY(calibrate && calibrate->isVisible());
    QVERIFY(banner->findChild<QLabel*>(QStringLiteral("calibrationBannerText"))->text().contains(QStringLiteral("group 0")));
    // The advisor names the finding's group, not the subsystem the article gives it.
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    AdvisorPanel* advisor = part<AdvisorPanel>(w);
    QSignalSpy changed(advisor, &AdvisorPanel::findingsChanged);
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("周杰最近提到了苹果公司。规范英文名？"));
    QVERIFY(changed.wait(5000));
    QTRY_VERIFY(advisor->list()->topLevelItemCount() > 0);
    QCOMPARE(advisor->findings().front().subsystem, 0);
    QCOMPARE(advisor->list()->topLevelItem(0)->text(0), QStringLiteral("group 0"));
    QVERIFY(!advisor->list()->topLevelItem(0)->toolTip(0).contains(QStringLiteral("Entity recognition")));
    // The router's route is the article's subsystem, and says so (not this model's group 0).
    auto* route = w.findChild<QLabel*>(QStringLiteral("routeLabel"));
    QVERIFY(route);
    QTRY_VERIFY2(route->text().startsWith(QStringLiteral("Route (the article's subsystems): rte-")), qPrintable(route->text()));
    QVERIFY(route->toolTip().contains(QStringLiteral("Calibrate Head Map")));
    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        w.resize(1366, 768);
        w.showPanel(QStringLiteral("advisor"));
        QApplication::processEvents();
        w.grab().save(dir + QStringLiteral("/unmapped-model.png"));
    }
    banner->findChild<QToolButton*>(QStringLiteral("calibrationBannerClose"))->click();
    QVERIFY(!banner->isVisible());
    // octet's map comes from its GGUF: named, no banner, the advisor says rte-a.
    QVERIFY(load(w, kOctet));
    QVERIFY(groups_are_named(*w.store().model()));
    QVERIFY(!banner->offered() && !banner->isVisible());
    QCOMPARE(advisor->list()->topLevelItem(0)->text(0), QStringLiteral("rte-a"));
    QVERIFY2(route->text().startsWith(QStringLiteral("Route: rte-")), qPrintable(route->text()));
    QVERIFY(route->toolTip().isEmpty());
}

void TestPlots::layoutFitsALaptop() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w, kOctet));
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 4));
    const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
    QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 700, qPrintable(QStringLiteral("%1x%2").arg(minimum.width()).arg(minimum.height())));
    w.resize(1024, 700);
    QApplication::processEvents();
    QCOMPARE(w.size(), QSize(1024, 700));
    w.resize(1366, 768);
    QApplication::processEvents();
    QCOMPARE(w.size(), QSize(1366, 768));
    // Every plot shown in a dock is at least 140 px tall (a small dock scrolls instead).
    int shown = 0;
    for (Plot* p : w.findChildren<Plot*>()) {
        if (!p->isVisible()) continue;
        ++shown;
        QVERIFY2(p->height() >= Plot::kMinimumHeight, qPrintable(QStringLiteral("%1: %2 px").arg(p->objectName()).arg(p->height())));
    }
    QVERIFY(shown >= 3);
    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        w.grab().save(dir + QStringLiteral("/plots-1366x768.png"));
        w.resize(1024, 700);
        QApplication::processEvents();
        w.grab().save(dir + QStringLiteral("/plots-1024x700.png"));
    }
}

void TestPlots::groupLabelsNeverRunTogether() {
    // The defect: octet's eight one-head groups in a narrow heatmap read "rte-arte-brte-c…".
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w, kOctet));
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 3));
    auto* heat = w.findChild<Plot*>(QStringLiteral("headHeatmapPlot"));
    QVERIFY(heat);
    const auto labels_fit = [heat] {
        const auto ticks = heat->xAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
        const QFontMetrics metrics(heat->xAxis->tickLabelFont());
        double previous = -1e9, previous_extent = 0.0;
        for (auto it = ticks.constBegin(); it != ticks.constEnd(); ++it) {
            const double px = heat->xAxis->coordToPixel(it.key());
            // Flat labels take their width along the axis, labels on end their line height.
            const double extent = Plot::labelsStandOnEnd(heat->xAxis) ? metrics.height() : metrics.horizontalAdvance(it.value());
            if (px - previous < (previous_extent + extent) / 2.0) return false;
            previous = px;
            previous_extent = extent;
        }
        return ticks.size() == 8;
    };
    for (const int width : {300, 1100}) {
        heat->setFixedWidth(width);
        QApplication::processEvents();
        heat->replot();
        heat->replot(); // the second lays out with the first's choice
        QVERIFY2(labels_fit(), qPrintable(QStringLiteral("labels overlap at %1 px").arg(width)));
    }
    QVERIFY2(!Plot::labelsStandOnEnd(heat->xAxis), "a wide plot lays them flat");
    heat->setFixedWidth(300); // the right dock of a 1024-wide window
    QApplication::processEvents();
    heat->replot();
    QVERIFY(Plot::labelsStandOnEnd(heat->xAxis));
    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) heat->grab().save(dir + QStringLiteral("/heatmap-narrow.png"));
}

void TestPlots::docksNeedNoSidewaysScrollingAndRunIsInView() {
    // The defect: at 1366 wide the attention colour bar, the latency summary, the advisor's text,
    // the presenter's header and the claims dock scrolled sideways; at 768 lines Run was below
    // the first-start hint.
    for (const QSize size : {QSize(1366, 768), QSize(1024, 700)}) {
        MainWindow w;
        w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
        w.resize(size);
        w.show();
        QVERIFY(load(w, kOctet));
        QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 4));
        QSettings().remove(QStringLiteral("onboarding/hintDismissed"));
        w.offerFirstStartHint(); // a first start shows it too
        QVERIFY(w.findChild<FirstStartHint*>() && w.findChild<FirstStartHint*>()->isVisible());
        QApplication::processEvents();
        auto* run_button = w.findChild<QPushButton*>(QStringLiteral("runButton"));
        QVERIFY(run_button);
        QCOMPARE(run_button->visibleRegion().boundingRect().size(), run_button->size()); // not cut by its scroll area
        if (size.width() < 1366) continue;
        QStringList sideways;
        for (const QString& name : dock_names(w)) {
            if (name == QLatin1String("experts")) continue; // a dense model has none: the dock says so in a line
            QVERIFY(show_dock(w, name));
            QApplication::processEvents();
            auto* scroll = qobject_cast<QScrollArea*>(dock_named(w, qPrintable(name + QStringLiteral("Dock")))->widget());
            QVERIFY(scroll);
            // The KV pool's plot keeps its axis title ("pool operation") in view: nothing to scroll.
            if (name == QLatin1String("kv")) QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);
            if (scroll->horizontalScrollBar()->maximum() > 0) {
                sideways << QStringLiteral("%1 (%2 px more)").arg(name).arg(scroll->horizontalScrollBar()->maximum());
                octo::ui::test::screenshot(w, QStringLiteral("sideways-%1.png").arg(name));
            }
        }
        QVERIFY2(sideways.isEmpty(), qPrintable(sideways.join(QStringLiteral(", "))));
    }
}

void TestPlots::colourByAndThePlotsAgreeAfterALoad() {
    // The defect: after loading a model "Colour by" said norm share while the plots kept the
    // metric picked before (the load changed it without telling the views).
    MainWindow w;
    w.show();
    QVERIFY(load(w, kOctet));
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 3));
    w.store().set_metric(Metric::Relative);
    auto* strip = w.findChild<Plot*>(QStringLiteral("subsystemStripPlot"));
    QVERIFY(strip);
    const auto scale_label = [strip] {
        for (int i = 0; i < strip->plotLayout()->elementCount(); ++i) {
            if (auto* scale = qobject_cast<QCPColorScale*>(strip->plotLayout()->elementAt(i))) return scale->axis()->label();
        }
        return QString();
    };
    QCOMPARE(scale_label(), part<SwitchesPanel>(w)->metricBox()->currentText());
    SyntheticModelSpec spec;
    const QString plain = dir_.filePath(QStringLiteral("colour-by.gguf"));
    QVERIFY(octo::ui::test::write_synthetic_model(plain, spec));
    QVERIFY(load(w, plain));
    QVERIFY(w.store().metric() != Metric::Relative);
    QCOMPARE(scale_label(), part<SwitchesPanel>(w)->metricBox()->currentText());
}

void TestPlots::firstWindowFitsItsScreen() {
    // The defect: a first start opened 1280 × 800 on a 768-line screen, the status bar and the
    // bottom tabs off it. Available areas as a desktop with a 32 px panel leaves them.
    const FirstWindow wide = first_window_geometry(QRect(0, 0, 1920, 1048));
    QCOMPARE(wide.geometry, QRect(320, 32 + 108, 1280, 800));
    QVERIFY(!wide.maximised);
    const FirstWindow laptop = first_window_geometry(QRect(0, 32, 1366, 736));
    QVERIFY(laptop.maximised);
    QCOMPARE(laptop.geometry, QRect(43, 64, 1280, 704)); // the inside; the title bar above it
    const FirstWindow small = first_window_geometry(QRect(10, 0, 1024, 700));
    QCOMPARE(small.geometry, QRect(10, 32, 1024, 668));
    QVERIFY(small.maximised);
    // The window itself, on this session's screen (offscreen: 800 × 600), is never larger than
    // the screen or, where the screen is smaller still, than its own minimum.
    MainWindow w;
    w.fitToScreen();
    const QRect available = w.screen()->availableGeometry();
    const QSize most = available.size().expandedTo(w.minimumSize());
    QVERIFY2(w.width() <= most.width() && w.height() <= most.height(),
             qPrintable(QStringLiteral("%1x%2 on %3x%4").arg(w.width()).arg(w.height()).arg(available.width()).arg(available.height())));
    QCOMPARE(w.windowState().testFlag(Qt::WindowMaximized), available.width() < 1280 || available.height() < 832);
}

void TestPlots::presetsAndViewMenuBringDocksForward() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QApplication::processEvents();
    const auto dock = [&w](const char* name) { return w.findChild<QDockWidget*>(QString::fromLatin1(name)); };
    w.applyLayout(LayoutPreset::Compare);
    QApplication::processEvents();
    QTRY_VERIFY(dock_in_front(w, dock("compareDock")));
    QTRY_VERIFY(dock_in_front(w, dock("historyDock")));
    w.applyLayout(LayoutPreset::Teach);
    QApplication::processEvents();
    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) w.grab().save(dir + QStringLiteral("/layout-teach.png"));
    QTRY_VERIFY(dock_in_front(w, dock("presenterDock")));
    QTRY_VERIFY(dock_in_front(w, dock("latencyDock")));
    QTRY_VERIFY(!dock_in_front(w, dock("compareDock")));
    dock("heatmapDock")->close();
    w.applyLayout(LayoutPreset::Inspect); // View → Reset Layout
    QApplication::processEvents();
    QTRY_VERIFY(dock_in_front(w, dock("heatmapDock")));
    QTRY_VERIFY(dock("stripDock")->isVisible());
    QTRY_VERIFY(dock("logDock")->isHidden());

    // View → Attention while attention is a tab behind the heatmap: it comes to the front.
    QTRY_VERIFY(!dock_in_front(w, dock("attentionDock")));
    QAction* open = nullptr;
    for (QAction* menu : w.menuBar()->actions()) {
        if (menu->text() != QStringLiteral("&View")) continue;
        for (QAction* a : menu->menu()->actions()) {
            if (a->text() == dock("attentionDock")->windowTitle()) open = a;
        }
    }
    QVERIFY(open);
    QVERIFY(open->isChecked());
    open->trigger();
    QApplication::processEvents();
    QTRY_VERIFY(dock_in_front(w, dock("attentionDock")));
    QVERIFY(open->isChecked());
    open->trigger(); // in front: the entry closes it
    QApplication::processEvents();
    QTRY_VERIFY(dock("attentionDock")->isHidden());
    QVERIFY(!open->isChecked());
}

void TestPlots::screenshotAtTheAskedSize() {
    const QString png = dir_.filePath("laptop.png");
    QProcess gui;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("XDG_CONFIG_HOME", dir_.filePath("config"));
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(OCTOSCOPE_GUI_PATH), {"--prompt", "What is 20% of 300?", "--max-tokens", "6", "--window-size", "1366x768",
                                                   "--layout", "compare", "--screenshot", png});
    QVERIFY(gui.waitForFinished(120000));
    QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1366, 768));
    // A malformed size is refused with a clear message.
    gui.start(QStringLiteral(OCTOSCOPE_GUI_PATH), {"--window-size", "big"});
    QVERIFY(gui.waitForFinished(60000));
    QCOMPARE(gui.exitCode(), 2);
    QVERIFY(gui.readAllStandardError().contains("--window-size takes WIDTHxHEIGHT"));
}

void TestPlots::keyboardTabLeavesThePromptAndEscCancels() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* editor = part<PromptPanel>(w)->editor();
    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    editor->setPlainText(QStringLiteral("a"));
    editor->moveCursor(QTextCursor::End);
    QTest::keyClick(editor, Qt::Key_Tab, Qt::ControlModifier); // Ctrl+Tab types a tab
    QCOMPARE(editor->toPlainText(), QStringLiteral("a\t"));
    QTest::keyClick(editor, Qt::Key_Tab); // Tab moves on
    QCOMPARE(editor->toPlainText(), QStringLiteral("a\t"));
    QTRY_VERIFY(!editor->hasFocus());
    // One Cancel key: Run → Cancel is Esc, and no action anywhere claims Ctrl+. any more.
    QAction* cancel = nullptr;
    for (QAction* a : w.findChildren<QAction*>()) {
        QVERIFY2(a->shortcut() != QKeySequence(QStringLiteral("Ctrl+.")), qPrintable(a->text()));
        if (a->text() == QStringLiteral("&Cancel")) cancel = a;
    }
    QVERIFY(cancel);
    QCOMPARE(cancel->shortcut(), QKeySequence(Qt::Key_Escape));
    QSignalSpy cancelled(cancel, &QAction::triggered);
    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    QTest::keyClick(editor, Qt::Key_Escape); // from inside the editor, too
    QCOMPARE(cancelled.count(), 1);
}

void TestPlots::statusErrorsFitOnOneLine() {
    const QFontMetrics fm(QApplication::font());
    const QString message = QStringLiteral("/home/someone/models/very/deep/folder/broken-model.gguf: tensor 'blk.0.attn_q.weight' "
                                           "runs past the end of the file\n(/home/someone/models/very/deep/folder/broken-model.gguf is "
                                           "1234 bytes)");
    const QString line = status_line_text(message, fm, 2000);
    QVERIFY2(!line.contains(QLatin1Char('\n')) && !line.contains(QStringLiteral("/home")), qPrintable(line));
    QCOMPARE(line.count(QStringLiteral("broken-model.gguf")), 2);
    QVERIFY(line.contains(QStringLiteral("runs past the end of the file")));
    const QString narrow = status_line_text(message, fm, 300);
    QVERIFY(fm.horizontalAdvance(narrow) <= 300);
    QVERIFY(narrow.endsWith(QChar(0x2026)));
    // A server's address is no file path: it stays whole.
    const QString url = QStringLiteral("Run failed: cannot reach http://127.0.0.1:9/v1/chat/completions: Connection refused");
    QCOMPARE(status_line_text(url, fm, 4000), url);

    // Elided, the whole error stays readable as the bar's tooltip until another message replaces it
    // (a server's error was cut at "Connection" with no way to read the rest).
    {
        QStatusBar bar;
        bar.resize(360, 24);
        const QString long_error = url + QStringLiteral(" (the server at 127.0.0.1:9 may have stopped; check it and retry)");
        show_status_error(bar, long_error, 0);
        QVERIFY2(bar.currentMessage().endsWith(QChar(0x2026)), qPrintable(bar.currentMessage()));
        QCOMPARE(bar.toolTip(), long_error);
        bar.showMessage(QStringLiteral("Ready"));
        QVERIFY(bar.toolTip().isEmpty());
        show_status_error(bar, long_error, 0);
        bar.clearMessage();
        QVERIFY(bar.toolTip().isEmpty());
    }

    // A failed load on the window: the status bar's message is one line within the bar.
    MainWindow w;
    w.resize(1024, 700);
    w.show();
    const QString bad = dir_.filePath("not-a-model.gguf");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("definitely not GGUF");
    f.close();
    QSignalSpy failed(&w.store(), &RunStore::loadFailed);
    w.openModel(bad);
    QVERIFY(failed.wait(30000));
    const QString shown = w.statusBar()->currentMessage();
    QVERIFY2(!shown.isEmpty() && !shown.contains(QLatin1Char('\n')) && !shown.contains(dir_.path()), qPrintable(shown));
    QVERIFY(w.statusBar()->fontMetrics().horizontalAdvance(shown) <= w.statusBar()->width());
    if (QWidget* box = QApplication::activeModalWidget()) box->close();
}

namespace {
bool wheel(QWidget* target, QPoint at, Qt::KeyboardModifiers modifiers) {
    QWheelEvent e(QPointF(at), QPointF(target->mapToGlobal(at)), QPoint(), QPoint(0, 120), Qt::NoButton, modifiers,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &e);
    return e.isAccepted();
}
} // namespace

// The wheel over a plot that has no focus is left to the dock's scroll area instead of zooming
// (the A/B share plot once ended at -500…0 while the user scrolled its dock); a click (the
// focus) or Ctrl makes it zoom. A plot with no data never zooms. Empty plots show their axes again with data,
// but not the axes they never showed.
void TestPlots::wheelZoomsOnlyAFocusedPlot() {
    QScrollArea area;
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    auto* plot = new Plot(QStringLiteral("wheelPlot"), content);
    plot->setMinimumHeight(300);
    layout->addWidget(plot);
    layout->addSpacing(2000);
    area.setWidget(content);
    area.setWidgetResizable(true);
    area.resize(400, 400);
    area.show();
    QVERIFY(QTest::qWaitForWindowActive(&area));
    plot->showNoData(QStringLiteral("nothing"));
    QVERIFY(!plot->xAxis->visible() && !plot->xAxis2->visible());
    plot->setHome(QCPRange(0, 10), QCPRange(0, 10));
    QVERIFY(plot->xAxis->visible() && plot->yAxis->visible());
    QVERIFY2(!plot->xAxis2->visible(), "an axis the plot never showed came back");
    plot->replot();
    const QPoint centre = plot->axisRect()->rect().center();
    const QCPRange home = plot->xAxis->range();
    QVERIFY(!plot->hasFocus());
    // Not taken: no zoom, and the event is left to the scroll area (Qt hands an ignored wheel
    // event from the window system on to the parents; a synthetic one stops here).
    QVERIFY(!wheel(plot, centre, Qt::NoModifier));
    QCOMPARE(plot->xAxis->range(), home);
    QVERIFY(wheel(plot, centre, Qt::ControlModifier));
    QVERIFY(plot->xAxis->range().size() < home.size());
    plot->resetView();
    plot->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(plot->hasFocus());
    QVERIFY(wheel(plot, centre, Qt::NoModifier));
    QVERIFY(plot->xAxis->range().size() < home.size());
    plot->showNoData(QStringLiteral("nothing"));
    const QCPRange empty = plot->xAxis->range();
    QVERIFY(!wheel(plot, centre, Qt::ControlModifier));
    QCOMPARE(plot->xAxis->range(), empty);
}

// Every per-token view shows the same token: without a selection the last one (the presenter
// does not say "no token selected" while Attention shows a position), with one the selected.
void TestPlots::viewsAgreeOnTheShownToken() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w, kOctet));
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 8));
    const RunRecord& r = *w.store().current();
    const int last = static_cast<int>(r.tokens().size()) - 1;
    auto* position = w.findChild<QLabel*>(QStringLiteral("timelinePosition"));
    QVERIFY(position);
    for (int expected : {last, 5}) {
        if (expected != last) w.store().select_token(expected);
        QCOMPARE(w.store().focused_token(), expected);
        QCOMPARE(part<AttentionView>(w)->shownToken(), expected);
        QCOMPARE(part<TimelineScrubber>(w)->slider()->value(), expected);
        QVERIFY2(position->text().startsWith(QStringLiteral("position %1 ").arg(expected)), qPrintable(position->text()));
        // The presenter counts as the timeline does: the same position and number of tokens.
        const QString presenter = part<PresenterPanel>(w)->tokenLabel()->text();
        QVERIFY2(presenter.startsWith(QStringLiteral("Position %1 (%2 tokens)").arg(expected).arg(last + 1)), qPrintable(presenter));
        QVERIFY2(position->text().contains(QStringLiteral("%1 tokens").arg(last + 1)), qPrintable(position->text()));
    }
    // Stepping back from the last token (no selection) goes to the one before it.
    w.store().select_token(-1);
    part<TimelineScrubber>(w)->stepBack();
    QCOMPARE(w.store().selected_token(), last - 1);
    // In a window of 1024 × 700 the position line wraps rather than being cut off: its text fits
    // its rectangle.
    MainWindow small;
    small.resize(1024, 700);
    small.show();
    QVERIFY(load(small, kOctet));
    QVERIFY(run(small, QStringLiteral("What is 20% of 300?"), 8));
    // The heatmap's group labels: side by side where they fit (1366), upright where they would
    // overlap (1024), never piled on each other.
    QTRY_COMPARE(part<HeadHeatmapView>(w)->plot()->xAxis->tickLabelRotation(), 0.0);
    QTRY_COMPARE(part<HeadHeatmapView>(small)->plot()->xAxis->tickLabelRotation(), -90.0);
    position = small.findChild<QLabel*>(QStringLiteral("timelinePosition"));
    QTRY_VERIFY2(position->width() > 0 && position->heightForWidth(position->width()) <= position->height() + 1,
                 qPrintable(QStringLiteral("%1 × %2 px for '%3'").arg(position->width()).arg(position->height()).arg(position->text())));
}

// The docks keep their places when the first run fills the views (the window did not jump).
void TestPlots::layoutHoldsStillOnTheFirstRun() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w, kOctet));
    QApplication::processEvents();
    const auto geometries = [&w] {
        QStringList out;
        for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
            if (!d->isVisible()) continue;
            const QRect g(d->mapTo(&w, QPoint(0, 0)), d->size());
            out << QStringLiteral("%1 %2,%3 %4x%5").arg(d->objectName()).arg(g.x()).arg(g.y()).arg(g.width()).arg(g.height());
        }
        out.sort();
        return out;
    };
    const QStringList before = geometries();
    QVERIFY(before.size() >= 4);
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 8));
    QApplication::processEvents();
    const QStringList after = geometries();
    QCOMPARE(after, before);
}

// Tab from the editor walks the prompt panel as it is laid out: Chat, then DLA and Record
// attention on the same row (the system field is off until Chat is ticked), then the settings,
// then Run. They once came after Precision, so Tab from Chat seemed to skip them.
void TestPlots::keyboardTabWalksThePromptPanelAsLaidOut() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    PromptPanel* panel = part<PromptPanel>(w);
    QPlainTextEdit* editor = panel->editor();
    editor->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(editor->hasFocus());
    // The panel's control that holds the focus (a spin box's line edit counts as the spin box).
    const auto control = [panel]() -> QString {
        QWidget* f = QApplication::focusWidget();
        while (f && f->parentWidget() != panel) f = f->parentWidget();
        return f ? (f->objectName().isEmpty() ? QString::fromLatin1(f->metaObject()->className()) : f->objectName()) : QString();
    };
    QStringList visited;
    for (int i = 0; i < 12; ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        const QString now = control();
        if (now.isEmpty() || now == QStringLiteral("promptEditor")) break; // left the panel
        visited << now;
    }
    const QStringList expected = {QStringLiteral("chatBox"), QStringLiteral("dlaBox"), QStringLiteral("attentionBox"),
                                  QStringLiteral("QSpinBox"), QStringLiteral("QDoubleSpinBox"), QStringLiteral("QSpinBox"),
                                  QStringLiteral("QDoubleSpinBox"), QStringLiteral("QSpinBox"), QStringLiteral("precisionBox"),
                                  QStringLiteral("outputBox"), QStringLiteral("runButton")};
    QCOMPARE(visited, expected);
}

// Tab moves the focus with a ring drawn around the focused control (in the highlight colour, on
// screen); a click shows none. Tab reaches the layers × heads plot, and the arrow keys walk its
// cells with the cell's readout.
void TestPlots::keyboardFocusIsRingedAndWalksHeatmapCells() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(load(w, kOctet));
    QVERIFY(run(w, QStringLiteral("What is 20% of 300?"), 8));
    w.activateWindow(); // the offscreen platform does not give it back after the run's popups
    QVERIFY(QTest::qWaitForWindowActive(&w));
    FocusRing* ring = FocusRing::install();
    QPlainTextEdit* editor = part<PromptPanel>(w)->editor();
    editor->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY2(editor->hasFocus(), qPrintable(QStringLiteral("%1 %2 %3 active %4").arg(editor->isVisible()).arg(editor->isEnabled()).arg(QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "none").arg(w.isActiveWindow())));
    QVERIFY(!ring->overlay() || ring->overlay()->isHidden()); // a click: no ring
    QTest::keyClick(editor, Qt::Key_Tab);
    QTRY_VERIFY(!editor->hasFocus());
    QWidget* focused = QApplication::focusWidget();
    QVERIFY(focused);
    QCOMPARE(ring->target(), focused);
    QVERIFY(ring->overlay() && ring->overlay()->isVisible());
    QVERIFY(ring->overlay()->geometry().contains(focused->geometry()));
    QVERIFY(ring->overlay()->width() > focused->width());
    // The ring's pixels are the highlight colour, in the window as grabbed.
    const QImage shot = w.grab().toImage();
    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) shot.save(dir + QStringLiteral("/focus-ring.png"));
    const QPoint corner = ring->overlay()->mapTo(&w, QPoint(ring->overlay()->width() / 2, 1));
    const QColor seen = shot.pixelColor(corner * shot.devicePixelRatio());
    const QColor highlight = QApplication::palette().color(QPalette::Highlight);
    QVERIFY2(std::abs(seen.red() - highlight.red()) + std::abs(seen.green() - highlight.green()) + std::abs(seen.blue() - highlight.blue()) < 30,
             qPrintable(seen.name() + QStringLiteral(" vs ") + highlight.name()));
    // A click elsewhere takes the ring away.
    editor->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(ring->overlay()->isHidden());

    // Keyboard cells on the heatmap.
    HeadHeatmapView* heatmap = part<HeadHeatmapView>(w);
    w.showPanel(QStringLiteral("heatmap"));
    Plot* plot = heatmap->plot();
    QCOMPARE(plot->focusPolicy(), Qt::StrongFocus); // Tab reaches it
    plot->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(plot->hasFocus());
    QCOMPARE(plot->cellCursor(), QPoint(-1, -1));
    QTest::keyClick(plot, Qt::Key_Right); // the first key puts the cursor on the first cell
    QCOMPARE(plot->cellCursor(), QPoint(0, 0));
    QTest::keyClick(plot, Qt::Key_Right);
    QTest::keyClick(plot, Qt::Key_Up);
    QCOMPARE(plot->cellCursor(), QPoint(1, 1)); // head 1, layer 1
    QCOMPARE(plot->cellReadout(), heatmap->hoverText(1, 1));
    QVERIFY2(plot->cellReadout().startsWith(QStringLiteral("layer 1, head 1")), qPrintable(plot->cellReadout()));
    QTest::keyClick(plot, Qt::Key_End);
    QCOMPARE(plot->cellCursor(), QPoint(7, 1)); // octet: 8 heads
    for (int i = 0; i < 40; ++i) QTest::keyClick(plot, Qt::Key_Up); // stops at the last layer
    QCOMPARE(plot->cellCursor(), QPoint(7, 15));
    QVERIFY(plot->cellReadout().startsWith(QStringLiteral("layer 15, head 7")));
    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        for (int i = 0; i < 3; ++i) QTest::keyClick(plot, Qt::Key_Down);
        QTest::keyClick(plot, Qt::Key_Left);
        w.grab().save(dir + QStringLiteral("/heatmap-keyboard-cell.png"));
    }
}

QTEST_MAIN(TestPlots)
#include "test_plots.moc"
