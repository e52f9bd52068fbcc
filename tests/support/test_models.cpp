#include "tests/support/test_models.h"

#include <cmath>
#include <random>
#include <stdexcept>

#include "engine/gguf/gguf_writer.h"
#include "tests/support/test_vocab.h"

namespace octo::test {

namespace {

class TensorFiller {
public:
    TensorFiller(GgufWriter& w, uint32_t seed) : writer_(w), rng_(seed) {}

    // Values uniform in [center - spread, center + spread].
    void add(const std::string& name, const std::vector<int64_t>& ne, TensorType type, float center,
             float spread) {
        int64_t n = 1;
        for (int64_t d : ne) n *= d;
        std::uniform_real_distribution<float> dist(center - spread, center + spread);
        std::vector<float> values(static_cast<size_t>(n));
        for (float& v : values) v = dist(rng_);
        if (!writer_.add_tensor_f32(name, ne, type, values.data())) {
            throw std::runtime_error("cannot add test tensor " + name);
        }
    }

    // A matrix [n_in, n_out] scaled so that products keep unit magnitude.
    void matrix(const std::string& name, int64_t n_in, int64_t n_out, TensorType type) {
        add(name, {n_in, n_out}, type, 0.0f, std::sqrt(3.0f / static_cast<float>(n_in)));
    }

private:
    GgufWriter& writer_;
    std::mt19937 rng_;
};

} // namespace

std::vector<uint8_t> make_test_model(const TestModelSpec& s) {
    GgufWriter w;
    const std::string a = s.architecture + ".";
    const int64_t head_dim = s.n_embd / s.n_head;
    const int64_t n_embd_kv = head_dim * s.n_head_kv;
    w.add_string("general.architecture", s.architecture);
    w.add_string("general.name", "octoscope test model");
    w.add_u32(a + "block_count", static_cast<uint32_t>(s.n_layer));
    w.add_u32(a + "context_length", static_cast<uint32_t>(s.context_length));
    w.add_u32(a + "embedding_length", static_cast<uint32_t>(s.n_embd));
    w.add_u32(a + "feed_forward_length", static_cast<uint32_t>(s.n_ff));
    w.add_u32(a + "attention.head_count", static_cast<uint32_t>(s.n_head));
    w.add_u32(a + "attention.head_count_kv", static_cast<uint32_t>(s.n_head_kv));
    w.add_f32(a + "attention.layer_norm_rms_epsilon", 1e-5f);
    w.add_f32(a + "rope.freq_base", s.architecture == "qwen2" ? 1e6f : 1e4f);
    add_test_vocab(w, s.n_vocab);

    TensorFiller f(w, s.seed);
    const TensorType t = s.weight_type;
    f.add("token_embd.weight", {s.n_embd, s.n_vocab}, t, 0.0f, 1.0f);
    f.add("output_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.2f);
    if (!s.tied_output) f.matrix("output.weight", s.n_embd, s.n_vocab, t);
    for (int64_t l = 0; l < s.n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        f.add(b + "attn_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.2f);
        f.matrix(b + "attn_q.weight", s.n_embd, s.n_embd, t);
        f.matrix(b + "attn_k.weight", s.n_embd, n_embd_kv, t);
        f.matrix(b + "attn_v.weight", s.n_embd, n_embd_kv, t);
        if (s.architecture == "qwen2") {
            f.add(b + "attn_q.bias", {s.n_embd}, TensorType::F32, 0.0f, 0.5f);
            f.add(b + "attn_k.bias", {n_embd_kv}, TensorType::F32, 0.0f, 0.5f);
            f.add(b + "attn_v.bias", {n_embd_kv}, TensorType::F32, 0.0f, 0.5f);
        }
        f.matrix(b + "attn_output.weight", s.n_embd, s.n_embd, t);
        f.add(b + "ffn_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.2f);
        f.matrix(b + "ffn_gate.weight", s.n_embd, s.n_ff, t);
        f.matrix(b + "ffn_up.weight", s.n_embd, s.n_ff, t);
        f.matrix(b + "ffn_down.weight", s.n_ff, s.n_embd, t);
    }
    // Drawn last so that a model with and without factors shares every other weight.
    if (s.rope_freqs) f.add("rope_freqs.weight", {head_dim / 2}, TensorType::F32, 2.0f, 1.0f);
    return w.to_bytes();
}

} // namespace octo::test
