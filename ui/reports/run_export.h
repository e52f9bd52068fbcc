// Run data out of the workbench: JSON (everything measured) and CSV (one row per token).
#pragma once

#include <QByteArray>

namespace octo::ui {

struct RunRecord;

QByteArray run_to_json(const RunRecord& run);
// token index, kind, id, text, log-prob, ms, the metric's 8 shares (empty when absent)
QByteArray run_to_csv(const RunRecord& run);

} // namespace octo::ui
