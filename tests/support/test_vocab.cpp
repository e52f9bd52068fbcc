#include "tests/support/test_vocab.h"

namespace octo::test {

void add_test_vocab(GgufWriter& w, int64_t n_vocab) {
    constexpr int32_t kNormal = 1, kUnknown = 2, kControl = 3, kUnused = 5;
    std::vector<std::string> tokens = {"<unk>", "<s>", "</s>"};
    std::vector<int32_t> types = {kUnknown, kControl, kControl};
    for (int64_t id = 3; id < n_vocab; ++id) {
        const int64_t ch = ' ' + (id - 3);
        if (ch <= '~') {
            tokens.push_back(ch == ' ' ? std::string("\xE2\x96\x81") : std::string(1, static_cast<char>(ch)));
            types.push_back(kNormal);
        } else {
            tokens.push_back("<unused" + std::to_string(id) + ">");
            types.push_back(kUnused);
        }
    }
    // Later ids score lower, so merges are deterministic (none exist: every token is one char).
    std::vector<float> scores;
    for (size_t id = 0; id < tokens.size(); ++id) scores.push_back(-static_cast<float>(id));
    add_spm_vocab(w, tokens, scores, types);
}

void add_spm_vocab(GgufWriter& w, const std::vector<std::string>& tokens, const std::vector<float>& scores,
                   const std::vector<int32_t>& types) {
    w.add_string("tokenizer.ggml.model", "llama");
    w.add_array_strings("tokenizer.ggml.tokens", tokens);
    w.add_array_f32("tokenizer.ggml.scores", scores);
    w.add_array_i32("tokenizer.ggml.token_type", types);
    w.add_u32("tokenizer.ggml.unknown_token_id", 0);
    w.add_u32("tokenizer.ggml.bos_token_id", 1);
    w.add_u32("tokenizer.ggml.eos_token_id", 2);
}

} // namespace octo::test
