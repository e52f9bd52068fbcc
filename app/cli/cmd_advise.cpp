// octoscope-cli advise: the advisor's findings for a prompt and, with --output-file, for a run's
// output (engine/advisor; rules in resources/rules/advisor_rules.json, docs/advisor.md). Loads
// no model.
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/common/resource_dir.h"
#include "engine/advisor/output_checks.h"
#include "engine/advisor/prompt_detectors.h"
#include "engine/instrumentation/subsystem.h"

namespace octo::cli {

namespace {

struct AdviseOptions {
    std::string prompt;
    std::string output_file;
    std::string rules;
    bool json = false;
};

Result<AdvisorRules> load_rules(const std::string& path) {
    if (!path.empty()) return AdvisorRules::load(path);
    auto dir = resource_dir();
    if (!dir) return dir.error();
    return AdvisorRules::load_default(dir.value().string());
}

nlohmann::json finding_json(const AdvisorRules& rules, const Finding& f) {
    const AdvisorRule* rule = rules.find(f.rule);
    return {{"rule", f.rule},
            {"subsystem", std::string(subsystem_id(f.subsystem))},
            {"severity", severity_name(f.severity)},
            {"span", {{"in", finding_place_name(f.place)}, {"start", f.start}, {"end", f.end}}},
            {"evidence", valid_utf8(f.evidence)},
            {"detail", valid_utf8(f.detail.en)},
            {"suggestion", rule ? rule->suggestion.en : std::string()},
            {"source", rule_source_name(f.source)}};
}

int run_advise(const AdviseOptions& o) {
    auto rules = load_rules(o.rules);
    if (!rules) return report_error(o.json, rules.error());
    std::vector<Finding> findings = check_prompt(*rules, o.prompt);
    if (!o.output_file.empty()) {
        auto output = read_file_bytes(o.output_file, "output file");
        if (!output) return report_error(o.json, output.error());
        for (Finding& f : check_output(*rules, o.prompt, output.value())) findings.push_back(std::move(f));
    }
    if (o.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const Finding& f : findings) list.push_back(finding_json(*rules, f));
        print_json({{"findings", list}});
        return kExitOk;
    }
    if (findings.empty()) std::cout << "no findings\n";
    for (const Finding& f : findings) {
        const nlohmann::json j = finding_json(*rules, f);
        std::cout << subsystem_id(f.subsystem) << "  " << severity_name(f.severity) << "  " << f.rule << "  ("
                  << rule_source_name(f.source) << ")\n  " << finding_place_name(f.place) << " bytes " << f.start
                  << ".." << f.end << ": \"" << j["evidence"].get<std::string>() << "\"\n";
        if (!f.detail.en.empty()) std::cout << "  " << j["detail"].get<std::string>() << '\n';
        std::cout << "  suggestion: " << j["suggestion"].get<std::string>() << '\n';
    }
    return kExitOk;
}

} // namespace

void add_advise_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<AdviseOptions>();
    CLI::App* cmd = app.add_subcommand("advise", "Advisor findings for a prompt and, optionally, a run's output");
    cmd->add_option("--prompt,-p", o->prompt, "The prompt")->required();
    cmd->add_option("--output-file", o->output_file, "A run's output to check (read byte for byte)");
    cmd->add_option("--rules", o->rules, "Advisor rule file (default: resources/rules/advisor_rules.json)");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([&run, o] { run = [o] { return run_advise(*o); }; });
}

} // namespace octo::cli
