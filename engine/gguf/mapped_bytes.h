// The bytes of a model file: a read-only memory map, or a caller-owned buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "engine/core/result.h"

namespace octo {

class MappedBytes {
public:
    // Maps the whole file read-only. Errors name the path and the OS reason.
    static Result<std::shared_ptr<const MappedBytes>> map_file(const std::string& path);
    // Wraps bytes owned by the caller (they must outlive every user).
    static std::shared_ptr<const MappedBytes> borrow(std::span<const uint8_t> bytes);

    ~MappedBytes();
    MappedBytes(const MappedBytes&) = delete;
    MappedBytes& operator=(const MappedBytes&) = delete;

    std::span<const uint8_t> bytes() const { return {data_, size_}; }

private:
    MappedBytes(const uint8_t* data, uint64_t size, bool owned) : data_(data), size_(size), owned_(owned) {}
    const uint8_t* data_;
    uint64_t size_;
    bool owned_; // munmap on destruction
};

} // namespace octo
