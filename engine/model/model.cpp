#include "engine/model/model.h"

#include <algorithm>
#include <atomic>
#include <filesystem>

#include "engine/model/model_validation.h"

namespace octo {

namespace {

// Token count the tokenizer metadata states, or the embedding's rows when there is none.
int64_t tokenizer_vocab_size(const GgufFile& file, const ModelParams& p) {
    auto tokens = file.get_array("tokenizer.ggml.tokens");
    return tokens ? static_cast<int64_t>(tokens.value()->size()) : p.n_vocab;
}

// Reads one byte per page so the weights are resident before the first token.
uint8_t touch_pages(const GgufTensorInfo& t) {
    constexpr uint64_t kPage = 4096;
    uint8_t sum = 0;
    for (uint64_t i = 0; i < t.n_bytes; i += kPage) sum = static_cast<uint8_t>(sum + t.data[i]);
    return sum;
}

} // namespace

int64_t Model::n_params() const {
    int64_t n = 0;
    for (const auto& t : file_.tensors()) n += t.n_elements();
    return n;
}

Result<std::unique_ptr<Model>> Model::load(const std::string& path, const LoadOptions& options) {
    auto file = GgufFile::open(path);
    if (!file) return file.error();
    return load(std::move(file.value()), path, options);
}

Result<std::unique_ptr<Model>> Model::load(GgufFile file, const std::string& path, const LoadOptions& options) {
    auto model = from_gguf(std::move(file), options);
    if (!model) {
        Error e = model.error(); // the file's errors name it, as GgufFile::open's do
        if (e.code != ErrorCode::Cancelled) e.message = path + ": " + e.message;
        return e;
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    const auto mtime = std::filesystem::last_write_time(path, ec).time_since_epoch().count();
    model.value()->path_ = std::filesystem::absolute(path, ec).string();
    model.value()->identity_ = "file:" + model.value()->path_ + ":" + std::to_string(size) + ":" + std::to_string(mtime);
    return model;
}

Result<std::unique_ptr<Model>> Model::from_gguf(GgufFile file, const LoadOptions& options) {
    static std::atomic<int64_t> parsed{0};
    std::unique_ptr<Model> m(new Model(std::move(file)));
    m->identity_ = "memory:" + std::to_string(++parsed);
    const GgufFile& f = m->file_;
    auto params = read_model_params(f);
    if (!params) return params.error();
    m->params_ = params.value();
    const ModelParams& p = m->params_;
    if (auto s = validate_model(f, p, tokenizer_vocab_size(f, p)); !s) return s.error();
    if (!p.rope_scaling_type.empty() && p.rope_scaling_type != "none" && p.rope_scaling_type != "linear" &&
        p.rope_scaling_type != "yarn") {
        return make_error(ErrorCode::Unsupported, "RoPE scaling '" + p.rope_scaling_type +
                                                      "' is not supported (supported: none, linear, yarn)");
    }
    if (options.n_ctx < 0 || options.n_batch <= 0) {
        return make_error(ErrorCode::InvalidArgument, "n_ctx must be >= 0 and n_batch positive");
    }
    // The whole context by default, within a window that covers every layer (phi3: there the
    // window changes nothing, so every backend runs the model — CUDA has no window mask yet; a
    // longer context, asked for, is masked) and within memory.
    const std::optional<uint64_t> available =
        options.available_bytes ? options.available_bytes : available_memory_bytes();
    auto plan = plan_context(f, p, options.n_ctx, options.n_batch, options.kv_types, available);
    if (!plan) return plan.error();
    m->n_ctx_ = plan->n_ctx;
    m->context_shortened_ = plan->shortened;
    m->n_batch_ = options.n_batch;
    m->estimate_ = plan->estimate;

    auto weights = bind_weights(f, p);
    if (!weights) return weights.error();
    m->weights_ = std::move(weights.value());

    const uint64_t total = std::max<uint64_t>(1, m->estimate_.weights_bytes);
    uint64_t done = 0;
    volatile uint8_t sink = 0;
    for (const auto& t : f.tensors()) {
        if (options.progress && !options.progress(static_cast<double>(done) / static_cast<double>(total))) {
            return make_error(ErrorCode::Cancelled, "loading was cancelled");
        }
        sink = static_cast<uint8_t>(sink + touch_pages(t));
        done += t.n_bytes;
    }
    if (options.progress && !options.progress(1.0)) return make_error(ErrorCode::Cancelled, "loading was cancelled");
    return m;
}

} // namespace octo
