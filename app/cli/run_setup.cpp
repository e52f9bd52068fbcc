#include "app/cli/run_setup.h"

#include "engine/instrumentation/head_map_source.h"

namespace octo::cli {

Result<RunSetup> set_up_run(const std::string& model_path, int64_t ctx_size, int threads,
                            const std::string& head_map_file) {
    LoadOptions load;
    load.n_ctx = ctx_size;
    auto loaded = load_model_and_tokenizer(model_path, load);
    if (!loaded) return loaded.error();
    const Model& model = *loaded->model;
    CpuBackendOptions backend_options;
    backend_options.n_threads = threads;
    auto backend = CpuBackend::create(backend_options);
    if (!backend) return backend.error();
    auto map = resolve_head_map(model, head_map_file);
    if (!map) return map.error();
    auto kv = KvStore::create(*backend.value(), model.params(), kv_pool_for_context(model.n_ctx()));
    if (!kv) return kv.error();
    return RunSetup{std::move(loaded.value()), std::move(backend.value()), std::move(map.value()),
                    std::move(kv.value())};
}

} // namespace octo::cli
