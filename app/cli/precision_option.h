// The `--precision reference|exact` option of the commands that run a model (docs/cli.md,
// "Precision"): how matrix products treat activations (engine/backend/precision.h). Not given:
// the model's default (exact for octet, reference otherwise).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "engine/backend/precision.h"

namespace octo::cli {

// Adds `name` (e.g. "--precision") to `cmd`; another value than reference or exact is a usage
// error naming both. `precision` stays nullopt when the option is not given. The help reads
// "Activations in quantised matrix products<whose>: … Default: <fallback>".
void add_precision_option(CLI::App& cmd, std::optional<Precision>& precision, const std::string& name = "--precision",
                          const std::string& whose = "",
                          const std::string& fallback = "the model's (exact for octet, reference otherwise)");

} // namespace octo::cli
