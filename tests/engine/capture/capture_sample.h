// A capture of a real run on a small random-weight octet model (router gates, dla and attention
// recorded; reference precision), with every optional part filled in, for the capture tests.
#pragma once

#include "engine/capture/capture.h"

namespace octo::test {

// n_generated tokens after the prompt "ab c"; deterministic.
Capture sample_capture(int64_t n_generated = 3);

} // namespace octo::test
