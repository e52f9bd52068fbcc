// SHA-256 (FIPS 180-4) of bytes or a file, as lower-case hex — the model identity that
// calibrated head maps are keyed by.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <string>

#include "engine/core/result.h"

namespace octo {

class Sha256 {
public:
    Sha256();
    void update(std::span<const uint8_t> bytes);
    std::array<uint8_t, 32> finish();

private:
    void block(const uint8_t* p);

    std::array<uint32_t, 8> h_;
    std::array<uint8_t, 64> buffer_{};
    size_t buffered_ = 0;
    uint64_t length_ = 0; // bytes
};

std::string sha256_hex(std::span<const uint8_t> bytes);
// Reads the file in chunks; Io error when it cannot be read, Cancelled when `cancel` is set
// (checked between 1 MiB chunks).
Result<std::string> sha256_file(const std::string& path, const std::atomic<bool>* cancel = nullptr);

} // namespace octo
