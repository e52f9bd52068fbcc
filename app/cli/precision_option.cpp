#include "app/cli/precision_option.h"

namespace octo::cli {

void add_precision_option(CLI::App& cmd, std::optional<Precision>& precision, const std::string& name,
                          const std::string& whose, const std::string& fallback) {
    const std::string help = "Activations in quantised matrix products" + whose +
                             ": reference (quantised as llama.cpp does, so tokens match llama.cpp-based tools) "
                             "or exact (float). Default: " + fallback;
    cmd.add_option_function<std::string>(
           name, [&precision](const std::string& value) { precision = parse_precision(value); }, help)
        ->check(CLI::IsMember({std::string(precision_name(Precision::Reference)),
                               std::string(precision_name(Precision::Exact))}));
}

} // namespace octo::cli
