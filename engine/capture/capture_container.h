// The `.octo` container (docs/capture-format.md, "Container"): a 40-byte header, then a
// zstd-compressed payload.
//
//   offset  size  field
//        0     8  magic "OCTOCAP\0"
//        8     4  format version (u32, little-endian)
//       12     4  flags (u32; 0 in versions 1 and 2, anything else is rejected)
//       16     8  compressed payload length in bytes (u64)
//       24     8  uncompressed payload length in bytes (u64)
//       32     8  XXH3-64 (seed 0) of bytes 0..31 followed by the compressed payload (u64)
//       40     …  the payload: one zstd frame, exactly `compressed length` bytes, then end of file
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/core/result.h"

namespace octo {

inline constexpr size_t kCaptureHeaderBytes = 40;
// Decompression limits: a payload of at most 2 GiB and at most 1000 times its compressed size.
inline constexpr uint64_t kCaptureMaxPayloadBytes = uint64_t{2} << 30;
inline constexpr uint64_t kCaptureMaxExpansion = 1000;

// Header and compressed payload. InvalidArgument when the payload exceeds the limit.
Result<std::string> pack_capture_container(std::string_view payload, uint32_t version);

// The uncompressed payload after checking everything above. Errors (Format) start with
// `origin` (the file name) and say what is wrong; a newer version says so.
Result<std::string> unpack_capture_container(std::span<const uint8_t> bytes, const std::string& origin);

// The header's format version (0 when `bytes` is shorter than the header); read it after
// unpack_capture_container accepted the file.
uint32_t capture_container_version(std::span<const uint8_t> bytes);

} // namespace octo
