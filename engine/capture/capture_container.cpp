#include "engine/capture/capture_container.h"

#include <cstring>

#include <xxhash.h>
#include <zstd.h>

#include "engine/capture/capture.h"
#include "engine/core/le_bytes.h"

namespace octo {

namespace {

constexpr char kMagic[8] = {'O', 'C', 'T', 'O', 'C', 'A', 'P', '\0'};
constexpr int kZstdLevel = 9;

// XXH3-64 of the header's first 32 bytes followed by the payload.
uint64_t container_checksum(const uint8_t* header, std::span<const uint8_t> payload) {
    XXH3_state_t* state = XXH3_createState();
    XXH3_64bits_reset(state);
    XXH3_64bits_update(state, header, 32);
    XXH3_64bits_update(state, payload.data(), payload.size());
    const uint64_t sum = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    return sum;
}

Error format_error(const std::string& origin, const std::string& what) {
    return make_error(ErrorCode::Format, origin + ": " + what);
}

} // namespace

Result<std::string> pack_capture_container(std::string_view payload, uint32_t version) {
    if (payload.size() > kCaptureMaxPayloadBytes) {
        return make_error(ErrorCode::InvalidArgument,
                          "the capture is " + std::to_string(payload.size()) + " bytes uncompressed, more than the " +
                              std::to_string(kCaptureMaxPayloadBytes) + " a capture may hold (record fewer tokens or no attention)");
    }
    std::string out(kCaptureHeaderBytes + ZSTD_compressBound(payload.size()), '\0');
    auto* header = reinterpret_cast<uint8_t*>(out.data());
    const size_t compressed = ZSTD_compress(out.data() + kCaptureHeaderBytes, out.size() - kCaptureHeaderBytes,
                                            payload.data(), payload.size(), kZstdLevel);
    if (ZSTD_isError(compressed)) {
        return make_error(ErrorCode::InvalidArgument, std::string("zstd compression failed: ") + ZSTD_getErrorName(compressed));
    }
    out.resize(kCaptureHeaderBytes + compressed);
    header = reinterpret_cast<uint8_t*>(out.data());
    std::memcpy(header, kMagic, sizeof kMagic);
    store_le32(header + 8, version);
    store_le32(header + 12, 0);
    store_le64(header + 16, compressed);
    store_le64(header + 24, payload.size());
    store_le64(header + 32, container_checksum(header, {header + kCaptureHeaderBytes, compressed}));
    return out;
}

Result<std::string> unpack_capture_container(std::span<const uint8_t> bytes, const std::string& origin) {
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
        return format_error(origin, "not an Octoscope capture (the file does not start with \"OCTOCAP\")");
    }
    if (bytes.size() < kCaptureHeaderBytes) {
        return format_error(origin, "truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                                        std::to_string(kCaptureHeaderBytes) + "-byte header");
    }
    const uint8_t* h = bytes.data();
    const uint32_t version = load_le32(h + 8);
    if (version > kCaptureFormatVersion) {
        return format_error(origin, "capture format version " + std::to_string(version) +
                                        " is newer than this Octoscope supports (" +
                                        std::to_string(kCaptureFormatVersion) + ")");
    }
    if (version == 0) return format_error(origin, "capture format version 0 does not exist");
    if (const uint32_t flags = load_le32(h + 12); flags != 0) {
        return format_error(origin, "unknown header flags " + std::to_string(flags) + " (version " +
                                        std::to_string(version) + " has none)");
    }
    const uint64_t compressed = load_le64(h + 16);
    const uint64_t uncompressed = load_le64(h + 24);
    const uint64_t available = bytes.size() - kCaptureHeaderBytes;
    if (compressed > available) {
        return format_error(origin, "truncated: the header announces " + std::to_string(compressed) +
                                        " payload bytes, the file holds " + std::to_string(available));
    }
    if (compressed < available) {
        return format_error(origin, std::to_string(available - compressed) + " unexpected bytes after the payload");
    }
    const std::span<const uint8_t> payload = bytes.subspan(kCaptureHeaderBytes);
    if (load_le64(h + 32) != container_checksum(h, payload)) {
        return format_error(origin, "checksum mismatch: the file is corrupt");
    }
    if (uncompressed > kCaptureMaxPayloadBytes || uncompressed > compressed * kCaptureMaxExpansion) {
        return format_error(origin, "the payload would decompress to " + std::to_string(uncompressed) +
                                        " bytes, over the limit (2 GiB and 1000 times its compressed size)");
    }
    const unsigned long long frame = ZSTD_getFrameContentSize(payload.data(), payload.size());
    if (frame != uncompressed) {
        return format_error(origin, "the compressed payload's size does not match the header");
    }
    std::string out(static_cast<size_t>(uncompressed), '\0');
    const size_t got = ZSTD_decompress(out.data(), out.size(), payload.data(), payload.size());
    if (ZSTD_isError(got)) {
        return format_error(origin, std::string("the payload does not decompress: ") + ZSTD_getErrorName(got));
    }
    if (got != uncompressed) return format_error(origin, "the payload decompresses to fewer bytes than the header says");
    return out;
}

uint32_t capture_container_version(std::span<const uint8_t> bytes) {
    return bytes.size() < kCaptureHeaderBytes ? 0 : load_le32(bytes.data() + 8);
}

} // namespace octo
