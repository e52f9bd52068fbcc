// The text of a bug-report bundle (File → Export Bug Report): the exact `octoscope-cli
// generate` command that repeats a captured run, and report.md (system, versions, model,
// prompt, route, findings, that command) ready to paste into an issue tracker.
#pragma once

#include <QString>
#include <QStringList>

#include "engine/capture/capture.h"
#include "ui/reports/system_info.h"

namespace octo::ui {

// The file name a head map is written under beside the report when the command needs it.
inline constexpr char kBugReportHeadMap[] = "head_map.json";

// Whether the command must name the head map (a calibrated or file map; a GGUF's own map and
// the default one are what the CLI resolves by itself).
bool command_needs_head_map(const Capture& capture);

// One POSIX shell word.
QString shell_quote(const QString& word);

// `octoscope-cli generate --model=… --prompt=… …` with every setting that decides the tokens,
// --precision always included, on the CPU backend (run it in the bundle's folder when it names
// head_map.json).
QString reproduce_command(const Capture& capture);

// report.md; `files` are the bundle's other files, relative to it.
QString bug_report_markdown(const Capture& capture, const SystemInfo& system, const QStringList& files);

} // namespace octo::ui
