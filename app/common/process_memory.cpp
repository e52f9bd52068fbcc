#include "app/common/process_memory.h"

#include <fstream>
#include <sstream>
#include <string>

namespace octo {

std::optional<ResidentMemory> resident_memory() {
    std::ifstream status("/proc/self/status");
    std::optional<uint64_t> rss, hwm;
    std::string line;
    while (std::getline(status, line)) {
        const auto field = [&](const char* key, std::optional<uint64_t>& out) {
            const std::string k(key);
            if (line.rfind(k, 0) != 0) return;
            std::istringstream value(line.substr(k.size()));
            uint64_t kib = 0;
            if (value >> kib) out = kib * 1024; // "VmRSS:    123456 kB"
        };
        field("VmRSS:", rss);
        field("VmHWM:", hwm);
    }
    if (!rss || !hwm) return std::nullopt;
    return ResidentMemory{*rss, *hwm};
}

} // namespace octo
