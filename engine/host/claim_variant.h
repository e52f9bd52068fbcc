// The claims lab's view of opened models: the loaded one (claim_model_of), and a further model
// (ClaimLabOptions::open_model) opened by open_model onto the backend that runs the loaded one,
// so a variant gets the same set-up — tokenizer, head map, KV pool, ModelInfo — as every model
// the workbench and the CLI open.
#pragma once

#include <string>

#include "engine/backend/backend.h"
#include "engine/claims/claim_lab.h"
#include "engine/core/result.h"
#include "engine/host/model_setup.h"

namespace octo {

// `opened` as the lab measures it, run on `backend`, named `name` in reports.
ClaimModel claim_model_of(const OpenedModel& opened, Backend& backend, std::string name);

Result<ClaimVariant> open_claim_variant(const std::string& path, Backend& backend);

} // namespace octo
