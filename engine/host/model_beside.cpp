#include "engine/host/model_beside.h"

#include <utility>

namespace octo {

Result<OpenedModel> open_beside(const OpenedModel& a, const std::string& path, std::optional<Precision> precision,
                                std::function<bool(double)> progress) {
    OpenOptions options;
    options.on_backend = a.backend.get();
    options.n_ctx = a.info.n_ctx;
    options.kv_types = kv_types_exactly(a.info.kv_types); // B's pool as A's
    options.kv_fallback = true;
    options.precision = precision;
    options.progress = std::move(progress);
    auto b = open_model(path, options);
    if (!b && b.error().code == ErrorCode::OutOfMemory) {
        Error e = b.error();
        e.message = path + " does not fit in memory beside " + a.info.path + " (both are open at once): " + e.message;
        return e;
    }
    return b;
}

ReportModel report_model_of(const OpenedModel& opened, Backend& backend) {
    return ReportModel{*opened.model, backend, *opened.tokenizer, opened.map(), *opened.kv, opened.info.path};
}

} // namespace octo
