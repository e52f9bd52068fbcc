// octoscope: the workbench GUI. Opens the built-in model unless --model names another.
//   octoscope [--model M] [--lang en|zh_CN] [--window-size WxH] [--layout L]
//             [--prompt T [--screenshot out.png | --soak N] [--max-tokens N]]
//             [--conversation FILE.json [--screenshot out.png]]
// With --screenshot it runs the prompt, waits for it to finish, saves the window at 1280 × 800
// (or exactly --window-size, e.g. 1366x768, to check a layout headless) and exits (works under QT_QPA_PLATFORM=offscreen), printing the longest UI-thread stall
// measured during the run (a 5 ms timer recording its own lateness). --soak N runs the prompt
// N times and prints the memory growth (app/gui/soak_benchmark.h). --conversation opens a file
// of OpenAI messages in the Conversation panel and runs it turn by turn (with --screenshot, the
// window is saved once its last turn has run). The UI language is the
// one chosen in View → Language, else the system locale's; --lang overrides it for this start.
// The log goes to <user data>/logs/octoscope.log and the log panel (ui/session/app_log.h); an
// interactive session is autosaved and offers its autosave back after a crash
// (ui/session/crash_recovery.h) — --screenshot and --soak runs leave the user's autosave alone.
#include <QApplication>
#include <QCoreApplication>
#include <QCommandLineParser>
#include <QRegularExpression>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTimer>

#include <cstdio>
#include <optional>
#include <string_view>

#include <spdlog/spdlog.h>

#include "app/common/builtin_model.h"
#include "app/common/resource_dir.h"
#include "app/gui/soak_benchmark.h"
#include "ui/panels/about_dialog.h"
#include "ui/session/app_log.h"
#include "ui/support/language.h"
#include "ui/controllers/run_controller.h"
#include "ui/main_window.h"
#include "ui/controllers/conversation_controller.h"
#include "ui/panels/prompt_panel.h"
#include "ui/session/conversation_store.h"
#include "ui/panels/switches_panel.h"
#include "ui/reports/stall_monitor.h"

namespace {

// The command line. Built once for the GUI and once, without a display, to answer --help and
// --version (a QCoreApplication parses those: no platform plugin is needed to print text).
struct CommandLine {
    QCommandLineParser parser;
    const QCommandLineOption model{QStringList{"m", "model"}, QApplication::translate("main", "GGUF model (default: built-in octet)"), "file"};
    const QCommandLineOption prompt{QStringList{"p", "prompt"}, QApplication::translate("main", "Prompt to run at start"), "text"};
    const QCommandLineOption screenshot{"screenshot", QApplication::translate("main", "Run --prompt or --conversation, save the window as PNG, exit"), "png"};
    const QCommandLineOption max_tokens{"max-tokens", QApplication::translate("main", "Tokens to generate"), "n"};
    const QCommandLineOption ignore_eos{"ignore-eos", QApplication::translate("main", "With --prompt: do not stop at end-of-generation tokens")};
    const QCommandLineOption conversation{"conversation", QApplication::translate("main", "Conversation to open and run at start (OpenAI messages, JSON)"), "file"};
    const QCommandLineOption soak{"soak", QApplication::translate("main", "Run --prompt N times, print the memory growth, exit"), "n"};
    const QCommandLineOption lang{"lang", QApplication::translate("main", "User interface language for this start: en or zh_CN"), "language"};
    const QCommandLineOption panel{"show-panel", QApplication::translate("main", "Bring this panel to the front (e.g. experts, attention, kv)"), "name"};
    const QCommandLineOption window_size{"window-size", QApplication::translate("main", "Window size for this start, e.g. 1366x768"), "WxH"};
    const QCommandLineOption layout{"layout", QApplication::translate("main", "Preset layout for this start: inspect, compare or teach"), "name"};

    CommandLine() {
        parser.setApplicationDescription(QCoreApplication::translate("main", "Octoscope workbench"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({model, prompt, conversation, screenshot, max_tokens, ignore_eos, soak, lang, panel, window_size, layout});
    }
};

void set_identity() {
    QCoreApplication::setOrganizationName(QStringLiteral("Octoscope"));
    QCoreApplication::setApplicationName(QStringLiteral("Octoscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OCTOSCOPE_VERSION));
    octo::ui::install_translations(octo::ui::resolve_language(octo::ui::saved_language_choice()));
}

bool asks_for_help_or_version(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "-h" || a == "-?" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version") return true;
    }
    return false;
}

// What the command line asks of this start beyond the model; the exit code (after saying why)
// when it asks for something impossible.
struct StartOptions {
    QSize size;                                   // invalid: the remembered or fitted geometry
    std::optional<octo::ui::LayoutPreset> preset; // --layout
    bool headless = false;                        // --screenshot
    int soak_runs = 0;                            // --soak
    bool conversation = false;                    // --conversation
};

std::optional<int> refuse_start(const CommandLine& cl, StartOptions& out) {
    const QCommandLineParser& parser = cl.parser;
    out.headless = parser.isSet(cl.screenshot);
    out.size = out.headless ? QSize(1280, 800) : QSize();
    if (parser.isSet(cl.window_size)) {
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^(\\d{3,5})x(\\d{3,5})$")).match(parser.value(cl.window_size));
        if (!m.hasMatch()) {
            std::fprintf(stderr, "octoscope: --window-size takes WIDTHxHEIGHT, e.g. 1366x768\n");
            return 2;
        }
        out.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    }
    if (parser.isSet(cl.layout)) {
        out.preset = octo::ui::parse_layout_preset(parser.value(cl.layout));
        if (!out.preset) {
            std::fprintf(stderr, "octoscope: --layout takes one of: inspect, compare, teach\n");
            return 2;
        }
    }
    if (parser.isSet(cl.lang)) {
        if (!octo::ui::ui_languages().contains(parser.value(cl.lang))) {
            std::fprintf(stderr, "octoscope: --lang takes one of: %s\n", octo::ui::ui_languages().join(", ").toStdString().c_str());
            return 2;
        }
        if (!octo::ui::install_translations(parser.value(cl.lang))) {
            std::fprintf(stderr, "octoscope: the %s translation is missing from this build\n", parser.value(cl.lang).toStdString().c_str());
            return 1;
        }
    }
    out.soak_runs = parser.isSet(cl.soak) ? parser.value(cl.soak).toInt() : 0;
    out.conversation = parser.isSet(cl.conversation);
    if (out.conversation && (parser.isSet(cl.prompt) || parser.isSet(cl.soak))) {
        std::fprintf(stderr, "octoscope: --conversation takes no --prompt or --soak\n");
        return 2;
    }
    if ((out.headless && !parser.isSet(cl.prompt) && !out.conversation) || (parser.isSet(cl.soak) && !parser.isSet(cl.prompt))) {
        std::fprintf(stderr, "octoscope: --screenshot needs --prompt or --conversation, --soak needs --prompt\n");
        return 2;
    }
    if (parser.isSet(cl.soak) && (out.soak_runs < 1 || out.headless)) {
        std::fprintf(stderr, "octoscope: --soak needs a positive run count and no --screenshot\n");
        return 2;
    }
    return std::nullopt;
}

// --model, else the model open when the workbench last closed, else the built-in one. Without a
// model a window says why; a headless start ends (its exit code).
std::optional<int> open_start_model(octo::ui::MainWindow& window, const CommandLine& cl, bool headless) {
    QString requested = cl.parser.value(cl.model);
    if (requested.isEmpty() && !headless) {
        const QString last = QSettings().value("lastModel").toString();
        if (!last.isEmpty() && QFileInfo::exists(last)) requested = last;
    }
    const auto path = octo::model_path_or_builtin(requested.toStdString());
    if (path) {
        window.openModel(QString::fromStdString(path.value()));
        return std::nullopt;
    }
    if (headless) {
        std::fprintf(stderr, "octoscope: %s\n", path.error().message.c_str());
        return 1;
    }
    QTimer::singleShot(0, &window, [&window, message = QString::fromStdString(path.error().message)] {
        QMessageBox::warning(&window, QApplication::translate("main", "No model"), message);
    });
    return std::nullopt;
}

// --prompt: shown in the editor now, run (or soaked) once the model has loaded.
void run_start_prompt(octo::ui::MainWindow& window, const CommandLine& cl, octo::ui::SoakBenchmark& soak, int soak_runs) {
    const QCommandLineParser& parser = cl.parser;
    octo::RunSpec typed = window.runs().editorSpec();
    typed.prompt = parser.value(cl.prompt).toStdString();
    window.runs().showSpec(typed);
    QObject::connect(&window.store(), &octo::ui::RunStore::modelLoaded, &window, [&window, &cl, &soak, soak_runs] {
        octo::RunSpec s = window.runs().editorSpec(); // the editor's run spec with the switches
        if (cl.parser.isSet(cl.max_tokens)) s.max_tokens = cl.parser.value(cl.max_tokens).toLongLong();
        window.runs().showSpec(s);
        if (soak_runs > 0) {
            soak.start();
        } else if (cl.parser.isSet(cl.ignore_eos)) {
            s.stop_at_eog = false;
            window.runs().submit(s);
        } else {
            window.runs().runPrompt();
        }
    });
}

// --conversation: opened in its panel and run by the first model loaded, once.
void run_start_conversation(octo::ui::MainWindow& window, const CommandLine& cl, bool headless) {
    auto* once = new QObject(&window);
    QObject::connect(&window.store(), &octo::ui::RunStore::modelLoaded, once, [&window, &cl, headless, once] {
        delete once;
        window.showPanel(QStringLiteral("conversation"));
        if (!window.workbench().conversationController().openFile(cl.parser.value(cl.conversation)) && headless) {
            std::fprintf(stderr, "octoscope: %s\n", window.statusBar()->currentMessage().toStdString().c_str());
            QApplication::exit(1);
        }
    });
}

// --window-size, else the remembered geometry, else the screen it opens on (never larger); the
// exit code when the size is below the window's minimum.
std::optional<int> size_window(octo::ui::MainWindow& window, QSize size) {
    if (!size.isValid()) {
        if (!QSettings().contains("window/geometry")) window.fitToScreen(); // a first start
        return std::nullopt;
    }
    if (size.width() < window.minimumSizeHint().width() || size.height() < window.minimumSizeHint().height()) {
        std::fprintf(stderr, "octoscope: --window-size %dx%d is below the window's minimum %dx%d\n", size.width(), size.height(),
                     window.minimumSizeHint().width(), window.minimumSizeHint().height());
        return 2;
    }
    window.resize(size);
    return std::nullopt;
}

// --screenshot: once the run (or the conversation's last turn) has settled, the window is saved
// and the program exits; a model that fails to load ends it too.
void screenshot_when_done(octo::ui::MainWindow& window, const CommandLine& cl, const octo::ui::StallMonitor& stalls, QSize size,
                          bool conversation) {
    QApplication* app = qApp;
    QObject::connect(&window.store(), &octo::ui::RunStore::loadFailed, app, [](const QString& message) {
        std::fprintf(stderr, "octoscope: %s\n", message.toStdString().c_str());
        QApplication::exit(1);
    });
    const auto save = [&window, &cl, app, size] {
        window.resize(size);
        QTimer::singleShot(200, app, [&window, &cl] { // let queued replots land
            const QString out = cl.parser.value(cl.screenshot);
            const bool ok = window.exportScreenshot(out);
            std::fprintf(stderr, ok ? "octoscope: wrote %s\n" : "octoscope: cannot write %s\n", out.toStdString().c_str());
            QApplication::exit(ok ? 0 : 1);
        });
    };
    if (conversation) {
        QObject::connect(&window.workbench().conversationController(), &octo::ui::ConversationController::busyChanged, app,
                         [&window, save](bool busy) {
                             if (busy) return;
                             const auto* current = window.workbench().conversations().current();
                             std::fprintf(stderr, "octoscope: conversation of %zu messages run\n", current ? current->turns.size() : size_t{0});
                             save();
                         });
        return;
    }
    QObject::connect(&window, &octo::ui::MainWindow::runSettled, app, [&window, &stalls, save] {
        const auto* run = window.store().current();
        std::fprintf(stderr, "octoscope: %zu tokens generated; longest UI-thread stall during the run %.1f ms\n",
                     run ? run->n_generated() : size_t{0}, stalls.worstMs());
        save();
    });
}

} // namespace

int main(int argc, char** argv) {
    if (asks_for_help_or_version(argc, argv)) {
        QCoreApplication core(argc, argv);
        set_identity();
        CommandLine help;
        help.parser.process(core); // prints and exits
        return 0;
    }
    QApplication app(argc, argv);
    set_identity();
    CommandLine cl;
    cl.parser.process(app);
    StartOptions start;
    if (auto refused = refuse_start(cl, start)) return *refused;

    QString log_error;
    octo::ui::install_app_log(&log_error);
    spdlog::info("Octoscope {} started (Qt {}, spdlog {})", OCTOSCOPE_VERSION, qVersion(), octo::ui::spdlog_version().toStdString());
    if (!log_error.isEmpty()) spdlog::warn("no log file: {}", log_error.toStdString());

    octo::ui::MainWindow window;
    if (auto dir = octo::resource_dir()) window.loadResources(QString::fromStdString(dir->string()));
    if (cl.parser.isSet(cl.panel) && !window.showPanel(cl.parser.value(cl.panel))) {
        std::fprintf(stderr, "octoscope: --show-panel takes one of: %s\n", window.panelNames().join(", ").toStdString().c_str());
        return 2;
    }
    octo::ui::SoakBenchmark soak_benchmark(window, start.soak_runs);
    if (auto failed = open_start_model(window, cl, start.headless)) return *failed;
    if (cl.parser.isSet(cl.prompt)) run_start_prompt(window, cl, soak_benchmark, start.soak_runs);
    if (start.conversation) run_start_conversation(window, cl, start.headless);
    octo::ui::StallMonitor stalls;
    QObject::connect(&window.store(), &octo::ui::RunStore::runChanged, &stalls, &octo::ui::StallMonitor::reset);
    if (auto too_small = size_window(window, start.size)) return *too_small;
    if (start.preset) QTimer::singleShot(0, &window, [&window, p = *start.preset] { window.applyLayout(p); });
    if (start.headless) screenshot_when_done(window, cl, stalls, start.size, start.conversation);
    window.show();
    if (!start.headless && start.soak_runs == 0) QTimer::singleShot(0, &window, [&window] { window.startSession(); });
    const int code = QApplication::exec();
    spdlog::info("Octoscope exits ({})", code);
    return code;
}
