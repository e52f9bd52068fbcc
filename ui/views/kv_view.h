// The KV pool: the block grid (free / used / shared / cached prefix) after the shown run, its
// occupancy over the pool's operations, totals in blocks and bytes, how keys and values are
// stored and the bytes of a block, and the last run's reused vs evaluated tokens.
#pragma once

#include <QWidget>

#include <vector>

#include "engine/kv/kv_pool_stats.h"

class QLabel;

namespace octo {
struct ModelInfo;
}

namespace octo::ui {

class Plot;

class InternalsNote;

class RunStore;
struct RunRecord;

class KvBlockGrid : public QWidget {
    Q_OBJECT
public:
    explicit KvBlockGrid(QWidget* parent = nullptr);
    void setBlocks(std::vector<KvBlockState> blocks);
    const std::vector<KvBlockState>& blocks() const { return blocks_; }
    QSize sizeHint() const override { return {160, 36}; }
    QSize minimumSizeHint() const override { return {60, 24}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<KvBlockState> blocks_;
};

class KvView : public QWidget {
    Q_OBJECT
public:
    explicit KvView(RunStore& store, QWidget* parent = nullptr);
    const KvBlockGrid& grid() const { return *grid_; }
    QString summary() const;
    Plot* plot() const { return plot_; }

private:
    InternalsNote* internals_ = nullptr; // the sentence for runs without internals
    void refresh();
    // A server's model: the totals of its pool from the run's answer, and what is not reported.
    void showServerPool(const RunRecord* run);
    QString storage(const ModelInfo& model) const;

    RunStore& store_;
    KvBlockGrid* grid_;
    QLabel* summary_;
    Plot* plot_;
};

} // namespace octo::ui
