#include "app/common/process_memory.h"

#include <fstream>

#include <unistd.h>

namespace octo {

std::optional<uint64_t> resident_memory_bytes() {
    std::ifstream statm("/proc/self/statm");
    uint64_t total_pages = 0, resident_pages = 0;
    if (!(statm >> total_pages >> resident_pages)) return std::nullopt;
    const long page = ::sysconf(_SC_PAGESIZE);
    if (page <= 0) return std::nullopt;
    return resident_pages * static_cast<uint64_t>(page);
}

} // namespace octo
