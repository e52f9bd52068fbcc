#include "app/cli/bench_shape.h"

#include <cctype>
#include <cstdio>

#include "engine/gguf/tensor_type.h"

namespace octo::cli {

Result<SyntheticModelSpec> parse_bench_shape(const std::string& shape) {
    const auto bad = [&](const std::string& why) {
        return make_error(ErrorCode::InvalidArgument,
                          "--synthetic '" + shape + "': " + why + " (expected e.g. 768x12x12:q8_0 = n_embd x n_layer x n_head:type)");
    };
    long long n_embd = 0, n_layer = 0, n_head = 0;
    char type_name[16] = {};
    int consumed = 0;
    if (std::sscanf(shape.c_str(), "%lldx%lldx%lld:%15[A-Za-z0-9_]%n", &n_embd, &n_layer, &n_head, type_name,
                    &consumed) != 4 || static_cast<size_t>(consumed) != shape.size()) {
        return bad("cannot read it");
    }
    if (n_embd < 32 || n_embd > 16384 || n_layer < 1 || n_layer > 256 || n_head < 1 || n_embd % n_head != 0) {
        return bad("sizes out of range or n_embd not divisible by n_head");
    }
    std::string upper(type_name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::optional<TensorType> type;
    for (uint32_t raw = 0; raw < 64; ++raw) {
        const auto info = tensor_type_info(raw);
        if (info && info->supported && info->name == upper) type = info->type;
    }
    if (!type) return bad("unknown or unsupported weight type '" + std::string(type_name) + "'");
    SyntheticModelSpec s;
    s.weight_type = *type;
    s.n_vocab = 32000;
    s.n_embd = n_embd;
    s.n_ff = 3 * n_embd;
    s.n_head = n_head;
    s.n_head_kv = n_head % 3 == 0 ? n_head / 3 : n_head;
    s.n_layer = n_layer;
    s.context_length = 4096;
    s.tied_output = true;
    s.seed = 1234;
    return s;
}

} // namespace octo::cli
