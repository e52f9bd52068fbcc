// The JSON form of a router decision (octoscope-cli route; docs/cli.md).
#pragma once

#include <nlohmann/json.hpp>

#include "engine/router/router.h"

namespace octo::cli {

nlohmann::json route_json(const RouteDecision& d, std::string_view prompt, const char* embedding);

} // namespace octo::cli
