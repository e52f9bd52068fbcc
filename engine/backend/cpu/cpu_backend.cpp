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

// Activations of F16 / BF16 weights are F32 rows rounded to the weight's precision.
bool rounded_floats(ActivationFormat format) { return format == ActivationFormat::F16 || format == ActivationFormat::BF16; }

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
    for (TensorType type : {shape.k_type, shape.v_type}) {
        const auto info = tensor_type_info(static_cast<uint32_t>(type));
        if (!stores_kv(type)) {
            return make_error(ErrorCode::Unsupported, "the CPU backend stores keys and values as F32, F16, Q8_0 or Q4_0, not " +
                                                          std::string(info ? info->name : "an unknown type"));
        }
        if (kv_type_is_quantised(type) && shape.head_dim % 32 != 0) {
            return make_error(ErrorCode::Unsupported, "a head of " + std::to_string(shape.head_dim) + " values cannot be stored as " +
                                                          std::string(info->name) + " blocks of 32; use f16 or f32");
        }
    }
    auto cache = std::make_unique<CpuKvCache>(shape);
    if (!cache->allocated()) {
        return make_error(ErrorCode::OutOfMemory, "cannot reserve " + std::to_string(cache->bytes() >> 20) +
                                                      " MiB for the KV cache; use a smaller context");
    }
    return std::unique_ptr<KvCache>(std::move(cache));
}

void CpuBackend::embed(const WeightMatrix& table, std::span<const int32_t> tokens, float* out) {
    for (size_t i = 0; i < tokens.size(); ++i) {
        const uint8_t* row = table.data + static_cast<uint64_t>(tokens[i]) * table.row_bytes;
        dequantize_row(table.type, row, out + static_cast<int64_t>(i) * table.n_in, table.n_in);
    }
}

void CpuBackend::matmul(const WeightMatrix& w, const float* x, float* y, int64_t n_tokens,
                        const ProductPrecision& precision) {
    const MatmulOutput one{&w, y};
    matmuls(std::span<const MatmulOutput>(&one, 1), x, n_tokens, precision);
}

// Three steps, each one parallel job: (1) x rounded or quantised once per activation format the
// products need, rows split across the threads; (2) those rows laid out once per kernel layout
// (QuantKernel::prepare); (3) the output rows of every product, in chunks, as one job.
void CpuBackend::matmuls(std::span<const MatmulOutput> products, const float* x, int64_t n_tokens,
                         const ProductPrecision& precision) {
    if (products.empty()) return;
    const int64_t n_in = products.front().w->n_in;
    forms_.clear();
    plans_.clear();
    const auto form_index = [&](const ActivationForm& wanted) {
        for (size_t i = 0; i < forms_.size(); ++i) {
            if (forms_[i].format == wanted.format && forms_[i].prepare == wanted.prepare) return static_cast<int>(i);
        }
        forms_.push_back(wanted);
        return static_cast<int>(forms_.size() - 1);
    };
    int64_t n_tasks = 0;
    for (const MatmulOutput& product : products) {
        const WeightMatrix& w = *product.w;
        ProductPlan plan;
        const bool reference = precision.precision == Precision::Reference;
        const ActivationFormat format = reference ? activation_format(w.type) : ActivationFormat::F32;
        if (format == ActivationFormat::F32 || rounded_floats(format)) {
            // at reference precision, float weights take the reference's float product orders
            const bool reference_floats = reference && reference_float_type(w.type);
            plan.rows_kernel = reference_floats ? reference_float_kernel(path_) : matmul_kernel(path_, w.type);
            if (format != ActivationFormat::F32) {
                plan.input = form_index({format, nullptr, n_in * static_cast<int64_t>(sizeof(float)), -1, nullptr});
            }
        } else {
            plan.quant_kernel = quant_matmul_kernel(path_, w);
            plan.input = form_index({format, nullptr, activation_row_bytes(format, n_in), -1, nullptr});
            // a kernel may need no layout of its own for this many tokens (bytes 0)
            const int64_t laid_out = plan.quant_kernel.prepare ? plan.quant_kernel.prepared_bytes(n_in, n_tokens) : 0;
            if (laid_out > 0) {
                plan.prepared = form_index({format, plan.quant_kernel.prepare, laid_out, plan.input, &w});
            }
        }
        // Row chunks: a few per thread, so that uneven threads even out.
        const int64_t chunks = std::min<int64_t>(w.n_out, n_threads() * kTasksPerThread);
        plan.rows_per_task = std::max<int64_t>(1, (w.n_out + chunks - 1) / chunks);
        plan.first_task = n_tasks;
        n_tasks += (w.n_out + plan.rows_per_task - 1) / plan.rows_per_task;
        plans_.push_back(plan);
    }
    if (activations_.size() < forms_.size()) activations_.resize(forms_.size());
    for (size_t i = 0; i < forms_.size(); ++i) {
        ActivationForm& form = forms_[i];
        form.data = scratch(activations_[i], form.prepare ? form.bytes : form.bytes * n_tokens);
    }

    // (1) and (2): every (form, token) once.
    const auto fill = [&](bool laid_out) {
        pool_.parallel_for(static_cast<int64_t>(forms_.size()) * n_tokens, [&](int64_t task, int) {
            const ActivationForm& form = forms_[static_cast<size_t>(task / n_tokens)];
            const int64_t t = task % n_tokens;
            if ((form.prepare != nullptr) != laid_out) return;
            if (!laid_out) {
                if (rounded_floats(form.format)) {
                    round_activation_row(form.format, x + t * n_in, reinterpret_cast<float*>(form.data) + t * n_in, n_in);
                } else {
                    quantize_activation_row(form.format, x + t * n_in, form.data + t * form.bytes, n_in);
                }
                return;
            }
            const ActivationForm& rows = forms_[static_cast<size_t>(form.source)];
            const QuantMatmulArgs args{form.w, rows.data, rows.bytes, nullptr, nullptr, n_tokens};
            form.prepare(args, t, form.data);
        });
    };
    if (!forms_.empty()) fill(false);
    const bool any_layout = std::any_of(forms_.begin(), forms_.end(), [](const ActivationForm& f) { return f.prepare; });
    if (any_layout) fill(true);

    // (3)
    pool_.parallel_for(n_tasks, [&](int64_t task, int) {
        size_t i = 0;
        while (i + 1 < plans_.size() && plans_[i + 1].first_task <= task) ++i;
        const ProductPlan& plan = plans_[i];
        const WeightMatrix& w = *products[i].w;
        const int64_t r0 = (task - plan.first_task) * plan.rows_per_task;
        const int64_t r1 = std::min(w.n_out, r0 + plan.rows_per_task);
        const uint8_t* batched = precision.batched.empty() ? nullptr : precision.batched.data();
        if (plan.rows_kernel) { // F32 rows: x itself or x rounded
            const float* rows = plan.input < 0 ? x : reinterpret_cast<const float*>(forms_[static_cast<size_t>(plan.input)].data);
            plan.rows_kernel(MatmulArgs{&w, rows, products[i].y, n_tokens, batched}, r0, r1);
            return;
        }
        const ActivationForm& rows = forms_[static_cast<size_t>(plan.input)];
        const QuantMatmulArgs args{&w, rows.data, rows.bytes,
                                   plan.prepared >= 0 ? forms_[static_cast<size_t>(plan.prepared)].data : nullptr,
                                   products[i].y, n_tokens, batched};
        plan.quant_kernel.rows(args, r0, r1);
    });
}

} // namespace octo
