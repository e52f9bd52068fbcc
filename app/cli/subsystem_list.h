// The `--disable rte-c,rte-f` option of generate and eval: comma-separated subsystem ids,
// repeatable.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/result.h"
#include "engine/instrumentation/subsystem.h"

namespace octo::cli {

// The set named by the items; InvalidArgument naming `option` and the unknown id otherwise.
Result<std::array<bool, kSubsystemCount>> parse_subsystem_list(const std::vector<std::string>& items,
                                                               const std::string& option);

// The ids of the set, rte-a first.
nlohmann::json subsystem_list_json(const std::array<bool, kSubsystemCount>& set);

} // namespace octo::cli
