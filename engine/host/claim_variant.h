// The claims lab's way to open a further model (ClaimLabOptions::open_model): open_model onto
// the backend that runs the loaded model, so a variant gets the same set-up — tokenizer, head
// map, KV pool, ModelInfo — as every model the workbench and the CLI open.
#pragma once

#include <string>

#include "engine/backend/backend.h"
#include "engine/claims/claim_lab.h"
#include "engine/core/result.h"

namespace octo {

Result<ClaimVariant> open_claim_variant(const std::string& path, Backend& backend);

} // namespace octo
