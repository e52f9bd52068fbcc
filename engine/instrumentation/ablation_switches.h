// The switches a run turns off inside the model, as a request names them: experts left out of the
// routers' choice, how an ablated head's output is replaced, and what a subsystem switch turns off.
// Plain values with their names; forward_probe.h turns them into the forward pass's ablations.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/result.h"

namespace octo {

// One "layer:expert" switch of --disable-expert; layer -1 means every layer ("*:E").
struct ExpertSwitch {
    int64_t layer = -1;
    int64_t expert = 0;
    bool operator==(const ExpertSwitch&) const = default;
};

// "3:5", "*:2" -> the switch; InvalidArgument with the expected form otherwise.
Result<ExpertSwitch> parse_expert_switch(std::string_view text);
std::string expert_switch_text(const ExpertSwitch& s); // "3:5", "*:2"

enum class AblationMode {
    Zero, // z_h := 0
    Mean, // z_h := baseline mean of z_h
};
const char* ablation_mode_name(AblationMode mode); // "zero", "mean"

// What disabling a subsystem switches off: its heads (under the head map), or on a mixture of
// experts with a calibrated expert map the experts that map assigns to it (docs/moe.md).
enum class SwitchTarget { Heads, Experts };
const char* switch_target_name(SwitchTarget target); // "heads", "experts"

} // namespace octo
