#include "engine/backend/cpu/cpu_backend.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/cpu_kv_cache.h"
#include "engine/backend/cpu/matmul_kernels.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/gguf/dequantize.h"

namespace octo {

namespace {

class HostBuffer final : public DeviceBuffer {
public:
    explicit HostBuffer(int64_t n) : values_(static_cast<size_t>(n)) {}
    float* data() override { return values_.data(); }
    int64_t size() const override { return static_cast<int64_t>(values_.size()); }

private:
    std::vector<float> values_;
};

constexpr int64_t kTasksPerThread = 4; // row chunks per thread, so uneven threads even out

// A scratch buffer of at least n elements. It only grows: products of other shapes alternate
// within one forward pass, and resizing down and up again would clear the bytes each time (the
// kernels write every element they later read).
template <class T>
T* scratch(std::vector<T>& buffer, int64_t n) {
    if (buffer.size() < static_cast<size_t>(n)) buffer.resize(static_cast<size_t>(n));
    return buffer.data();
}

} // namespace

Result<std::unique_ptr<CpuBackend>> CpuBackend::create(const CpuBackendOptions& options) {
    const CpuPath path = options.path.value_or(best_cpu_path());
    if (!cpu_supports(path)) {
        return make_error(ErrorCode::InvalidArgument,
                          "this CPU cannot run the " + std::string(cpu_path_name(path)) + " kernels");
    }
    return std::unique_ptr<CpuBackend>(new CpuBackend(options.n_threads, path));
}

std::string CpuBackend::name() const {
    return "cpu (" + std::string(cpu_path_name(path_)) + ", " + std::to_string(n_threads()) + " threads)";
}

bool CpuBackend::supports(TensorType type) const { return matmul_kernel(path_, type) != nullptr; }

std::unique_ptr<DeviceBuffer> CpuBackend::allocate(int64_t n_floats) {
    return std::make_unique<HostBuffer>(n_floats);
}

void CpuBackend::read(const float* src, std::span<float> dst) {
    std::memcpy(dst.data(), src, dst.size_bytes());
}

void CpuBackend::write(std::span<const float> src, float* dst) {
    std::memcpy(dst, src.data(), src.size_bytes());
}

Result<std::unique_ptr<KvCache>> CpuBackend::create_kv_cache(const KvCacheShape& shape) {
    if (shape.n_layer <= 0 || shape.n_cells <= 0 || shape.n_head_kv <= 0 || shape.head_dim <= 0) {
        return make_error(ErrorCode::InvalidArgument, "KV cache shape must be positive");
    }
    return std::unique_ptr<KvCache>(std::make_unique<CpuKvCache>(shape));
}

void CpuBackend::embed(const WeightMatrix& table, std::span<const int32_t> tokens, float* out) {
    for (size_t i = 0; i < tokens.size(); ++i) {
        const uint8_t* row = table.data + static_cast<uint64_t>(tokens[i]) * table.row_bytes;
        dequantize_row(table.type, row, out + static_cast<int64_t>(i) * table.n_in, table.n_in);
    }
}

void CpuBackend::matmul(const WeightMatrix& w, const float* x, float* y, int64_t n_tokens, Precision precision) {
    const ActivationFormat format =
        precision == Precision::Reference ? activation_format(w.type) : ActivationFormat::F32;
    const int64_t n_tasks = std::min<int64_t>(w.n_out, n_threads() * kTasksPerThread);
    const int64_t rows_per_task = (w.n_out + n_tasks - 1) / n_tasks;
    const auto for_row_chunks = [&](auto&& kernel) {
        pool_.parallel_for((w.n_out + rows_per_task - 1) / rows_per_task, [&](int64_t task, int) {
            const int64_t r0 = task * rows_per_task;
            kernel(r0, std::min(w.n_out, r0 + rows_per_task));
        });
    };
    // Each activation row is rounded or quantised once, rows split across the threads.
    const auto for_tokens = [&](auto&& row) {
        pool_.parallel_for(n_tokens, [&](int64_t t, int) { row(t); });
    };
    switch (format) {
    case ActivationFormat::F32: {
        const MatmulRowsKernel kernel = matmul_kernel(path_, w.type);
        const MatmulArgs args{&w, x, y, n_tokens};
        for_row_chunks([&](int64_t r0, int64_t r1) { kernel(args, r0, r1); });
        return;
    }
    case ActivationFormat::F16:
    case ActivationFormat::BF16: {
        float* rounded = scratch(rounded_, n_tokens * w.n_in);
        for_tokens([&](int64_t t) { round_activation_row(format, x + t * w.n_in, rounded + t * w.n_in, w.n_in); });
        const MatmulRowsKernel kernel = matmul_kernel(path_, w.type);
        const MatmulArgs args{&w, rounded, y, n_tokens};
        for_row_chunks([&](int64_t r0, int64_t r1) { kernel(args, r0, r1); });
        return;
    }
    case ActivationFormat::Q8_0:
    case ActivationFormat::Q8_1:
    case ActivationFormat::Q8_K: {
        const int64_t row_bytes = activation_row_bytes(format, w.n_in);
        uint8_t* quantised = scratch(quantised_, n_tokens * row_bytes);
        for_tokens([&](int64_t t) { quantize_activation_row(format, x + t * w.n_in, quantised + t * row_bytes, w.n_in); });
        const QuantKernel kernel = quant_matmul_kernel(path_, w.type);
        QuantMatmulArgs args{&w, quantised, row_bytes, nullptr, y, n_tokens};
        if (kernel.prepare) { // the kernel's own activation layout, once per token
            uint8_t* prepared = scratch(prepared_, kernel.prepared_bytes(w.n_in, n_tokens));
            for_tokens([&](int64_t t) { kernel.prepare(args, t, prepared); });
            args.prepared = prepared;
        }
        for_row_chunks([&](int64_t r0, int64_t r1) { kernel.rows(args, r0, r1); });
        return;
    }
    }
}

} // namespace octo
