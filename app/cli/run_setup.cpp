#include "app/cli/run_setup.h"

#include "engine/backend/backend_selection.h"
#include "engine/instrumentation/head_map_source.h"

namespace octo::cli {

Result<std::unique_ptr<Backend>> make_backend(const std::string& backend, int threads) {
    const auto choice = parse_backend_choice(backend);
    if (!choice) return make_error(ErrorCode::InvalidArgument, "--backend must be auto, cpu or cuda");
    auto selected = select_backend(*choice, threads);
    if (!selected) return selected.error();
    return std::move(selected->backend);
}

Result<RunSetup> set_up_run(const std::string& model_path, int64_t ctx_size, int threads,
                            const std::string& head_map_file, const std::string& backend_name) {
    auto backend = make_backend(backend_name, threads);
    if (!backend) return backend.error();
    LoadOptions load;
    load.n_ctx = ctx_size;
    auto loaded = load_model_and_tokenizer(model_path, load);
    if (!loaded) return loaded.error();
    const Model& model = *loaded->model;
    auto map = resolve_head_map(model, head_map_file);
    if (!map) return map.error();
    auto kv = KvStore::create(*backend.value(), model.params(), kv_pool_for_context(model.n_ctx()));
    if (!kv) return kv.error();
    return RunSetup{std::move(loaded.value()), std::move(backend.value()), std::move(map.value()),
                    std::move(kv.value())};
}

} // namespace octo::cli
