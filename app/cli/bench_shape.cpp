#include "app/cli/bench_shape.h"

#include <cctype>
#include <charconv>
#include <vector>

#include "engine/gguf/tensor_type.h"
#include "engine/model/architecture.h"

namespace octo::cli {

namespace {

// "768x12x12" as its sizes; empty if any part is not a plain decimal number.
std::vector<long long> parse_sizes(std::string_view dims) {
    std::vector<long long> sizes;
    while (true) {
        const size_t x = dims.find('x');
        const std::string_view part = dims.substr(0, x);
        long long v = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || end != part.data() + part.size()) return {};
        sizes.push_back(v);
        if (x == std::string_view::npos) return sizes;
        dims.remove_prefix(x + 1);
    }
}

std::optional<TensorType> parse_weight_type(const std::string& name) {
    std::string upper(name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (uint32_t raw = 0; raw < 64; ++raw) {
        const auto info = tensor_type_info(raw);
        if (info && info->supported && info->name == upper) return info->type;
    }
    return std::nullopt;
}

} // namespace

Result<SyntheticModelSpec> parse_bench_shape(const std::string& shape) {
    const auto bad = [&](const std::string& why) {
        return make_error(ErrorCode::InvalidArgument,
                          "--synthetic '" + shape + "': " + why +
                              " (expected e.g. 768x12x12:q8_0 = n_embd x n_layer x n_head:type, "
                              "2048x16x32x8:q4_k_m with n_head_kv, or 1024x8x16x4:q8_0:8/2 with 8 experts, 2 per token)");
    };
    const size_t colon = shape.find(':');
    if (colon == std::string::npos) return bad("cannot read it");
    const std::vector<long long> sizes = parse_sizes(std::string_view(shape).substr(0, colon));
    if (sizes.size() != 3 && sizes.size() != 4) return bad("cannot read it");
    const long long n_embd = sizes[0], n_layer = sizes[1], n_head = sizes[2];
    if (n_embd < 32 || n_embd > 16384 || n_layer < 1 || n_layer > 256 || n_head < 1 || n_embd % n_head != 0) {
        return bad("sizes out of range or n_embd not divisible by n_head");
    }
    const long long n_head_kv = sizes.size() == 4 ? sizes[3] : (n_head % 3 == 0 ? n_head / 3 : n_head);
    if (n_head_kv < 1 || n_head % n_head_kv != 0) return bad("n_head_kv must divide n_head");
    SyntheticModelSpec s;
    std::string type_name = shape.substr(colon + 1);
    if (const size_t experts = type_name.find(':'); experts != std::string::npos) {
        const std::string part = type_name.substr(experts + 1);
        type_name.resize(experts);
        const size_t slash = part.find('/');
        if (slash == std::string::npos) return bad("experts must be given as N/K");
        const std::vector<long long> n = parse_sizes(part.substr(0, slash));
        const std::vector<long long> k = parse_sizes(part.substr(slash + 1));
        if (n.size() != 1 || k.size() != 1 || n[0] < 1 || n[0] > 256 || k[0] < 1 || k[0] > n[0]) {
            return bad("experts N/K need 1 <= K <= N <= 256");
        }
        s.n_expert = n[0];
        s.n_expert_used = k[0];
        s.router_spread = 1.0f;
    }
    if (const auto mix = parse_quant_mix(type_name)) {
        s.mix = *mix;
    } else if (const auto type = parse_weight_type(type_name)) {
        s.weight_type = *type;
    } else {
        return bad("unknown or unsupported weight type '" + type_name + "'");
    }
    s.n_vocab = 32000;
    s.n_embd = n_embd;
    s.n_ff = 3 * n_embd;
    s.n_head = n_head;
    s.n_head_kv = n_head_kv;
    s.n_layer = n_layer;
    s.context_length = 4096;
    s.tied_output = true;
    s.seed = 1234;
    return s;
}

Status apply_bench_architecture(SyntheticModelSpec& spec, const std::string& arch, const std::string& expert_type) {
    const ArchitectureInfo* info = find_architecture(arch);
    if (!info) return make_error(ErrorCode::InvalidArgument, "--arch: " + unsupported_architecture_message(arch));
    if (info->requires_experts && spec.n_expert == 0) {
        return make_error(ErrorCode::InvalidArgument,
                          "--arch " + arch + " needs experts: give the shape a third part, e.g. 1024x8x16x4:q8_0:32/4");
    }
    if (info->router) return make_error(ErrorCode::InvalidArgument, "--arch octet: use the built-in model (bench --model)");
    spec.architecture = arch;
    if (info->sliding != SlidingLayers::None) spec.sliding_window = 128;
    if (info->released_untied_output) spec.tied_output = false;
    if (info->latent_attention) { // DeepSeek-V2/V3's proportions from n_embd / n_head = d: value heads of d,
        // key heads of d + d/2 (d/2 RoPE), a latent of 4d, queries through 12d (V3: 1536 for d 128), one
        // leading dense block, one shared expert, experts n_embd / 2 wide
        const int64_t d = spec.n_embd / spec.n_head;
        if (d % 2 != 0 || d < 4) return make_error(ErrorCode::InvalidArgument, "--arch deepseek2 needs n_embd / n_head even");
        spec.n_head_kv = spec.n_head;
        spec.head_dim_v = d;
        spec.n_rot = d / 2;
        spec.head_dim = d + d / 2;
        spec.n_lora_kv = 4 * d;
        spec.n_lora_q = 12 * d;
        spec.n_layer_dense_lead = 1;
        spec.n_expert_shared = 1;
        if (spec.n_ff_exp == 0) spec.n_ff_exp = spec.n_embd / 2;
        spec.tied_output = false;
    }
    if (!expert_type.empty()) {
        if (spec.n_expert == 0) return make_error(ErrorCode::InvalidArgument, "--expert-type needs experts (a shape's N/K part)");
        const auto type = parse_weight_type(expert_type);
        if (!type) return make_error(ErrorCode::InvalidArgument, "--expert-type: unknown or unsupported weight type '" + expert_type + "'");
        spec.expert_type = *type;
    }
    return Ok{};
}

} // namespace octo::cli
