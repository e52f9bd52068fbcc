// The examples file, resources/examples/octet_examples.json (resources/README.md): prompts the
// built-in model octet answers correctly, one or more per subsystem (rte-a … rte-h), in English
// and Chinese, and conversations. tests/engine/model/test_octet_examples.cpp runs every one through the
// engine and checks the answer the file states; Help → Examples… lists them (examples_dialog.h).
// Qt Core only, so the fuzz build reads the file as the workbench does
// (tests/fuzz/fuzz_workbench_files.cpp).
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

#include "engine/chat/chat_message.h"

namespace octo::ui {

struct OctetExample {
    int subsystem = 0;      // 0..7, rte-a first
    QString lang;           // the prompt's language: "en" or "zh"
    QString prompt;
    QString answer;         // what octet answers, exactly (greedy)
    QString description_en; // what the example shows, in each UI language
    QString description_zh;
};

// A conversation example ("conversations" in the same file): user turns octet answers one after
// the other (`answers`, what it says to each), or a conversation whose assistant turns are given
// (no answers: any model measures them as written, a coherence break to inspect).
struct ConversationExample {
    QString lang;
    std::vector<ChatMessage> messages;
    QStringList answers;
    QString description_en;
    QString description_zh;
};

// The examples file's path under a resource folder.
QString examples_path(const QString& resource_dir);
// Reads an examples file; on failure an empty list and `error` (naming the file) is set.
QList<OctetExample> load_examples(const QString& path, QString* error = nullptr);
// Its conversations; on failure an empty list and `error` set (a file without any is no error).
QList<ConversationExample> load_conversation_examples(const QString& path, QString* error = nullptr);
// The same from the file's bytes; `path` names it in errors.
QList<OctetExample> parse_examples(const QByteArray& bytes, const QString& path, QString* error = nullptr);
QList<ConversationExample> parse_conversation_examples(const QByteArray& bytes, const QString& path, QString* error = nullptr);
// The examples whose prompt is in `lang`, plus, for each subsystem that has none in `lang`, that
// subsystem's prompts in the other language (octet may answer only one form); by subsystem.
QList<OctetExample> examples_in(const QList<OctetExample>& all, const QString& lang);

} // namespace octo::ui
