// The module's context: one device, one stream, one cuBLAS handle, and growable device scratch
// (staged host index arrays, dequantised weights for cuBLAS, attention scores).
#pragma once

#include <cstdint>
#include <string>

#include "check.cuh"

namespace octo_cuda {

// A device buffer that grows on demand and is reused by later operations of the same stream.
struct Scratch {
    void* ptr = nullptr;
    size_t bytes = 0;
};

// Host index arrays an operation stages to the device (one scratch each, so one operation can
// stage several).
enum StageSlot { kStageTokens, kStagePositions, kStageWriteCells, kStageReadCells, kStageHeads, kStageSlots };

} // namespace octo_cuda

struct OctoCudaContext {
    int device = 0;
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;
    bool sticky = false;
    std::string sticky_reason; // the first sticky error, as reported
    octo_cuda::Scratch stage[octo_cuda::kStageSlots];
    octo_cuda::Scratch gemm_w; // dequantised weight matrix (F16 or F32)
    octo_cuda::Scratch gemm_x; // activations converted to F16
    octo_cuda::Scratch scores; // attention scores [n_tokens, n_head, n_positions]
};

struct OctoCudaWeight {
    uint32_t type = 0;  // GGUF type id
    uint8_t* data = nullptr; // [n_out][row_bytes]
    int64_t n_in = 0;
    int64_t n_out = 0;
    uint64_t row_bytes = 0;
};

struct OctoCudaKv {
    float* k = nullptr; // [n_layer, n_cells, n_head_kv * head_dim]
    float* v = nullptr; // same
    int64_t n_layer = 0;
    int64_t n_cells = 0;
    int64_t n_head_kv = 0;
    int64_t head_dim = 0;
};

namespace octo_cuda {

// cudaMalloc with the allocation fault; ENOMEM names the caller's call site.
int device_alloc(OctoCudaContext* ctx, void** ptr, size_t bytes, const char* file, int line, ErrOut out);
// Makes s at least `bytes` large (contents are not kept).
int ensure_scratch(OctoCudaContext* ctx, Scratch& s, size_t bytes, ErrOut out);
// Copies n host values into the slot's scratch; *dev points at them on the device.
int stage_host(OctoCudaContext* ctx, StageSlot slot, const void* host, size_t bytes, const void** dev, ErrOut out);

} // namespace octo_cuda
