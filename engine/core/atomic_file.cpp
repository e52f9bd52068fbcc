#include "engine/core/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace octo {

namespace {

Error io_error(const std::string& what, const std::filesystem::path& file, int err) {
    return Error{ErrorCode::Io, what + " " + file.string() + ": " + std::strerror(err)};
}

// Writes all of `bytes` to `fd` and flushes them to the disk; 0 or an errno.
int write_all_and_sync(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        bytes.remove_prefix(static_cast<size_t>(n));
    }
    return ::fsync(fd) == 0 ? 0 : errno;
}

} // namespace

Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes) {
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return make_error(ErrorCode::Io, "cannot create " + path.parent_path().string() + ": " + ec.message());
    const std::filesystem::path tmp = path.string() + ".tmp" + std::to_string(::getpid()); // one per writer
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return io_error("cannot create", tmp, errno);
    const int write_err = write_all_and_sync(fd, bytes);
    const int close_err = ::close(fd) == 0 ? 0 : errno;
    if (write_err != 0 || close_err != 0) {
        std::filesystem::remove(tmp, ec);
        return io_error("cannot write", path, write_err != 0 ? write_err : close_err);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        std::filesystem::remove(tmp, ec);
        return io_error("cannot replace", path, err);
    }
    return Ok{};
}

} // namespace octo
