// Launch shapes and block-wide reductions shared by the kernels.
#pragma once

#include <cstdint>

namespace octo_cuda {

constexpr int kThreads = 256; // threads per block of the element-wise and per-row kernels

inline unsigned int blocks_for(int64_t n, int threads = kThreads) {
    return static_cast<unsigned int>((n + threads - 1) / threads);
}

template <class T>
__device__ T warp_sum(T v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__device__ inline float warp_max(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

// Sum over the block (blockDim.x a multiple of 32, at most 1024); every thread gets the result.
template <class T>
__device__ T block_sum(T v) {
    __shared__ T partial[32];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    v = warp_sum(v);
    __syncthreads(); // partial may still be read by a previous call
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    const int n_warps = blockDim.x / 32;
    T total = lane < n_warps ? partial[lane] : T(0);
    return warp_sum(total);
}

__device__ inline float block_max(float v) {
    __shared__ float partial[32];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    v = warp_max(v);
    __syncthreads();
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    const int n_warps = blockDim.x / 32;
    float m = lane < n_warps ? partial[lane] : -INFINITY;
    return warp_max(m);
}

} // namespace octo_cuda
