// Saving and opening `.octo` captures (docs/capture-format.md): the Capture (capture.h) as a
// CBOR payload (capture_payload.h) in the compressed, checksummed container
// (capture_container.h). Opening checks everything and never trusts a length; every error is
// a Result naming the file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/capture/capture.h"
#include "engine/core/result.h"

namespace octo {

// The file's bytes. InvalidArgument when the capture is too large for the format.
Result<std::string> serialize_capture(const Capture& capture);

// The capture in `bytes`; errors (Format) start with `origin`.
Result<Capture> parse_capture(std::span<const uint8_t> bytes, const std::string& origin);

// serialize_capture, then write_file_atomic.
Status save_capture(const Capture& capture, const std::string& path);

// Reads and parses the file (Io when it cannot be read).
Result<Capture> open_capture(const std::string& path);

// The payload's size when uncompressed, for reports (the header's field; 0 when unreadable).
uint64_t capture_payload_bytes(std::span<const uint8_t> bytes);

// A capture's CBOR payload parsed, refused (Format, naming `origin`) when it is not CBOR, nests
// deeper than a capture does (the CBOR parser recurses per level) or holds more values than a
// capture could: what parse_capture reads its payload with, for any untrusted CBOR.
Result<nlohmann::json> parse_capture_cbor(std::string_view payload, const std::string& origin);

} // namespace octo
