// The logit lens (docs/workbench.md, "Logit lens"): for the selected token, what each layer
// predicted at the position before it — the residual after the layer through the model's final
// norm and output matrix (engine/instrumentation/logit_lens.h). One row per layer, the first
// layer at the top: the rank and probability of the token that came, then the layer's top k
// tokens, shaded by probability, the token that came in bold. The last row is the model's own
// output. It is computed on demand by LensController (ui/controllers/lens_controller.h) and kept
// with the run; until then, or when it cannot be computed, the view says why. "By head group"
// adds each head group's direct part per layer under it (lens_groups_plot.h).
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace octo::ui {

class LensGroupsPlot;
class RunStore;

class LogitLensView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDefaultK = 5;
    static constexpr int kMaxK = 20;

    explicit LogitLensView(RunStore& store, QWidget* parent = nullptr);

    int k() const; // top tokens per layer (remembered)
    void setK(int k);
    QTableWidget* table() const { return table_; }
    LensGroupsPlot* groups() const { return groups_; } // "By head group": each group's direct part
    QString message() const; // what the view says instead of (or above) the table

signals:
    void kChanged(int k);
    void shown(); // the view became visible: the controller computes what it lacks

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void retranslate();
    void updateMarks(); // the linked views' focused and hovered layer (RunStore)
    bool eventFilter(QObject* watched, QEvent* event) override;

    RunStore& store_;
    QLabel* k_label_;
    QSpinBox* k_;
    QLabel* header_;
    QTableWidget* table_;
    QCheckBox* groups_box_;
    LensGroupsPlot* groups_;
};

} // namespace octo::ui
