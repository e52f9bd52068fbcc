// Fuzz target: arbitrary bytes through the capture reader (engine/capture/capture_io.h) —
// header, checksum, decompression limits, CBOR parsing and every field check. Any crash,
// sanitizer report or unbounded allocation is a finding.
//
// The checksum would stop almost every mutation at the header, so the target also reseals the
// input (recomputes the checksum over it) and parses that, which lets the fuzzer reach the
// decompressor and the payload decoder.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "engine/capture/capture_container.h"
#include "engine/capture/capture_io.h"
#include "engine/core/le_bytes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)octo::parse_capture(std::span<const uint8_t>(data, size), "fuzz.octo");
    if (size < octo::kCaptureHeaderBytes) return 0;
    std::vector<uint8_t> sealed(data, data + size);
    std::vector<uint8_t> covered(sealed.begin(), sealed.begin() + 32);
    covered.insert(covered.end(), sealed.begin() + octo::kCaptureHeaderBytes, sealed.end());
    octo::store_le64(sealed.data() + 32, XXH3_64bits(covered.data(), covered.size()));
    (void)octo::parse_capture(sealed, "fuzz.octo");
    return 0;
}
