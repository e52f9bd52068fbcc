#include "ui/reports/bug_report.h"

#include <QDateTime>
#include <QRegularExpression>

#include "engine/instrumentation/forward_probe.h"
#include "engine/instrumentation/subsystem.h"
#include "ui/support/engine_labels.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

namespace {

QString str(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// A float as the shortest text that reads back as the same float.
QString number(float v) { return QString::number(static_cast<double>(v), 'g', 9); }

// A fenced block whose fence is longer than any run of backticks in `text`.
QString fenced(const QString& text, const QString& language = {}) {
    qsizetype longest = 0;
    for (const QRegularExpressionMatch& m : QRegularExpression(QStringLiteral("`+")).globalMatch(text)) {
        longest = std::max(longest, m.capturedLength());
    }
    const QString fence(std::max<qsizetype>(3, longest + 1), QLatin1Char('`'));
    return fence + language + QLatin1Char('\n') + text + (text.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")) +
           fence + QLatin1Char('\n');
}

QString disabled_list(const RunSpec& s) {
    QStringList ids;
    for (int i = 0; i < kSubsystemCount; ++i) {
        if (s.disabled[static_cast<size_t>(i)]) ids << subsystem_id(i);
    }
    return ids.join(QLatin1Char(','));
}

} // namespace

bool command_needs_head_map(const Capture& c) {
    return c.head_map && (c.head_map->source() == HeadMapSource::Calibrated || c.head_map->source() == HeadMapSource::File);
}

QString shell_quote(const QString& word) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=,+-]+$"));
    if (plain.match(word).hasMatch()) return word;
    QString q = word;
    q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

QString reproduce_command(const Capture& c) {
    const RunSpec s = c.trace.repeat_spec();
    QStringList args{QStringLiteral("octoscope-cli"), QStringLiteral("generate")};
    const auto option = [&args](const QString& name, const QString& value) { args << shell_quote(name + QLatin1Char('=') + value); };
    option(QStringLiteral("--model"), str(c.model.path));
    option(QStringLiteral("--prompt"), str(s.prompt));
    if (s.chat) args << QStringLiteral("--chat");
    if (!s.system.empty()) option(QStringLiteral("--system"), str(s.system));
    if (s.parse_special) args << QStringLiteral("--parse-special");
    option(QStringLiteral("--max-tokens"), QString::number(s.max_tokens));
    option(QStringLiteral("--temperature"), number(s.sampling.temperature));
    option(QStringLiteral("--seed"), QString::number(s.sampling.seed));
    option(QStringLiteral("--top-k"), QString::number(s.sampling.top_k));
    option(QStringLiteral("--top-p"), number(s.sampling.top_p));
    option(QStringLiteral("--repeat-penalty"), number(s.sampling.repeat_penalty));
    option(QStringLiteral("--repeat-last-n"), QString::number(s.sampling.repeat_last_n));
    for (const std::string& stop : s.stop_strings) option(QStringLiteral("--stop"), str(stop));
    if (!s.stop_at_eog) args << QStringLiteral("--ignore-eos");
    if (const QString off = disabled_list(s); !off.isEmpty()) {
        option(QStringLiteral("--disable"), off);
        option(QStringLiteral("--ablation"), QString::fromLatin1(ablation_mode_name(s.ablation_mode)));
    }
    if (command_needs_head_map(c)) option(QStringLiteral("--head-map"), QString::fromLatin1(kBugReportHeadMap));
    if (s.dla) option(QStringLiteral("--attribution"), QStringLiteral("dla"));
    if (s.record_attention) args << QStringLiteral("--record-attention");
    if (s.n_ctx > 0) option(QStringLiteral("--ctx-size"), QString::number(s.n_ctx));
    // Always named, like the sampling settings: the command repeats the run even where the
    // model's default differs (another version, or a run that chose the other precision).
    option(QStringLiteral("--precision"), precision_id(s.precision.value_or(Precision::Exact)));
    option(QStringLiteral("--backend"), QStringLiteral("cpu"));
    return args.join(QLatin1Char(' '));
}

QString bug_report_markdown(const Capture& c, const SystemInfo& sys, const QStringList& files) {
    const RunSpec s = c.trace.repeat_spec();
    const RunOutcome g = c.trace.outcome.value_or(RunOutcome{});
    QString md;
    md += QStringLiteral("# Octoscope bug report\n\n");
    md += QStringLiteral("Written %1 by Octoscope %2.\n\n")
              .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate), str(c.app_version));
    md += QStringLiteral("## System\n\n");
    md += QStringLiteral("- OS: %1\n- CPU: %2, %3 logical cores\n- GPU: %4\n- RAM: %5\n\n")
              .arg(sys.os, sys.cpu)
              .arg(sys.cores)
              .arg(sys.gpu, sys.ram);
    md += QStringLiteral("## Versions\n\n");
    md += QStringLiteral("- Octoscope: %1\n- Qt: %2\n- Compiler: %3\n- Backend: %4\n- Device: %5\n\n")
              .arg(str(c.app_version), sys.qt, sys.compiler, str(c.backend), str(c.device));
    md += QStringLiteral("## Model\n\n");
    md += QStringLiteral("- Name: %1 (%2; %3 layers × %4 heads, %5 parameters, context %6)\n- File: `%7`\n- Size: %8 bytes\n- SHA-256: `%9`\n\n")
              .arg(str(c.model.name), str(c.model.architecture))
              .arg(c.model.n_layer)
              .arg(c.model.n_head)
              .arg(c.model.n_params)
              .arg(c.model.n_ctx)
              .arg(str(c.model.path))
              .arg(c.model.size)
              .arg(str(c.model.sha256));
    md += QStringLiteral("## Prompt\n\n");
    if (s.chat) md += QStringLiteral("Chat template%1.\n\n").arg(s.system.empty() ? QString() : QStringLiteral(", system message:\n\n") + fenced(str(s.system), QStringLiteral("text")));
    md += fenced(str(s.prompt), QStringLiteral("text")) + QLatin1Char('\n');
    md += QStringLiteral("## Settings\n\n");
    md += QStringLiteral("- max tokens %1, temperature %2, seed %3, top-k %4, top-p %5, repeat penalty %6 over %7 tokens\n")
              .arg(s.max_tokens)
              .arg(number(s.sampling.temperature))
              .arg(s.sampling.seed)
              .arg(s.sampling.top_k)
              .arg(number(s.sampling.top_p), number(s.sampling.repeat_penalty))
              .arg(s.sampling.repeat_last_n);
    const QString off = disabled_list(s);
    md += QStringLiteral("- disabled subsystems: %1\n").arg(off.isEmpty() ? QStringLiteral("none") : off + QStringLiteral(" (") + QString::fromLatin1(ablation_mode_name(s.ablation_mode)) + QStringLiteral(" ablation)"));
    md += QStringLiteral("- precision: %1\n").arg(precision_id(s.precision.value_or(Precision::Exact)));
    md += QStringLiteral("- head map: %1\n").arg(c.head_map ? QString::fromLatin1(head_map_source_name(c.head_map->source())) : QStringLiteral("none"));
    if (!s.stop_strings.empty()) {
        QStringList stops;
        for (const std::string& stop : s.stop_strings) stops << QStringLiteral("`%1`").arg(str(stop));
        md += QStringLiteral("- stop strings: %1\n").arg(stops.join(QStringLiteral(", ")));
    }
    md += QStringLiteral("\n## Output\n\n");
    md += QStringLiteral("%1 tokens, stopped by %2; prefill %3 ms, decode %4 ms.\n\n")
              .arg(c.trace.n_generated())
              .arg(QString::fromLatin1(stop_reason_name(g.stop_reason)))
              .arg(g.prefill_ms, 0, 'f', 1)
              .arg(g.decode_ms, 0, 'f', 1);
    md += fenced(str(g.text), QStringLiteral("text")) + QLatin1Char('\n');
    md += QStringLiteral("## Route\n\n");
    if (c.route) {
        md += QStringLiteral("%1 %2").arg(subsystem_id(c.route->route), subsystem_name(c.route->route));
        QStringList top;
        for (const RouteCandidate& cand : c.route->top3) top << QStringLiteral("%1 %2").arg(subsystem_id(cand.subsystem)).arg(cand.final_score, 0, 'f', 3);
        md += QStringLiteral(" (top 3: %1)\n\n").arg(top.join(QStringLiteral(", ")));
    } else {
        md += QStringLiteral("Not routed.\n\n");
    }
    md += QStringLiteral("## Advisor findings\n\n");
    if (c.findings.empty()) md += QStringLiteral("None.\n");
    for (const Finding& f : c.findings) {
        md += QStringLiteral("- %1 %2 (%3, %4, %5): “%6” %7\n")
                  .arg(subsystem_id(f.subsystem), str(f.rule), QString::fromLatin1(severity_name(f.severity)),
                       f.place == FindingPlace::Prompt ? QStringLiteral("prompt") : QStringLiteral("output"),
                       QString::fromLatin1(rule_source_name(f.source)), str(f.evidence).simplified(), str(f.detail.en));
    }
    md += QStringLiteral("\n## Reproduce\n\n");
    md += command_needs_head_map(c) ? QStringLiteral("In this folder (the command reads %1):\n\n").arg(QString::fromLatin1(kBugReportHeadMap))
                                    : QString();
    md += fenced(reproduce_command(c), QStringLiteral("sh")) + QLatin1Char('\n');
    md += QStringLiteral("Or repeat the capture and compare every token: `octoscope-cli replay run.octo`.\n\n");
    md += QStringLiteral("## Files\n\n");
    for (const QString& f : files) md += QStringLiteral("- `%1`\n").arg(f);
    return md;
}

} // namespace octo::ui
