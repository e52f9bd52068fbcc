#include "app/cli/bench_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <cctype>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace octo::cli {

namespace {

std::string read_line(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// "32768K", "32M", "1G" or plain bytes; 0 when unreadable.
uint64_t parse_cache_size(const std::string& text) {
    size_t end = 0;
    uint64_t v = 0;
    try {
        v = std::stoull(text, &end);
    } catch (...) {
        return 0;
    }
    const char unit = end < text.size() ? text[end] : ' ';
    if (unit == 'K') return v << 10;
    if (unit == 'M') return v << 20;
    if (unit == 'G') return v << 30;
    return v;
}

// From /sys: the highest level's size × its distinct instances; 0 when there is no such folder.
uint64_t sysfs_last_level_cache_bytes() {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path root = "/sys/devices/system/cpu";
    std::map<int, std::pair<uint64_t, std::set<std::string>>> levels; // level -> size, instances
    for (const auto& cpu : fs::directory_iterator(root, ec)) {
        const std::string name = cpu.path().filename().string();
        if (name.size() < 4 || name.rfind("cpu", 0) != 0 || !std::isdigit(static_cast<unsigned char>(name[3]))) continue;
        for (const auto& index : fs::directory_iterator(cpu.path() / "cache", ec)) {
            if (read_line(index.path() / "type") == "Instruction") continue;
            int level = 0;
            try {
                level = std::stoi(read_line(index.path() / "level"));
            } catch (...) {
                continue;
            }
            const uint64_t size = parse_cache_size(read_line(index.path() / "size"));
            if (size == 0) continue;
            auto& [level_size, instances] = levels[level];
            level_size = std::max(level_size, size);
            instances.insert(read_line(index.path() / "shared_cpu_list"));
        }
    }
    if (levels.empty()) return 0;
    const auto& [size, instances] = levels.rbegin()->second;
    return size * std::max<uint64_t>(1, instances.size());
}

// Sum of the words, read a cache line per step into two independent sums. One clone per
// instruction level, picked at load time: with 16-byte loads and one running sum (the plain loop)
// the CPU keeps fewer lines in flight, and on the machine of docs/performance.md it measured
// ~12 % less than 64-byte loads.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define OCTO_READ_CLONES __attribute__((target_clones("avx512f", "arch=x86-64-v3", "default")))
#else
#define OCTO_READ_CLONES
#endif
OCTO_READ_CLONES
uint64_t sum_words(const uint64_t* words, size_t n) {
    using Line = uint64_t __attribute__((vector_size(64))); // 8 words
    Line a{}, b{};
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        Line x, y;
        std::memcpy(&x, words + i, sizeof x);
        std::memcpy(&y, words + i + 8, sizeof y);
        a += x;
        b += y;
    }
    uint64_t sum = 0;
    for (int k = 0; k < 8; ++k) sum += a[k] + b[k];
    for (; i < n; ++i) sum += words[i];
    return sum;
}

// An anonymous mapping with transparent huge pages asked for: fewer page faults when it is first
// written and fewer TLB misses while it is read, so the passes measure the memory, not the MMU.
class ReadBuffer {
public:
    explicit ReadBuffer(size_t bytes) : bytes_(bytes) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return;
        madvise(p, bytes, MADV_HUGEPAGE); // advice only: without it the pages are simply smaller
        words_ = static_cast<uint64_t*>(p);
    }
    ~ReadBuffer() {
        if (words_) munmap(words_, bytes_);
    }
    ReadBuffer(const ReadBuffer&) = delete;
    ReadBuffer& operator=(const ReadBuffer&) = delete;
    uint64_t* words() const { return words_; }

private:
    size_t bytes_ = 0;
    uint64_t* words_ = nullptr;
};

volatile uint64_t g_sink = 0; // the sums end here, so no pass can be optimised away

} // namespace

std::optional<uint64_t> last_level_cache_bytes() {
    if (const uint64_t bytes = sysfs_last_level_cache_bytes(); bytes > 0) return bytes;
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) return static_cast<uint64_t>(l3);
    return std::nullopt;
}

uint64_t memory_read_buffer_bytes(std::optional<uint64_t> llc_bytes, std::optional<uint64_t> available_bytes) {
    constexpr uint64_t kMiB = uint64_t{1} << 20;
    uint64_t bytes = llc_bytes ? 4 * *llc_bytes : 256 * kMiB;
    bytes = std::clamp<uint64_t>(bytes, 64 * kMiB, 4096 * kMiB);
    if (available_bytes) bytes = std::min(bytes, *available_bytes / 4);
    return std::max<uint64_t>(bytes / kMiB, 1) * kMiB;
}

Result<double> measure_memory_read(uint64_t bytes, int n_threads, int passes) {
    const size_t n_words = static_cast<size_t>(bytes / sizeof(uint64_t));
    n_threads = std::max(n_threads, 1);
    passes = std::max(passes, 1);
    if (n_words == 0) return make_error(ErrorCode::InvalidArgument, "empty memory read buffer");
    const ReadBuffer buffer(n_words * sizeof(uint64_t));
    if (!buffer.words()) {
        return make_error(ErrorCode::OutOfMemory, "cannot allocate a " + std::to_string(bytes >> 20) +
                                                      " MiB buffer for the memory read measurement");
    }
    // Slices of whole cache lines (8 words); the last takes the rest.
    const size_t per_thread = n_words / static_cast<size_t>(n_threads) / 8 * 8;
    std::vector<uint64_t> sums(static_cast<size_t>(n_threads), 0);
    std::barrier sync(n_threads + 1);
    std::vector<std::thread> threads;
    for (int t = 0; t < n_threads; ++t) {
        threads.emplace_back([&, t] {
            const size_t begin = static_cast<size_t>(t) * per_thread;
            const size_t end = t + 1 == n_threads ? n_words : begin + per_thread;
            uint64_t* slice = buffer.words() + begin;
            // Written by the thread that reads it (the pages land on its memory node).
            for (size_t i = 0; i < end - begin; ++i) slice[i] = (begin + i) * 0x9E3779B97F4A7C15ull;
            for (int p = 0; p < passes; ++p) {
                sync.arrive_and_wait(); // start
                sums[static_cast<size_t>(t)] += sum_words(slice, end - begin);
                sync.arrive_and_wait(); // done
            }
        });
    }
    using Clock = std::chrono::steady_clock;
    double best = 0.0;
    for (int p = 0; p < passes; ++p) {
        const auto start = Clock::now();
        sync.arrive_and_wait();
        sync.arrive_and_wait();
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (seconds > 0) best = std::max(best, static_cast<double>(n_words * sizeof(uint64_t)) / seconds / 1e9);
    }
    for (std::thread& t : threads) t.join();
    uint64_t total = 0;
    for (uint64_t s : sums) total += s;
    g_sink = g_sink + total;
    return best;
}

} // namespace octo::cli
