// The capture's payload as a CBOR tree (docs/capture-format.md, "Payload"): encode_capture
// builds it from a Capture, decode_capture checks every field and array length and gives the
// Capture back (floats bit for bit).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/capture/capture.h"
#include "engine/core/result.h"

namespace octo {

nlohmann::json encode_capture(const Capture& capture);

// `version`: the container's format version (1 … kCaptureFormatVersion); fields a version
// lacks get the value its runs had. Errors (Format) start with `origin` and name the
// offending field.
Result<Capture> decode_capture(const nlohmann::json& payload, const std::string& origin,
                               uint32_t version = kCaptureFormatVersion);

} // namespace octo
