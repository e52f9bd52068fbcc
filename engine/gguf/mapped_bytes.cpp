#include "engine/gguf/mapped_bytes.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace octo {

namespace {

Error io_error(const std::string& what, const std::string& path, int err) {
    return make_error(ErrorCode::Io, what + " '" + path + "': " + std::strerror(err));
}

} // namespace

Result<std::shared_ptr<const MappedBytes>> MappedBytes::map_file(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error("cannot open", path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return io_error("cannot stat", path, err);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return make_error(ErrorCode::Io, "not a regular file: '" + path + "'");
    }
    const auto size = static_cast<uint64_t>(st.st_size);
    if (size == 0) {
        ::close(fd);
        return std::shared_ptr<const MappedBytes>(new MappedBytes(nullptr, 0, false));
    }
    void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    int err = errno;
    ::close(fd);
    if (addr == MAP_FAILED) return io_error("cannot memory-map", path, err);
    return std::shared_ptr<const MappedBytes>(
        new MappedBytes(static_cast<const uint8_t*>(addr), size, true));
}

std::shared_ptr<const MappedBytes> MappedBytes::borrow(std::span<const uint8_t> bytes) {
    return std::shared_ptr<const MappedBytes>(new MappedBytes(bytes.data(), bytes.size(), false));
}

MappedBytes::~MappedBytes() {
    if (owned_ && data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

} // namespace octo
