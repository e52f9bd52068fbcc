#include "app/cli/kv_type_option.h"

#include <string>

#include "engine/kv/kv_types.h"

namespace octo::cli {

nlohmann::json kv_types_json(KvTypes types) {
    return {{"k", std::string(kv_type_name(types.k))}, {"v", std::string(kv_type_name(types.v))}};
}

void add_kv_type_options(CLI::App& cmd, KvTypeOptions& options) {
    const auto add = [&cmd](const std::string& name, std::optional<TensorType>& type, const std::string& help) {
        cmd.add_option_function<std::string>(
               name, [&type](const std::string& value) { type = parse_kv_type(value); }, help)
            ->check(CLI::IsMember({std::string("f32"), std::string("f16"), std::string("q8_0"), std::string("q4_0")}));
    };
    add("--kv-type", options.both,
        "How the KV cache stores keys and values: f32; f16 (half the memory; at reference precision the query "
        "and the attention weights are rounded as llama.cpp does with its f16 cache); q8_0 or q4_0 (blocks of 32, "
        "about a quarter or an eighth of f32, CPU only, heads a multiple of 32). Default: f16 at reference "
        "precision (llama.cpp's default), f32 at exact precision and on the CUDA backend");
    add("--kv-type-k", options.k, "The KV cache's keys only: f32, f16, q8_0 or q4_0 (overrides --kv-type)");
    add("--kv-type-v", options.v, "The KV cache's values only: f32, f16, q8_0 or q4_0 (overrides --kv-type)");
}

} // namespace octo::cli
