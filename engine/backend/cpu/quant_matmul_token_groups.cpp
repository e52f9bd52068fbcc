// Prompt products on AVX-512 VNNI with the tokens across the register: 16 tokens a group, one token
// per 32-bit lane, so that a weight's four bytes are broadcast to the whole register and one
// vpdpbusd gives 16 tokens' sums of the same four products. For Q4_0 as the reference repacks it
// (quant_matmul.h: whole-block sums) a block's eight 4-product sums are added in integers and
// each token lane takes fma(sum, d_w·d_x, acc): one conversion and one fused step per block for
// 16 tokens, where the 8-lane kernels take one per block and token.
// (Q8_0 keeps the token-pair tiles: its 8-lane order in this layout — eight accumulators per row,
// lanes summed across them at the end — still takes a conversion and a fused step per 4-product
// sum; docs/performance.md, "Tuning constants", has the measurement.)
// Activations are laid out once per product (QuantKernel::prepare), per group and 32-value block:
//   q: [4-value group j = 0..7][token 0..15][4 bytes]   (u8: q + 128)   512 bytes
//   d: float[16]                                        (0 for the tokens past the last)  64 bytes
// Q4_0's nibbles are unpacked to signed bytes (value - 8) once per row and pass over the groups:
// the dot product of q + 128 starts from -128·(the block's weight sum), so that each lane is
// exactly the signed sum. Fewer than 16 tokens take the AVX2 whole-block kernel.
#include "engine/backend/cpu/x86_intrinsics.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/gguf/quant_blocks.h"

#define OCTO_Z __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx2,fma,f16c")))

namespace octo {

namespace {

constexpr int64_t kGroup = 16; // tokens a group

constexpr int64_t kBlockBytes = 8 * 64 + 64; // per group and 32-value block: q, then d
// Groups a pass over the rows: the rows' unpacked blocks are reused by that many groups (fewer
// measured: docs/performance.md, "Tuning constants").
constexpr int64_t kGroupsAtATime = 16;

OCTO_Z inline float half_at(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}

// --- Q4_0, whole-block sums ----------------------------------------------------------------------

// Per block of a row: its 32 values as signed bytes (nibble - 8, in value order), the dot
// product's start -128·Σ(values) and d_w.
struct Q4_0RowPrep {
    std::vector<int8_t> values; // [block][32]
    std::vector<int32_t> starts; // [block]
    std::vector<float> scales;   // [block]
};

OCTO_Z void prepare_q4_0_row(const uint8_t* row, int64_t nb, Q4_0RowPrep& prep) {
    prep.values.resize(static_cast<size_t>(nb * 32));
    prep.starts.resize(static_cast<size_t>(nb));
    prep.scales.resize(static_cast<size_t>(nb));
    const __m128i mask = _mm_set1_epi8(15), eight = _mm_set1_epi8(8);
    for (int64_t b = 0; b < nb; ++b) {
        const uint8_t* block = row + b * qblock::kQ4_0Bytes;
        const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 2));
        const __m128i lo = _mm_and_si128(packed, mask);                    // values 0..15, unsigned
        const __m128i hi = _mm_and_si128(_mm_srli_epi16(packed, 4), mask); // values 16..31
        _mm_storeu_si128(reinterpret_cast<__m128i*>(prep.values.data() + 32 * b), _mm_sub_epi8(lo, eight));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(prep.values.data() + 32 * b + 16), _mm_sub_epi8(hi, eight));
        // Σ nibbles (two 64-bit partial sums each), so Σ(value) = Σ nibbles - 8·32
        const __m128i sad = _mm_add_epi64(_mm_sad_epu8(lo, _mm_setzero_si128()), _mm_sad_epu8(hi, _mm_setzero_si128()));
        const auto nibbles = static_cast<int32_t>(_mm_cvtsi128_si64(sad) + _mm_extract_epi64(sad, 1));
        prep.starts[static_cast<size_t>(b)] = -128 * (nibbles - 256);
        prep.scales[static_cast<size_t>(b)] = half_at(block);
    }
}

template <int R>
OCTO_Z void tile_q4_0(const Q4_0RowPrep* const (&prep)[R], const uint8_t* group, int64_t nb, float* y, int64_t y_stride,
                      int64_t n_valid) {
    __m512 acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ps();
    for (int64_t b = 0; b < nb; ++b) {
        const uint8_t* act = group + b * kBlockBytes;
        __m512i x[8];
        for (int j = 0; j < 8; ++j) x[j] = _mm512_loadu_si512(act + 64 * j);
        const __m512 dx = _mm512_loadu_ps(act + 512);
        for (int r = 0; r < R; ++r) {
            const int8_t* v = prep[r]->values.data() + 32 * b;
            int32_t v4[8];
            std::memcpy(v4, v, 32);
            // two chains of four products each (integers: their order is immaterial)
            __m512i even = _mm512_set1_epi32(prep[r]->starts[static_cast<size_t>(b)]), odd = _mm512_setzero_si512();
            for (int j = 0; j < 8; j += 2) {
                even = _mm512_dpbusd_epi32(even, x[j], _mm512_set1_epi32(v4[j]));
                odd = _mm512_dpbusd_epi32(odd, x[j + 1], _mm512_set1_epi32(v4[j + 1]));
            }
            const __m512 d = _mm512_mul_ps(_mm512_set1_ps(prep[r]->scales[static_cast<size_t>(b)]), dx); // d_w·d_x
            acc[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(even, odd)), d, acc[r]);
        }
    }
    for (int r = 0; r < R; ++r) {
        alignas(64) float out[kGroup];
        _mm512_store_ps(out, acc[r]);
        for (int64_t t = 0; t < n_valid; ++t) y[t * y_stride + r] = out[t];
    }
}

constexpr int kQ4_0Rows = 4;

void rows_in_groups(const QuantMatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    const int64_t nb = w.n_in / 32;
    const int64_t n_groups = (a.n_tokens + kGroup - 1) / kGroup;
    thread_local Q4_0RowPrep prep[kQ4_0Rows];
    for (int64_t g0 = 0; g0 < n_groups; g0 += kGroupsAtATime) {
        const int64_t g1 = std::min(n_groups, g0 + kGroupsAtATime);
        for (int64_t r = row_begin; r < row_end; r += kQ4_0Rows) {
            const int64_t n_rows = std::min<int64_t>(kQ4_0Rows, row_end - r);
            for (int64_t i = 0; i < n_rows; ++i) {
                prepare_q4_0_row(w.data + static_cast<uint64_t>(r + i) * w.row_bytes, nb, prep[i]);
            }
            for (int64_t g = g0; g < g1; ++g) {
                const uint8_t* group = a.prepared + g * nb * kBlockBytes;
                float* y = a.y + g * kGroup * w.n_out + r;
                const int64_t n_valid = std::min(kGroup, a.n_tokens - g * kGroup);
                switch (n_rows) {
                case 4: tile_q4_0<4>({&prep[0], &prep[1], &prep[2], &prep[3]}, group, nb, y, w.n_out, n_valid); break;
                case 3: tile_q4_0<3>({&prep[0], &prep[1], &prep[2]}, group, nb, y, w.n_out, n_valid); break;
                case 2: tile_q4_0<2>({&prep[0], &prep[1]}, group, nb, y, w.n_out, n_valid); break;
                default: tile_q4_0<1>({&prep[0]}, group, nb, y, w.n_out, n_valid); break;
                }
            }
        }
    }
}

int64_t prepared_bytes_in_groups(int64_t n_in, int64_t n_tokens) {
    return (n_tokens + kGroup - 1) / kGroup * (n_in / 32) * kBlockBytes;
}

// The first token of a group lays out the whole group (the others do nothing): tokens laid out
// in parallel would otherwise write the same cache lines from several threads.
void prepare_in_groups(const QuantMatmulArgs& a, int64_t t, uint8_t* prepared) {
    if (t % kGroup != 0) return;
    const int64_t nb = a.w->n_in / 32;
    uint8_t* group = prepared + t / kGroup * nb * kBlockBytes;
    const int64_t n_valid = std::min(kGroup, a.n_tokens - t);
    for (int64_t b = 0; b < nb; ++b) {
        uint8_t* block = group + b * kBlockBytes;
        for (int64_t lane = 0; lane < kGroup; ++lane) {
            // tokens past the last: activations 0 (stored as 128), scale 0
            const ActQ8_0* src = lane < n_valid ? reinterpret_cast<const ActQ8_0*>(a.xq + (t + lane) * a.xq_row_bytes) + b : nullptr;
            for (int j = 0; j < 8; ++j) {
                uint32_t four = 0;
                if (src) std::memcpy(&four, src->qs + 4 * j, 4);
                four ^= 0x80808080u; // + 128 in each byte
                std::memcpy(block + 64 * j + 4 * lane, &four, 4);
            }
            const float d = src ? src->d : 0.0f;
            std::memcpy(block + 512 + 4 * lane, &d, 4);
        }
    }
}

// Prompts of a group or more in token groups, fewer tokens by the AVX2 kernel.
bool in_groups(int64_t n_tokens) { return n_tokens >= kGroup; }

const QuantKernel& avx2_blockwise() {
    static const QuantKernel kernel = avx2_q4_0_blockwise_kernel();
    return kernel;
}

int64_t prepared_bytes(int64_t n_in, int64_t n_tokens) {
    return in_groups(n_tokens) ? prepared_bytes_in_groups(n_in, n_tokens) : avx2_blockwise().prepared_bytes(n_in, n_tokens);
}

void prepare(const QuantMatmulArgs& a, int64_t t, uint8_t* prepared) {
    if (in_groups(a.n_tokens)) {
        prepare_in_groups(a, t, prepared);
    } else {
        avx2_blockwise().prepare(a, t, prepared);
    }
}

void rows(const QuantMatmulArgs& a, int64_t row_begin, int64_t row_end) {
    if (in_groups(a.n_tokens)) {
        rows_in_groups(a, row_begin, row_end);
    } else {
        avx2_blockwise().rows(a, row_begin, row_end);
    }
}

} // namespace

QuantKernel avx512vnni_q4_0_blockwise_kernel() { return {rows, prepared_bytes, prepare}; }

} // namespace octo
