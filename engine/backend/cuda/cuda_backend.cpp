#include "engine/backend/cuda/cuda_backend.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>
#include <mutex>

#include "engine/backend/cuda/cuda_kv_cache.h"
#include "engine/backend/cuda/cuda_module.h"

namespace octo {

namespace {

constexpr size_t kErrLen = 512;

std::mutex g_disabled_mutex;
std::string g_disabled_reason; // set once, after the first sticky error

ErrorCode error_code_of(int rc) {
    switch (rc) {
    case OCTO_CUDA_ENOMEM: return ErrorCode::OutOfMemory;
    case OCTO_CUDA_EARG: return ErrorCode::InvalidArgument;
    case OCTO_CUDA_EUNSUPPORTED: return ErrorCode::Unsupported;
    default: return ErrorCode::Device;
    }
}

void disable_cuda(const std::string& reason) {
    std::lock_guard lock(g_disabled_mutex);
    if (!g_disabled_reason.empty()) return;
    g_disabled_reason = reason;
    spdlog::error("CUDA disabled for the rest of this run after a sticky error: {}", reason);
}

Error module_error(int rc, const char* err) {
    std::string message = std::string("CUDA backend: ") + (err[0] ? err : "unknown failure");
    if (rc == OCTO_CUDA_ESTICKY) disable_cuda(message);
    return make_error(error_code_of(rc), std::move(message));
}

class CudaBuffer final : public DeviceBuffer {
public:
    CudaBuffer(CudaBackend& backend, float* ptr, int64_t n) : backend_(backend), ptr_(ptr), n_(n) {}
    ~CudaBuffer() override { backend_.release(ptr_); }
    CudaBuffer(const CudaBuffer&) = delete;
    CudaBuffer& operator=(const CudaBuffer&) = delete;
    float* data() override { return ptr_; }
    int64_t size() const override { return n_; }

private:
    CudaBackend& backend_;
    float* ptr_;
    int64_t n_;
};

OctoCudaCells module_cells(const KvBatchCells& cells) {
    return OctoCudaCells{cells.positions.data(), cells.write_cells.data(), static_cast<int64_t>(cells.positions.size()),
                         cells.read_cells.data(), static_cast<int64_t>(cells.read_cells.size())};
}

} // namespace

std::string cuda_disabled_reason() {
    std::lock_guard lock(g_disabled_mutex);
    return g_disabled_reason;
}

Result<std::unique_ptr<CudaBackend>> CudaBackend::create(const CudaBackendOptions& options) {
    if (auto reason = cuda_disabled_reason(); !reason.empty()) {
        return make_error(ErrorCode::Unsupported, "CUDA is disabled in this process: " + reason);
    }
    auto api = load_cuda_api(options.module_path.empty() ? cuda_module_path() : options.module_path);
    if (!api) return api.error();
    char err[kErrLen] = {};
    int count = 0;
    if (api.value()->device_count(&count, err, sizeof err) != 0) {
        return make_error(ErrorCode::Unsupported, std::string("no usable CUDA device: ") + err);
    }
    if (options.device < 0 || options.device >= count) {
        return make_error(ErrorCode::Unsupported, "no CUDA device " + std::to_string(options.device) + " (" +
                                                      std::to_string(count) + " found)");
    }
    OctoCudaDeviceInfo info{};
    if (int rc = api.value()->device_info(options.device, &info, err, sizeof err)) return module_error(rc, err);
    OctoCudaContext* ctx = nullptr;
    if (int rc = api.value()->context_create(options.device, &ctx, err, sizeof err)) return module_error(rc, err);
    return std::unique_ptr<CudaBackend>(new CudaBackend(std::move(api.value()), ctx, info.name));
}

CudaBackend::CudaBackend(std::shared_ptr<const CudaApi> api, OctoCudaContext* ctx, std::string device_name)
    : api_(std::move(api)), ctx_(ctx), device_name_(std::move(device_name)) {}

CudaBackend::~CudaBackend() {
    for (auto& [host, w] : weights_) api_->weight_free(ctx_, w);
    for (auto& [host, dev] : constants_) release(dev);
    api_->context_destroy(ctx_);
}

std::string CudaBackend::name() const { return "cuda (" + device_name_ + ")"; }

bool CudaBackend::supports(TensorType type) const { return api_->supports_type(static_cast<uint32_t>(type)) != 0; }

Status CudaBackend::status() const {
    if (error_) return *error_;
    return Ok{};
}

Result<double> CudaBackend::copy_rate(uint64_t bytes, int iters) {
    double rate = 0.0;
    char err[kErrLen] = {};
    if (int rc = api_->bench_copy(ctx_, bytes, iters, &rate, err, sizeof err)) return module_error(rc, err);
    return rate;
}

Result<double> CudaBackend::gemm_rate(int64_t m, int64_t n, int64_t k, int iters) {
    double rate = 0.0;
    char err[kErrLen] = {};
    if (int rc = api_->bench_gemm(ctx_, m, n, k, iters, &rate, err, sizeof err)) return module_error(rc, err);
    return rate;
}

template <class Call>
bool CudaBackend::guarded(Call&& call) {
    if (error_) return false;
    char err[kErrLen] = {};
    if (int rc = call(err, sizeof err)) {
        error_ = module_error(rc, err);
        spdlog::error("{}", error_->message);
        return false;
    }
    return true;
}

void CudaBackend::release(void* device_ptr) {
    buffers_.erase(static_cast<const float*>(device_ptr));
    char err[kErrLen] = {};
    (void)api_->free(ctx_, device_ptr, err, sizeof err); // teardown: a failure here has no one to tell
}

std::unique_ptr<DeviceBuffer> CudaBackend::allocate(int64_t n_floats) {
    void* ptr = nullptr;
    const auto bytes = static_cast<uint64_t>(n_floats) * sizeof(float);
    if (!guarded([&](char* err, size_t len) { return api_->alloc(ctx_, bytes, &ptr, err, len); })) {
        // Keep the forward pass's pointers distinct and valid-looking; nothing runs after a failure.
        return std::make_unique<CudaBuffer>(*this, nullptr, 0);
    }
    buffers_[static_cast<const float*>(ptr)] = n_floats;
    return std::make_unique<CudaBuffer>(*this, static_cast<float*>(ptr), n_floats);
}

void CudaBackend::read(const float* src, std::span<float> dst) {
    if (!guarded([&](char* err, size_t len) { return api_->download(ctx_, dst.data(), src, dst.size_bytes(), err, len); })) {
        std::fill(dst.begin(), dst.end(), std::numeric_limits<float>::quiet_NaN());
    }
}

void CudaBackend::write(std::span<const float> src, float* dst) {
    guarded([&](char* err, size_t len) { return api_->upload(ctx_, dst, src.data(), src.size_bytes(), err, len); });
}

Result<std::unique_ptr<KvCache>> CudaBackend::create_kv_cache(const KvCacheShape& shape) {
    if (error_) return *error_;
    if (shape.values_in_keys) {
        return make_error(ErrorCode::Unsupported, "the CUDA backend has no latent KV cache (multi-head latent attention)");
    }
    if (shape.k_type != TensorType::F32 || shape.v_type != TensorType::F32) {
        return make_error(ErrorCode::Unsupported, "the CUDA backend keeps keys and values as F32 only (the CPU "
                                                  "backend also stores F16)");
    }
    char err[kErrLen] = {};
    OctoCudaKv* kv = nullptr;
    if (int rc = api_->kv_create(ctx_, shape.n_layer, shape.n_cells, shape.n_head_kv, shape.head_dim, &kv, err, sizeof err)) {
        return module_error(rc, err); // a failed allocation is the caller's error, not the backend's
    }
    return std::unique_ptr<KvCache>(std::make_unique<CudaKvCache>(*api_, ctx_, kv, shape));
}

const OctoCudaWeight* CudaBackend::device_weight(const WeightMatrix& w) {
    if (auto it = weights_.find({w.data, w.n_out}); it != weights_.end()) return it->second;
    OctoCudaWeight* dev = nullptr;
    if (!guarded([&](char* err, size_t len) {
            return api_->weight_upload(ctx_, static_cast<uint32_t>(w.type), w.data, w.n_in, w.n_out, w.row_bytes, &dev,
                                       err, len);
        })) {
        return nullptr;
    }
    weights_.emplace(std::pair{w.data, w.n_out}, dev);
    return dev;
}

const float* CudaBackend::device_constant(const float* p, int64_t n) {
    if (!p) return nullptr;
    if (auto it = buffers_.upper_bound(p); it != buffers_.begin()) {
        --it;
        if (p < it->first + it->second) return p; // inside one of our buffers
    }
    if (auto it = constants_.find(p); it != constants_.end()) return it->second;
    void* dev = nullptr;
    const auto bytes = static_cast<uint64_t>(n) * sizeof(float);
    if (!guarded([&](char* err, size_t len) { return api_->alloc(ctx_, bytes, &dev, err, len); })) return nullptr;
    if (!guarded([&](char* err, size_t len) { return api_->upload(ctx_, dev, p, bytes, err, len); })) {
        release(dev);
        return nullptr;
    }
    constants_.emplace(p, static_cast<float*>(dev));
    return static_cast<float*>(dev);
}

void CudaBackend::embed(const WeightMatrix& table, std::span<const int32_t> tokens, float* out) {
    const OctoCudaWeight* w = device_weight(table);
    if (!w) return;
    guarded([&](char* err, size_t len) {
        return api_->embed(ctx_, w, tokens.data(), static_cast<int64_t>(tokens.size()), out, err, len);
    });
}

// The CUDA kernels keep activations in float: a reference-precision product is computed exact
// (said once in the log; docs/cuda.md).
void CudaBackend::matmul(const WeightMatrix& w, const float* x, float* y, int64_t n_tokens,
                         const ProductPrecision& precision) {
    if (precision.precision == Precision::Reference && !reference_noted_) {
        reference_noted_ = true;
        spdlog::info("cuda: reference precision is not implemented on the GPU yet; products are computed exact");
    }
    const OctoCudaWeight* dw = device_weight(w);
    if (!dw) return;
    guarded([&](char* err, size_t len) { return api_->matmul(ctx_, dw, x, y, n_tokens, err, len); });
}

void CudaBackend::rms_norm(const float* x, const float* weight, float* y, int64_t n_tokens, int64_t n, float eps) {
    const float* dw = device_constant(weight, n);
    if (!dw) return;
    guarded([&](char* err, size_t len) { return api_->rms_norm(ctx_, x, dw, y, n_tokens, n, eps, err, len); });
}

void CudaBackend::add_bias(float* y, const float* bias, int64_t n_tokens, int64_t n) {
    const float* db = device_constant(bias, n);
    if (!db) return;
    guarded([&](char* err, size_t len) { return api_->add_bias(ctx_, y, db, n_tokens, n, err, len); });
}

void CudaBackend::add(float* y, const float* x, int64_t n) {
    guarded([&](char* err, size_t len) { return api_->add(ctx_, y, x, n, err, len); });
}

void CudaBackend::swiglu(const float* gate, const float* up, float* out, int64_t n_rows, int64_t row,
                         Precision) { // exact (docs/cuda.md)
    guarded([&](char* err, size_t len) { return api_->swiglu(ctx_, gate, up, out, n_rows * row, err, len); });
}

// The CUDA module (API version 4) has no kernels for these yet: open_model refuses a model that
// needs them on CUDA (and `auto` takes the CPU), so reaching one is a programming error, reported
// as the backend's sticky error rather than a wrong result.
std::string CudaBackend::missing_features(const ForwardFeatures& needed) const {
    std::string missing;
    const auto add = [&](bool need, const char* what) {
        if (need) missing += (missing.empty() ? "" : ", ") + std::string(what);
    };
    add(needed.gelu, "GELU");
    add(needed.softcap, "soft-capping");
    add(needed.sliding_window, "sliding-window attention");
    add(needed.scale, "scaling");
    add(needed.yarn, "YaRN RoPE");
    add(needed.experts, "mixture of experts");
    add(needed.sinks, "attention sinks");
    add(needed.clamped_swiglu, "clamped SwiGLU");
    add(needed.latent_attention, "multi-head latent attention");
    const std::string weights = missing_weight_types(needed);
    add(!weights.empty(), weights.c_str());
    return missing;
}

void CudaBackend::not_implemented(const char* op) {
    if (error_) return;
    error_ = make_error(ErrorCode::Unsupported, std::string("cuda: ") + op + " has no CUDA kernel yet");
    spdlog::error("{}", error_->message);
}

void CudaBackend::gelu_gate(const float*, const float*, float*, int64_t, GeluMode) { not_implemented("gelu_gate"); }
void CudaBackend::clamped_swiglu(const float*, const float*, float*, int64_t, float, float) { not_implemented("clamped_swiglu"); }
void CudaBackend::scale(float*, int64_t, float) { not_implemented("scale"); }
void CudaBackend::copy_columns(const float*, int64_t, float*, int64_t, int64_t, int64_t) { not_implemented("copy_columns"); }
void CudaBackend::kv_read_keys(const KvCache&, int64_t, std::span<const int32_t>, float*) { not_implemented("kv_read_keys"); }
void CudaBackend::head_matmul(const HeadProduct&, const float*, float*, int64_t, int64_t) { not_implemented("head_matmul"); }
void CudaBackend::softcap(float*, int64_t, float) { not_implemented("softcap"); }
void CudaBackend::gather_rows(const float*, std::span<const int32_t>, float*, int64_t) { not_implemented("gather_rows"); }
void CudaBackend::scatter_rows(const float*, std::span<const int32_t>, float*, int64_t) { not_implemented("scatter_rows"); }
void CudaBackend::weighted_sum(const float*, const float*, float*, int64_t, int64_t, int64_t) {
    not_implemented("weighted_sum");
}

void CudaBackend::rope(float* x, int64_t n_tokens, int64_t n_heads, int64_t head_dim, std::span<const int32_t> positions,
                       const RopeParams& params) {
    if (params.ext_factor > 0.0f) return not_implemented("YaRN RoPE");
    const float* factors = params.freq_factors ? device_constant(params.freq_factors, params.n_rot / 2) : nullptr;
    if (params.freq_factors && !factors) return;
    const OctoCudaRope p{params.layout == RopeLayout::NeoX ? OCTO_CUDA_ROPE_NEOX : OCTO_CUDA_ROPE_NORMAL, params.n_rot,
                         params.freq_base, params.freq_scale, factors, params.attn_factor};
    guarded([&](char* err, size_t len) {
        return api_->rope(ctx_, x, n_tokens, n_heads, head_dim, positions.data(), &p, err, len);
    });
}

void CudaBackend::kv_write(KvCache& cache, int64_t layer, const float* k, const float* v, const KvBatchCells& cells) {
    const OctoCudaCells c = module_cells(cells);
    guarded([&](char* err, size_t len) {
        return api_->kv_write(ctx_, static_cast<CudaKvCache&>(cache).handle(), layer, k, v, &c, err, len);
    });
}

void CudaBackend::kv_copy(KvCache& cache, int64_t from, int64_t to, int64_t n) {
    guarded([&](char* err, size_t len) {
        return api_->kv_copy(ctx_, static_cast<CudaKvCache&>(cache).handle(), from, to, n, err, len);
    });
}

void CudaBackend::attention(const KvCache& cache, int64_t layer, const float* q, float* out, const KvBatchCells& cells,
                            const AttentionShape& shape, float* weights, int64_t weights_stride) {
    if (shape.softcap > 0.0f || shape.window > 0 || shape.scale != 0.0f) {
        return not_implemented("soft-capped, sliding-window or rescaled attention");
    }
    const OctoCudaCells c = module_cells(cells);
    guarded([&](char* err, size_t len) {
        return api_->attention(ctx_, static_cast<const CudaKvCache&>(cache).handle(), layer, q, out, &c, shape.n_head,
                               weights, weights_stride, err, len);
    });
}

void CudaBackend::softmax_rows(float* x, int64_t n_rows, int64_t n) {
    guarded([&](char* err, size_t len) { return api_->softmax_rows(ctx_, x, n_rows, n, err, len); });
}

void CudaBackend::scale_head_groups(float* z, const float* scales, int64_t n_tokens, int64_t n_head, int64_t head_dim,
                                    int64_t n_groups) {
    guarded([&](char* err, size_t len) {
        return api_->scale_head_groups(ctx_, z, scales, n_tokens, n_head, head_dim, n_groups, err, len);
    });
}

void CudaBackend::head_norms(const float* z, const float* grams, float* norms, int64_t n_tokens, int64_t n_head,
                             int64_t head_dim) {
    guarded([&](char* err, size_t len) {
        return api_->head_norms(ctx_, z, grams, norms, n_tokens, n_head, head_dim, err, len);
    });
}

void CudaBackend::ablate_heads(float* z, std::span<const uint8_t> heads, const float* replacement, int64_t n_tokens,
                               int64_t n_head, int64_t head_dim) {
    guarded([&](char* err, size_t len) {
        return api_->ablate_heads(ctx_, z, heads.data(), replacement, n_tokens, n_head, head_dim, err, len);
    });
}

} // namespace octo
