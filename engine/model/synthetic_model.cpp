#include "engine/model/synthetic_model.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/model/architecture.h"

namespace octo {

namespace {

// Fills tensors with values uniform in [center - spread, center + spread] from one stream.
class TensorFiller {
public:
    TensorFiller(GgufWriter& w, uint32_t seed) : writer_(w), rng_(seed) {}

    void add(const std::string& name, const std::vector<int64_t>& ne, TensorType type, float center, float spread) {
        if (!status_) return;
        int64_t n = 1;
        for (int64_t d : ne) n *= d;
        std::uniform_real_distribution<float> dist(center - spread, center + spread);
        values_.resize(static_cast<size_t>(n));
        for (float& v : values_) v = dist(rng_);
        status_ = writer_.add_tensor_f32(name, ne, type, values_.data());
    }

    // A matrix [n_out rows of n_in] scaled so that products keep unit magnitude.
    void matrix(const std::string& name, int64_t n_in, int64_t n_out, TensorType type) {
        add(name, {n_in, n_out}, type, 0.0f, std::sqrt(3.0f / static_cast<float>(n_in)));
    }

    // n_expert matrices [n_out rows of n_in] stacked into one 3-D tensor, scaled like matrix().
    void experts(const std::string& name, int64_t n_in, int64_t n_out, int64_t n_expert, TensorType type) {
        add(name, {n_in, n_out, n_expert}, type, 0.0f, std::sqrt(3.0f / static_cast<float>(n_in)));
    }

    const Status& status() const { return status_; }

private:
    GgufWriter& writer_;
    std::mt19937 rng_;
    std::vector<float> values_; // the tensor being written
    Status status_ = Ok{};
};

int64_t head_dim_of(const SyntheticModelSpec& s) { return s.head_dim > 0 ? s.head_dim : s.n_embd / s.n_head; }

} // namespace

int64_t synthetic_parameter_count(const SyntheticModelSpec& s) {
    const int64_t head_dim = head_dim_of(s);
    const int64_t n_q = head_dim * s.n_head;
    const int64_t n_embd_kv = head_dim * s.n_head_kv;
    const ArchitectureInfo* arch = find_architecture(s.architecture);
    const int64_t n_ff_exp = s.n_ff_exp > 0 ? s.n_ff_exp : s.n_ff;
    int64_t per_layer = 2 * s.n_embd * n_q + 2 * s.n_embd * n_embd_kv + 2 * s.n_embd;
    if (arch && arch->latent_attention) {
        const int64_t dv = s.head_dim_v, nope = head_dim - s.n_rot;
        per_layer = 2 * s.n_embd + s.n_embd * (s.n_lora_kv + s.n_rot) + s.n_lora_kv + s.n_lora_kv * s.n_head * (nope + dv) +
                    s.n_head * dv * s.n_embd;
        per_layer += s.n_lora_q > 0 ? s.n_embd * s.n_lora_q + s.n_lora_q + s.n_lora_q * n_q : s.n_embd * n_q;
        const int64_t dense = std::min(s.n_layer, s.n_layer_dense_lead);
        const int64_t moe = s.n_embd * s.n_expert + s.n_expert + 3 * s.n_embd * n_ff_exp * (s.n_expert + s.n_expert_shared);
        const int64_t output = s.tied_output ? 0 : s.n_vocab * s.n_embd;
        return s.n_vocab * s.n_embd + output + s.n_embd + s.n_layer * per_layer + dense * 3 * s.n_embd * s.n_ff +
               (s.n_layer - dense) * moe;
    }
    if (s.n_expert > 0) {
        per_layer += s.n_embd * s.n_expert + 3 * s.n_embd * n_ff_exp * s.n_expert;
        if (arch && arch->shared_expert) per_layer += s.n_embd + 3 * s.n_embd * s.n_ff;
    } else {
        per_layer += 3 * s.n_embd * s.n_ff;
    }
    if (arch && arch->qkv_bias) per_layer += n_q + 2 * n_embd_kv;
    if (arch && arch->output_bias) per_layer += s.n_embd;
    if (arch && arch->attn_sinks) per_layer += s.n_head;
    if (arch && arch->expert_biases) per_layer += s.n_expert * (1 + 2 * n_ff_exp + s.n_embd);
    if (arch && arch->qk_norm == QkNorm::PerHead) per_layer += 2 * head_dim;
    if (arch && arch->qk_norm == QkNorm::Whole) per_layer += n_q + n_embd_kv;
    if (arch && arch->router) per_layer += s.n_embd * s.router_groups;
    const int64_t output = s.tied_output ? 0 : s.n_vocab * s.n_embd;
    int64_t freqs = s.rope_freqs ? head_dim / 2 : 0;
    if (arch && arch->long_rope && s.long_rope_original_context > 0) freqs += head_dim;
    return s.n_vocab * s.n_embd + output + s.n_embd + s.n_layer * per_layer + freqs;
}

namespace {

// A matrix's weight type: the quantisation mix's for its role and layer, else the spec's one type.
TensorType matrix_type(const SyntheticModelSpec& s, MatrixRole role, int64_t layer) {
    return s.mix ? quant_mix_type(*s.mix, role, layer, s.n_layer, s.tied_output) : s.weight_type;
}

// A shape the architecture cannot have (experts, latent attention, vocabulary), said.
Status check_synthetic_spec(const SyntheticModelSpec& s, const ArchitectureInfo& arch) {
    if (s.n_head <= 0 || s.n_head_kv <= 0 || (s.head_dim <= 0 && s.n_embd % s.n_head != 0)) {
        return make_error(ErrorCode::InvalidArgument, "synthetic model: inconsistent shape");
    }
    if (s.n_expert < 0 || s.n_expert_used < 0 || s.n_expert_used > s.n_expert || (s.n_expert > 0) != (s.n_expert_used > 0) ||
        (arch.requires_experts && s.n_expert == 0) ||
        (arch.expert_width == ExpertWidth::DenseWidth && s.n_ff_exp > 0 && s.n_ff_exp != s.n_ff)) {
        return make_error(ErrorCode::InvalidArgument, "synthetic model: n_expert_used must be between 1 and n_expert"
                                                      " (required by the architecture), n_ff_exp = n_ff for llama and olmoe");
    }
    if (s.n_vocab < 4) {
        return make_error(ErrorCode::InvalidArgument, "synthetic model: n_vocab must be at least 4");
    }
    const bool latent = arch.latent_attention;
    if (latent && (s.head_dim <= 0 || s.n_rot <= 0 || s.n_rot >= s.head_dim || s.n_rot % 2 != 0 || s.head_dim_v <= 0 ||
                   s.n_lora_kv <= 0 || s.n_lora_q < 0 || s.n_head_kv != s.n_head || s.n_layer_dense_lead < 0 ||
                   s.n_expert_shared < 0)) {
        return make_error(ErrorCode::InvalidArgument, "synthetic model: latent attention needs head_dim > n_rot > 0 (even), "
                                                      "head_dim_v and n_lora_kv > 0, n_head_kv = n_head");
    }
    return Ok{};
}

// The metadata a real file of the architecture carries, with the spec's shape.
void write_synthetic_metadata(GgufWriter& w, const SyntheticModelSpec& s, const ArchitectureInfo& arch) {
    const bool latent = arch.latent_attention;
    const std::string a = s.architecture + ".";
    w.add_string("general.architecture", s.architecture);
    w.add_string("general.name", "octoscope synthetic model (random weights)");
    w.add_u32(a + "block_count", static_cast<uint32_t>(s.n_layer));
    w.add_u32(a + "context_length", static_cast<uint32_t>(s.context_length));
    w.add_u32(a + "embedding_length", static_cast<uint32_t>(s.n_embd));
    w.add_u32(a + "feed_forward_length", static_cast<uint32_t>(s.n_ff));
    w.add_u32(a + "attention.head_count", static_cast<uint32_t>(s.n_head));
    w.add_u32(a + "attention.head_count_kv", static_cast<uint32_t>(s.n_head_kv));
    w.add_f32(a + "attention.layer_norm_rms_epsilon", 1e-5f);
    w.add_f32(a + "rope.freq_base", arch.released_rope_base);
    if (s.head_dim > 0) {
        w.add_u32(a + "attention.key_length", static_cast<uint32_t>(s.head_dim));
        w.add_u32(a + "attention.value_length", static_cast<uint32_t>(latent ? s.head_dim_v : s.head_dim));
    }
    if (latent) { // as DeepSeek-V3's files: sigmoid gates, renormalised, x2.5
        w.add_u32(a + "rope.dimension_count", static_cast<uint32_t>(s.n_rot));
        if (s.n_lora_q > 0) w.add_u32(a + "attention.q_lora_rank", static_cast<uint32_t>(s.n_lora_q));
        w.add_u32(a + "attention.kv_lora_rank", static_cast<uint32_t>(s.n_lora_kv));
        w.add_u32(a + "leading_dense_block_count", static_cast<uint32_t>(s.n_layer_dense_lead));
        w.add_u32(a + "expert_shared_count", static_cast<uint32_t>(s.n_expert_shared));
        w.add_f32(a + "expert_weights_scale", 2.5f);
        w.add_bool(a + "expert_weights_norm", true);
        w.add_u32(a + "expert_gating_func", 2);
        w.add_f32(a + "rope.scaling.yarn_log_multiplier", 0.1f);
    }
    if (arch.sliding != SlidingLayers::None) w.add_u32(a + "attention.sliding_window", static_cast<uint32_t>(s.sliding_window));
    if (arch.attn_softcap && s.attn_logit_softcap > 0) w.add_f32(a + "attn_logit_softcapping", s.attn_logit_softcap);
    if (arch.final_softcap && s.final_logit_softcap > 0) w.add_f32(a + "final_logit_softcapping", s.final_logit_softcap);
    if (s.yarn_factor > 0) {
        w.add_string(a + "rope.scaling.type", "yarn");
        w.add_f32(a + "rope.scaling.factor", s.yarn_factor);
        w.add_u32(a + "rope.scaling.original_context_length", static_cast<uint32_t>(s.yarn_original_context));
    }
    if (arch.local_rope_base && s.rope_freq_base_swa > 0) w.add_f32(a + "rope.freq_base_swa", s.rope_freq_base_swa);
    if (arch.long_rope && s.long_rope_original_context > 0) {
        const double scale = static_cast<double>(s.context_length) / static_cast<double>(s.long_rope_original_context);
        const double factor =
            scale > 1.0 ? std::sqrt(1.0 + std::log(scale) / std::log(static_cast<double>(s.long_rope_original_context)))
                        : 1.0;
        w.add_u32(a + "rope.scaling.original_context_length", static_cast<uint32_t>(s.long_rope_original_context));
        w.add_f32(a + "rope.scaling.attn_factor", static_cast<float>(factor));
    }
    if (arch.router) w.add_u32(a + "router.group_count", static_cast<uint32_t>(s.router_groups));
    if (s.n_expert > 0) {
        w.add_u32(a + "expert_count", static_cast<uint32_t>(s.n_expert));
        w.add_u32(a + "expert_used_count", static_cast<uint32_t>(s.n_expert_used));
        // llama and olmoe experts are n_ff wide (their readers ignore the key)
        if (arch.expert_width != ExpertWidth::DenseWidth) {
            w.add_u32(a + "expert_feed_forward_length", static_cast<uint32_t>(s.n_ff_exp > 0 ? s.n_ff_exp : s.n_ff));
        }
    }
    write_ascii_vocab(w, s.n_vocab);
    if (!s.chat_template.empty()) w.add_string("tokenizer.chat_template", s.chat_template);
}

// Layer l's attention tensors: latent, fused or separate projections, biases, q/k norms, output.
void add_attention_tensors(TensorFiller& f, const SyntheticModelSpec& s, const ArchitectureInfo& arch, int64_t l, const std::string& b) {
    const bool latent = arch.latent_attention;
    const int64_t head_dim = head_dim_of(s);
    const int64_t n_q = head_dim * s.n_head;
    const int64_t n_embd_kv = head_dim * s.n_head_kv;
    if (latent) {
        const int64_t nope = head_dim - s.n_rot;
        if (s.n_lora_q > 0) {
            f.matrix(b + "attn_q_a.weight", s.n_embd, s.n_lora_q, matrix_type(s, MatrixRole::AttnQ, l));
            f.add(b + "attn_q_a_norm.weight", {s.n_lora_q}, TensorType::F32, 1.0f, 0.2f);
            f.matrix(b + "attn_q_b.weight", s.n_lora_q, n_q, matrix_type(s, MatrixRole::AttnQ, l));
        } else {
            f.matrix(b + "attn_q.weight", s.n_embd, n_q, matrix_type(s, MatrixRole::AttnQ, l));
        }
        f.matrix(b + "attn_kv_a_mqa.weight", s.n_embd, s.n_lora_kv + s.n_rot, matrix_type(s, MatrixRole::AttnK, l));
        f.add(b + "attn_kv_a_norm.weight", {s.n_lora_kv}, TensorType::F32, 1.0f, 0.2f);
        f.matrix(b + "attn_kv_b.weight", s.n_lora_kv, s.n_head * (nope + s.head_dim_v), matrix_type(s, MatrixRole::AttnV, l));
    } else if (arch.fused_qkv) { // typed as a mix types Q (llama-quantize's own rule for attn_qkv differs)
        f.matrix(b + "attn_qkv.weight", s.n_embd, n_q + 2 * n_embd_kv, matrix_type(s, MatrixRole::AttnQ, l));
    } else {
        f.matrix(b + "attn_q.weight", s.n_embd, n_q, matrix_type(s, MatrixRole::AttnQ, l));
        f.matrix(b + "attn_k.weight", s.n_embd, n_embd_kv, matrix_type(s, MatrixRole::AttnK, l));
        f.matrix(b + "attn_v.weight", s.n_embd, n_embd_kv, matrix_type(s, MatrixRole::AttnV, l));
    }
    if (arch.qkv_bias) {
        f.add(b + "attn_q.bias", {n_q}, TensorType::F32, 0.0f, 0.5f);
        f.add(b + "attn_k.bias", {n_embd_kv}, TensorType::F32, 0.0f, 0.5f);
        f.add(b + "attn_v.bias", {n_embd_kv}, TensorType::F32, 0.0f, 0.5f);
    }
    if (arch.qk_norm != QkNorm::None) {
        const bool whole = arch.qk_norm == QkNorm::Whole;
        f.add(b + "attn_q_norm.weight", {whole ? n_q : head_dim}, TensorType::F32, 1.0f, 0.5f);
        f.add(b + "attn_k_norm.weight", {whole ? n_embd_kv : head_dim}, TensorType::F32, 1.0f, 0.5f);
    }
    f.matrix(b + "attn_output.weight", latent ? s.n_head * s.head_dim_v : n_q, s.n_embd, matrix_type(s, MatrixRole::AttnOutput, l));
    if (arch.output_bias) f.add(b + "attn_output.bias", {s.n_embd}, TensorType::F32, 0.0f, 0.5f);
    if (arch.attn_sinks) f.add(b + "attn_sinks.weight", {s.n_head}, TensorType::F32, 0.0f, 2.0f);
}

// Layer l's feed-forward tensors: experts (router, biases, shared experts) or a dense FFN.
void add_ffn_tensors(TensorFiller& f, const SyntheticModelSpec& s, const ArchitectureInfo& arch, int64_t l, const std::string& b) {
    const bool latent = arch.latent_attention;
    const bool experts = s.n_expert > 0 && !(latent && l < s.n_layer_dense_lead);
    if (experts) { // the router F32, as convert_hf_to_gguf.py and llama-quantize leave it
        const int64_t n_ff_exp = s.n_ff_exp > 0 ? s.n_ff_exp : s.n_ff;
        f.add(b + "ffn_gate_inp.weight", {s.n_embd, s.n_expert}, TensorType::F32, 0.0f, s.router_spread);
        if (arch.expert_gating_keys) f.add(b + "exp_probs_b.bias", {s.n_expert}, TensorType::F32, 0.0f, 0.1f);
        f.experts(b + "ffn_gate_exps.weight", s.n_embd, n_ff_exp, s.n_expert, s.expert_type.value_or(matrix_type(s, MatrixRole::FfnGate, l)));
        f.experts(b + "ffn_up_exps.weight", s.n_embd, n_ff_exp, s.n_expert, s.expert_type.value_or(matrix_type(s, MatrixRole::FfnUp, l)));
        f.experts(b + "ffn_down_exps.weight", n_ff_exp, s.n_embd, s.n_expert, s.expert_type.value_or(matrix_type(s, MatrixRole::FfnDown, l)));
        if (arch.expert_biases) {
            f.add(b + "ffn_gate_inp.bias", {s.n_expert}, TensorType::F32, 0.0f, s.router_spread);
            f.add(b + "ffn_gate_exps.bias", {n_ff_exp, s.n_expert}, TensorType::F32, 0.0f, 0.5f);
            f.add(b + "ffn_up_exps.bias", {n_ff_exp, s.n_expert}, TensorType::F32, 0.0f, 0.5f);
            f.add(b + "ffn_down_exps.bias", {s.n_embd, s.n_expert}, TensorType::F32, 0.0f, 0.5f);
        }
        if (arch.shared_expert) {
            if (arch.shared_expert_gate) f.add(b + "ffn_gate_inp_shexp.weight", {s.n_embd}, TensorType::F32, 0.0f, 0.3f);
            const int64_t shared = latent ? n_ff_exp * s.n_expert_shared : s.n_ff; // deepseek2: shared experts side by side
            f.matrix(b + "ffn_gate_shexp.weight", s.n_embd, shared, matrix_type(s, MatrixRole::FfnGate, l));
            f.matrix(b + "ffn_up_shexp.weight", s.n_embd, shared, matrix_type(s, MatrixRole::FfnUp, l));
            f.matrix(b + "ffn_down_shexp.weight", shared, s.n_embd, matrix_type(s, MatrixRole::FfnDown, l));
        }
    } else if (arch.fused_gate_up) { // rows gate, then up
        f.matrix(b + "ffn_up.weight", s.n_embd, 2 * s.n_ff, matrix_type(s, MatrixRole::FfnUp, l));
    } else {
        f.matrix(b + "ffn_gate.weight", s.n_embd, s.n_ff, matrix_type(s, MatrixRole::FfnGate, l));
        f.matrix(b + "ffn_up.weight", s.n_embd, s.n_ff, matrix_type(s, MatrixRole::FfnUp, l));
    }
    if (!experts) f.matrix(b + "ffn_down.weight", s.n_ff, s.n_embd, matrix_type(s, MatrixRole::FfnDown, l));
}

} // namespace

Result<std::vector<uint8_t>> make_synthetic_model(const SyntheticModelSpec& s) {
    const ArchitectureInfo* arch = find_architecture(s.architecture);
    if (!arch) {
        return make_error(ErrorCode::InvalidArgument, "synthetic model: " + unsupported_architecture_message(s.architecture));
    }
    if (auto checked = check_synthetic_spec(s, *arch); !checked) return checked.error();
    GgufWriter w;
    write_synthetic_metadata(w, s, *arch);
    // Every tensor in one order, drawn from one seed: the same spec gives the same bytes.
    TensorFiller f(w, s.seed);
    f.add("token_embd.weight", {s.n_embd, s.n_vocab}, matrix_type(s, MatrixRole::TokenEmbd, 0), 0.0f, 1.0f);
    f.add("output_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.2f);
    if (!s.tied_output) f.matrix("output.weight", s.n_embd, s.n_vocab, matrix_type(s, MatrixRole::Output, 0));
    for (int64_t l = 0; l < s.n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        f.add(b + "attn_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.2f);
        add_attention_tensors(f, s, *arch, l, b);
        f.add(b + std::string(arch->ffn_norm) + ".weight", {s.n_embd}, TensorType::F32, 1.0f, 0.2f);
        add_ffn_tensors(f, s, *arch, l, b);
        if (arch->router) f.add(b + "router.weight", {s.n_embd, s.router_groups}, TensorType::F32, 0.0f, 0.3f);
        if (arch->post_norms) {
            f.add(b + "post_attention_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.2f);
            f.add(b + "post_ffw_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.2f);
        }
    }
    // Drawn last so that a model with and without factors shares every other weight.
    const int64_t head_dim = head_dim_of(s);
    if (s.rope_freqs) f.add("rope_freqs.weight", {head_dim / 2}, TensorType::F32, 2.0f, 1.0f);
    if (arch->long_rope && s.long_rope_original_context > 0) {
        f.add("rope_factors_long.weight", {head_dim / 2}, TensorType::F32, 2.0f, 1.0f);
        f.add("rope_factors_short.weight", {head_dim / 2}, TensorType::F32, 1.25f, 0.25f);
    }
    if (!f.status()) return f.status().error();
    return w.to_bytes();
}

void write_spm_vocab(GgufWriter& w, const std::vector<std::string>& tokens, const std::vector<float>& scores,
                     const std::vector<int32_t>& types) {
    w.add_string("tokenizer.ggml.model", "llama");
    w.add_array_strings("tokenizer.ggml.tokens", tokens);
    w.add_array_f32("tokenizer.ggml.scores", scores);
    w.add_array_i32("tokenizer.ggml.token_type", types);
    w.add_u32("tokenizer.ggml.unknown_token_id", 0);
    w.add_u32("tokenizer.ggml.bos_token_id", 1);
    w.add_u32("tokenizer.ggml.eos_token_id", 2);
}

void write_ascii_vocab(GgufWriter& w, int64_t n_vocab) {
    constexpr int32_t kNormal = 1, kUnknown = 2, kControl = 3, kUnused = 5, kByte = 6;
    std::vector<std::string> tokens = {"<unk>", "<s>", "</s>", "<0x0A>"};
    std::vector<int32_t> types = {kUnknown, kControl, kControl, kByte};
    for (int64_t id = 4; id < n_vocab; ++id) {
        const int64_t ch = ' ' + (id - 4);
        if (ch <= '~') {
            tokens.push_back(ch == ' ' ? std::string("\xE2\x96\x81") : std::string(1, static_cast<char>(ch)));
            types.push_back(kNormal);
        } else {
            tokens.push_back(std::string("<unused").append(std::to_string(id)).append(">"));
            types.push_back(kUnused);
        }
    }
    // Every token is one character, so no merges exist; scores only order the tokens.
    std::vector<float> scores;
    for (size_t id = 0; id < tokens.size(); ++id) scores.push_back(-static_cast<float>(id));
    write_spm_vocab(w, tokens, scores, types);
}

} // namespace octo
