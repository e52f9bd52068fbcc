#include "app/cli/run_setup.h"

#include "engine/backend/backend_selection.h"
#include "engine/instrumentation/head_map_source.h"

namespace octo::cli {

Result<RunSetup> set_up_run(const std::string& model_path, int64_t ctx_size, int threads,
                            const std::string& head_map_file, const std::string& backend_name) {
    const auto choice = parse_backend_choice(backend_name);
    if (!choice) return make_error(ErrorCode::InvalidArgument, "--backend must be auto, cpu or cuda");
    LoadOptions load;
    load.n_ctx = ctx_size;
    auto loaded = load_model_and_tokenizer(model_path, load);
    if (!loaded) return loaded.error();
    const Model& model = *loaded->model;
    auto backend = select_backend(*choice, threads);
    if (!backend) return backend.error();
    auto map = resolve_head_map(model, head_map_file);
    if (!map) return map.error();
    auto kv = KvStore::create(*backend->backend, model.params(), kv_pool_for_context(model.n_ctx()));
    if (!kv) return kv.error();
    return RunSetup{std::move(loaded.value()), std::move(backend->backend), std::move(map.value()),
                    std::move(kv.value())};
}

} // namespace octo::cli
