// Fuzz target: the files the workbench reads at start-up, from untrusted bytes, read by the same
// Qt Core code the workbench runs (the fuzz build links Qt Core, not the widgets). The first
// byte picks the file, the rest is its content:
//   0  <user data>/autosave/session.json, the autosaved session (ui/session/autosave_files.h):
//      what is accepted is written as the next autosave writes it and read back — the same
//      session (prompt, settings, switches, model, metric, conversation);
//   1  <user data>/autosave/session.lock, the crash marker: a process id ≥ 0 and a valid start,
//      the same after being written and read again;
//   2  resources/examples/octet_examples.json, the examples file (ui/panels/examples_file.h):
//      accepted examples name a subsystem rte-a … rte-h, a language en or zh, a prompt and an
//      answer; each subsystem with examples keeps some in either language's list; conversations
//      have messages.
//   3  index.json of an exported session (ui/session/session_archive.h): accepted runs name
//      plain .octo files inside the folder, none twice; written again it reads back the same.
// Any crash, sanitizer report, exception or a broken property is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <QByteArray>
#include <QDateTime>

#include "ui/panels/examples_file.h"
#include "ui/session/autosave_files.h"
#include "ui/session/session_archive.h"
#include "ui/session/session_state.h"

namespace {

void check_autosave(const QByteArray& bytes) {
    auto a = octo::ui::parse_autosave(bytes, "session.json");
    if (!a) return;
    const octo::ui::SessionState& s = a.value().state;
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(1796000000000, Qt::UTC);
    auto back = octo::ui::parse_autosave(octo::ui::autosave_bytes(octo::ui::session_to_json(s), at), "session.json");
    if (!back) std::abort(); // what the workbench writes must read
    const octo::ui::SessionState& t = back.value().state;
    if (!(t.spec == s.spec) || t.model_path != s.model_path || t.metric != s.metric || t.conversation != s.conversation) std::abort();
    if (back.value().saved_at != at) std::abort();
}

void check_marker(const QByteArray& bytes) {
    const octo::ui::SessionMarker m = octo::ui::parse_marker(bytes);
    if (m.pid < 0 || !m.started_at.isValid()) std::abort();
    const octo::ui::SessionMarker back = octo::ui::parse_marker(octo::ui::marker_bytes(m));
    if (back.pid != m.pid || back.started_at != m.started_at) std::abort();
}

void check_examples(const QByteArray& bytes) {
    QString error;
    const QList<octo::ui::OctetExample> all = octo::ui::parse_examples(bytes, QStringLiteral("octet_examples.json"), &error);
    if (all.isEmpty() && !error.startsWith(QStringLiteral("octet_examples.json: "))) std::abort();
    bool has[8] = {};
    for (const octo::ui::OctetExample& e : all) {
        if (e.subsystem < 0 || e.subsystem > 7 || (e.lang != QStringLiteral("en") && e.lang != QStringLiteral("zh"))) std::abort();
        if (e.prompt.isEmpty() || e.answer.isEmpty()) std::abort();
        has[e.subsystem] = true;
    }
    for (const QString lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        bool listed[8] = {};
        for (const octo::ui::OctetExample& e : octo::ui::examples_in(all, lang)) listed[e.subsystem] = true;
        for (int s = 0; s < 8; ++s) {
            if (listed[s] != has[s]) std::abort();
        }
    }
    QString conversation_error;
    for (const octo::ui::ConversationExample& c :
         octo::ui::parse_conversation_examples(bytes, QStringLiteral("octet_examples.json"), &conversation_error)) {
        if (c.messages.empty() || (c.lang != QStringLiteral("en") && c.lang != QStringLiteral("zh"))) std::abort();
    }
}

void check_session_index(const QByteArray& bytes) {
    auto index = octo::ui::parse_session_index(bytes);
    if (!index) return;
    for (const auto& run : index->runs) {
        if (run.file.contains(QLatin1Char('/')) || run.file.contains(QLatin1Char('\\')) || run.file.startsWith(QLatin1Char('.')) ||
            !run.file.endsWith(QLatin1String(".octo"))) {
            std::abort();
        }
    }
    auto back = octo::ui::parse_session_index(octo::ui::session_index_bytes(*index));
    if (!back || !(back->runs == index->runs) || back->skipped != index->skipped || back->app_version != index->app_version) std::abort();
    if (back->exported_at.toMSecsSinceEpoch() != index->exported_at.toMSecsSinceEpoch()) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const QByteArray bytes(reinterpret_cast<const char*>(data + 1), static_cast<qsizetype>(size - 1));
    switch (data[0] % 4) {
    case 0: check_autosave(bytes); break;
    case 1: check_marker(bytes); break;
    case 2: check_examples(bytes); break;
    default: check_session_index(bytes); break;
    }
    return 0;
}
