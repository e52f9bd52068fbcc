// One claim's verdict as a picture, written without Qt (the CLI's --report and the workbench's
// export both write it, docs/claims.md "Reports"): on one axis in the claim's unit, the measured
// value with its 95 % interval, the shuffled-map control's (when the claim has one), the
// threshold that "holds" must clear (dashed) and the article's figure (a diamond, when it is a
// number). The protocol's own plot (bars, profiles, matrix, histogram) is the workbench's; this
// strip is what every claim has in common.
#pragma once

#include <string>

#include "engine/claims/claim_catalog.h"
#include "engine/claims/claim_lab.h"

namespace octo {

// An SVG document (UTF-8, 800 × 190 user units); empty when the claim has no estimate. Elements
// the tests find by id: "measured-ci", "measured", "control-ci", "threshold", "article".
std::string verdict_svg(const Claim& claim, const ClaimResult& result, bool chinese = false);

} // namespace octo
