// octoscope-cli coherence: the coherence measures on text alone (docs/coherence.md) — a
// transcript's findings (--conversation), or precision and recall on a labelled set (--set), with
// the thresholds chosen on a calibration set first (--calibrate).
#include <cstdio>
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/common/resource_dir.h"
#include "engine/chat/chat_messages_json.h"
#include "engine/conversation/coherence_eval.h"

namespace octo::cli {

namespace {

struct CoherenceOptions {
    std::string conversation;
    std::string set;
    std::string calibrate;
    bool json = false;
};

void print_score(const CoherenceScore& s, const CoherenceThresholds& t) {
    std::printf("thresholds: sentiment jump %.2f, number tolerance %.3f\n", t.sentiment_jump, t.number_tolerance);
    auto row = [](const char* name, const DetectionScore& d) {
        std::printf("%-20s precision %5.1f %% [%5.1f, %5.1f]  recall %5.1f %% [%5.1f, %5.1f]  (tp %lld, fp %lld, fn %lld)\n", name,
                    100 * d.precision(), 100 * d.precision_ci().lo, 100 * d.precision_ci().hi, 100 * d.recall(),
                    100 * d.recall_ci().lo, 100 * d.recall_ci().hi, static_cast<long long>(d.true_positives),
                    static_cast<long long>(d.false_positives), static_cast<long long>(d.false_negatives));
    };
    for (size_t k = 0; k < kCoherenceKinds; ++k) row(coherence_kind_name(static_cast<CoherenceKind>(k)), s.kinds[k]);
    row("all", s.all);
    for (const std::string& m : s.missed) std::printf("missed:   %s\n", m.c_str());
    for (const std::string& m : s.spurious) std::printf("spurious: %s\n", m.c_str());
}

int run_coherence(const CoherenceOptions& o) {
    auto dir = resource_dir();
    if (!dir) return report_error(o.json, dir.error());
    auto lexicon = read_default_sentiment_lexicon(dir->string());
    if (!lexicon) return report_error(o.json, lexicon.error());
    if (!o.conversation.empty()) {
        auto messages = read_conversation_file(o.conversation);
        if (!messages) return report_error(o.json, messages.error());
        const CoherenceReport report = measure_coherence(messages.value(), lexicon.value());
        if (o.json) {
            print_json(coherence_json(report, messages.value()));
        } else {
            std::cout << report.findings.size() << " finding(s)\n";
            for (const CoherenceFinding& f : report.findings) std::cout << "  " << coherence_kind_name(f.kind) << ": " << f.explanation << "\n";
        }
        return kExitOk;
    }
    CoherenceThresholds thresholds;
    if (!o.calibrate.empty()) {
        auto calibration = read_coherence_set(o.calibrate);
        if (!calibration) return report_error(o.json, calibration.error());
        thresholds = calibrate_coherence(calibration.value(), lexicon.value());
    }
    auto set = read_coherence_set(o.set);
    if (!set) return report_error(o.json, set.error());
    const CoherenceScore score = score_coherence(set.value(), lexicon.value(), thresholds);
    if (o.json) {
        nlohmann::json j = coherence_score_json(score, thresholds);
        j["conversations"] = set->size();
        print_json(j);
    } else {
        std::printf("%zu conversations\n", set->size());
        print_score(score, thresholds);
    }
    return kExitOk;
}

} // namespace

void add_coherence_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<CoherenceOptions>();
    CLI::App* cmd = app.add_subcommand("coherence", "Multi-turn coherence on text alone: a transcript's findings, or precision and recall on a labelled set");
    auto* conversation = cmd->add_option("--conversation", o->conversation, "A conversation file (OpenAI messages): its findings");
    auto* set = cmd->add_option("--set", o->set, "A labelled set (resources/coherence/heldout.json): precision and recall");
    cmd->add_option("--calibrate", o->calibrate, "Choose the thresholds on this labelled set first (resources/coherence/calibration.json)")
        ->needs(set);
    conversation->excludes(set);
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([&run, o, conversation, set] {
        run = [o, conversation, set] {
            if (conversation->count() == 0 && set->count() == 0) return report_error(o->json, "give --conversation or --set", kExitUsage);
            return run_coherence(*o);
        };
    });
}

} // namespace octo::cli
