#include "engine/backend/cpu/int8_peak.h"

#include "engine/backend/cpu/x86_intrinsics.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace octo {

namespace {

constexpr int kChains = 16;  // independent accumulators: more than latency × issue rate
constexpr int kSteps = 4096; // inner steps between clock reads

// Activations of one step per chain, 64 bytes each, in L1; values small enough never to saturate.
struct alignas(64) Activations {
    int8_t bytes[kChains][64];
    Activations() {
        for (int c = 0; c < kChains; ++c) {
            for (int i = 0; i < 64; ++i) bytes[c][i] = static_cast<int8_t>((c * 7 + i * 3) % 11 - 5);
        }
    }
};

// Each returns the products it did; `sink` keeps the sums alive.
__attribute__((target("avx512f,avx512bw,avx512vnni"))) int64_t run_avx512vnni(const Activations& a, int64_t steps,
                                                                                int32_t* sink) {
    __m512i acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = _mm512_setzero_si512();
    const __m512i w = _mm512_set1_epi8(3);
    for (int64_t s = 0; s < steps; ++s) {
        for (int c = 0; c < kChains; ++c) acc[c] = _mm512_dpbusd_epi32(acc[c], w, _mm512_load_si512(a.bytes[c]));
    }
    __m512i total = acc[0];
    for (int c = 1; c < kChains; ++c) total = _mm512_add_epi32(total, acc[c]);
    *sink += _mm512_reduce_add_epi32(total);
    return steps * kChains * 64;
}

__attribute__((target("avx2,avxvnni"))) int64_t run_avxvnni(const Activations& a, int64_t steps, int32_t* sink) {
    __m256i acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = _mm256_setzero_si256();
    const __m256i w = _mm256_set1_epi8(3);
    for (int64_t s = 0; s < steps; ++s) {
        for (int c = 0; c < kChains; ++c) {
            acc[c] = _mm256_dpbusd_avx_epi32(acc[c], w, _mm256_load_si256(reinterpret_cast<const __m256i*>(a.bytes[c])));
        }
    }
    __m256i total = acc[0];
    for (int c = 1; c < kChains; ++c) total = _mm256_add_epi32(total, acc[c]);
    alignas(32) int32_t lanes[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), total);
    for (int32_t v : lanes) *sink += v;
    return steps * kChains * 32;
}

// 8 chains: 16 ymm registers hold the accumulators, the weights, the ones and the products.
__attribute__((target("avx2"))) int64_t run_avx2(const Activations& a, int64_t steps, int32_t* sink) {
    constexpr int kAvx2Chains = 8;
    __m256i acc[kAvx2Chains];
    for (int c = 0; c < kAvx2Chains; ++c) acc[c] = _mm256_setzero_si256();
    const __m256i w = _mm256_set1_epi8(3), ones = _mm256_set1_epi16(1);
    for (int64_t s = 0; s < steps * 2; ++s) { // twice the steps: as many products as 16 chains
        for (int c = 0; c < kAvx2Chains; ++c) {
            const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(a.bytes[c + 8 * (s & 1)]));
            acc[c] = _mm256_add_epi32(acc[c], _mm256_madd_epi16(_mm256_maddubs_epi16(w, x), ones));
        }
    }
    __m256i total = acc[0];
    for (int c = 1; c < kAvx2Chains; ++c) total = _mm256_add_epi32(total, acc[c]);
    alignas(32) int32_t lanes[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), total);
    for (int32_t v : lanes) *sink += v;
    return steps * 2 * kAvx2Chains * 32;
}

using Runner = int64_t (*)(const Activations&, int64_t, int32_t*);

Runner runner_for(CpuPath path) {
    switch (path) {
    case CpuPath::Avx512Vnni: return run_avx512vnni;
    case CpuPath::AvxVnni: return run_avxvnni;
    case CpuPath::Avx2:
    case CpuPath::Avx512: return run_avx2;
    case CpuPath::Scalar: break;
    }
    return nullptr;
}

} // namespace

std::optional<Int8Peak> measure_int8_peak(CpuPath path, int threads, int passes, double seconds_per_pass) {
    const Runner run = runner_for(path);
    if (!run || !cpu_supports(path) || threads < 1 || passes < 1) return std::nullopt;
    using Clock = std::chrono::steady_clock;
    double best = 0.0;
    for (int pass = 0; pass < passes; ++pass) {
        std::vector<int64_t> products(static_cast<size_t>(threads), 0);
        std::vector<int32_t> sinks(static_cast<size_t>(threads), 0);
        std::barrier start(threads + 1);
        std::atomic<bool> stop{false};
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                const Activations a;
                start.arrive_and_wait();
                while (!stop.load(std::memory_order_relaxed)) products[static_cast<size_t>(t)] += run(a, kSteps, &sinks[static_cast<size_t>(t)]);
            });
        }
        start.arrive_and_wait();
        const auto begin = Clock::now();
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds_per_pass));
        stop.store(true, std::memory_order_relaxed);
        for (std::thread& w : workers) w.join();
        const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
        int64_t total = 0;
        for (int64_t p : products) total += p;
        best = std::max(best, static_cast<double>(total) / seconds);
    }
    return Int8Peak{.gops = 2.0 * best / 1e9, .gmacs = best / 1e9, .threads = threads};
}

} // namespace octo
