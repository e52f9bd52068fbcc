// The one plot layer every view draws with: a QCustomPlot with the workbench's rules built in.
//  - colours from the application palette (light and dark themes);
//  - whole-number ticks for indices and counts (`setWholeNumbers`), never "layer 2.5";
//  - a "no data yet" state (`showNoData`) that hides axes, colour scale and legend and says why,
//    instead of invented 0–5 axes or a solid colour map;
//  - the ranges of the data as a "home" view (`setHome`): the wheel zooms a focused plot (or any
//    plot with Ctrl held; otherwise the wheel scrolls the dock around it), dragging pans, a
//    double click, the context menu or the R key resets;
//  - colour maps with a sequential scale, or a diverging one centred on 0 for signed values;
//  - legends outside the data (`placeLegendBelow`);
//  - a hover readout (`setHoverText`): the tooltip over any point, e.g. layer, head, token, value;
//  - keyboard cells (`setKeyboardCells`): Tab reaches the plot, the arrow keys move a framed cell
//    over the data (Home / End: first / last column) and the readout shows that cell's text;
//  - linked views (RunStore's focus, hover and token range, docs/workbench.md "Linked views"):
//    clicks and the pointer's position reported in axis units (`cellClicked`, `pointerAt`),
//    frames drawn over the data for the selected and the hovered cell, row or column (`setMarks`),
//    and a token axis whose zoom and pan are reported and shared (`setTokenAxis`).
#pragma once

#include <qcustomplot.h>

#include <functional>
#include <optional>

namespace octo::ui {

// Ticks only at whole numbers: steps of 1, 2 or 5 × 10^k (never below 1), no sub-ticks between
// them, labels without decimals.
class WholeNumberTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tick_step) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar format, int precision) override;
};

class Plot : public QCustomPlot {
    Q_OBJECT
public:
    static constexpr int kMinimumHeight = 140;
    Plot(const QString& object_name, QWidget* parent);

    // Index or count axes: whole-number ticks.
    void setWholeNumbers(QCPAxis* axis);
    // A horizontal axis with text ticks: where neighbouring labels would run together at the
    // plot's width ("rte-arte-b"), they stand on end (rotated 90°); checked before each replot,
    // so a wider plot lays them flat again.
    void keepLabelsApart(QCPAxis* axis);
    // Whether keepLabelsApart stood `axis`'s labels on end at the last replot.
    static bool labelsStandOnEnd(const QCPAxis* axis) { return axis->tickLabelRotation() != 0.0; }

    // A colour map over the main axes with its colour scale on the right (owned by the plot).
    QCPColorMap* addColorMap(const QString& scale_label);
    // Sequential values (shares, weights, norms) over [lower, upper].
    static void setSequential(QCPColorMap* map, const QCPRange& range);
    // Signed values: blue below 0, a neutral grey at 0, red above, over [-extent, extent].
    static void setDiverging(QCPColorMap* map, double extent);
    static bool isDiverging(const QCPColorMap* map);

    // The legend in its own row under the axis rect, never over the data.
    void placeLegendBelow(int columns);
    // The legend in its own column right of the axis rect (wide, short plots).
    void placeLegendRight();

    // Nothing to plot: the axes (lines and titles too), plottables, colour scales and legend are
    // hidden and `message` is written in the middle. Any data shown later (setHome) ends this state.
    void showNoData(const QString& message);
    bool hasNoData() const { return !no_data_.isEmpty(); }
    QString noDataMessage() const { return no_data_; }

    // Data is shown: the axes take these ranges, and a reset returns to them.
    void setHome(const QCPRange& x, const QCPRange& y);
    void resetView();

    // The hover readout: text for the point under the mouse in axis coordinates; empty for none.
    void setHoverText(std::function<QString(double x, double y)> text);
    QString hoverTextAt(const QPointF& pixel) const;

    // A rectangle in axis units, [x0, x1] × [y0, y1].
    struct Span {
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        bool operator==(const Span&) const = default;
    };
    // The linked views' frames over the data: the selected cell (or row, or column) solid, the
    // hovered one dashed, a selected stretch tinted. Drawn over the plot, so a view's own items are left alone.
    struct Marks {
        std::optional<Span> selected;
        std::optional<Span> hovered;
        std::optional<Span> band; // a selected stretch (a conversation's turn): tinted, under the frames
        bool operator==(const Marks&) const = default;
    };
    void setMarks(const Marks& marks);
    const Marks& marks() const { return marks_; }
    // The x axis counts tokens: the user's zoom and pan of it are reported (tokenRangeChanged;
    // a reset reports nullopt) and another view's are shown (showTokenRange), also over later
    // setHome calls, until a reset.
    void setTokenAxis(bool on) { token_axis_ = on; }
    bool tokenAxis() const { return token_axis_; }
    void showTokenRange(const std::optional<QCPRange>& range);

    // Colour maps of whole cells: focusable with Tab, the arrow keys move a cell cursor (x, y in
    // axis units) and show its readout. The cursor is (-1, -1) until a key moves it.
    void setKeyboardCells(bool on);
    QPoint cellCursor() const { return cursor_; }
    QString cellReadout() const; // the readout of the cursor's cell, empty without one

signals:
    void cellClicked(double x, double y); // a click (pressed and released without dragging) on the data
    void pointerAt(double x, double y);   // the pointer moved over the data (no button held)
    void pointerLeft();                   // ... and left it
    void tokenRangeChanged(std::optional<QCPRange> range); // the user zoomed or panned the token axis; nullopt: reset

protected:
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void setDataVisible(bool visible);
    bool moveCursor(int key);
    void showReadout();
    int moveLegendOut(bool below);

    void fitLabels();

    QString no_data_;
    QList<QPointer<QCPAxis>> apart_; // keepLabelsApart's axes
    QList<QPointer<QCPAxis>> hidden_axes_; // the axes showNoData hid (an axis hidden by its view stays hidden)
    QCPRange home_x_{0, 1}, home_y_{0, 1};
    std::function<QString(double, double)> hover_;
    bool keyboard_cells_ = false;
    QPoint cursor_{-1, -1};
    Marks marks_;
    bool token_axis_ = false;
    std::optional<QCPRange> shared_x_; // another view's token range shown
    bool setting_range_ = false;       // the range is set here, not by the user
    QPointF pressed_at_{-1, -1};
    bool pointer_in_ = false;
    void paintMarks(QPainter& p);
    void setXRange(const QCPRange& range); // without reporting it
};

} // namespace octo::ui
