// detect_special_tokens(): llama.cpp's rules for finding end-of-turn, fill-in-the-
// middle and end-of-generation tokens by their text, since converters often leave
// the corresponding GGUF keys unset.
#include <algorithm>
#include <initializer_list>
#include <span>
#include <string_view>

#include "engine/tokenizer/vocab.h"

namespace octo {

namespace {

// Texts use U+FF5C (fullwidth vertical line) and U+2581 (▁) where DeepSeek and
// CodeLlama do.
#define OCTO_FW_BAR "\xEF\xBD\x9C"
#define OCTO_SPM_SPACE "\xE2\x96\x81"

constexpr std::string_view kEotTexts[] = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
    "<|end_of_text|>", "<EOT>", "_<EOT>", "[EOT]",
    "<" OCTO_FW_BAR "end" OCTO_SPM_SPACE "of" OCTO_SPM_SPACE "sentence" OCTO_FW_BAR ">",
    "<end_of_utterance>"};
constexpr std::string_view kEomTexts[] = {"<|eom_id|>"};
constexpr std::string_view kFimPreTexts[] = {
    "<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>",
    "<" OCTO_FW_BAR "fim" OCTO_SPM_SPACE "begin" OCTO_FW_BAR ">", "<PRE>",
    OCTO_SPM_SPACE "<PRE>", "<|code_prefix|>", "<|prefix|>"};
constexpr std::string_view kFimSufTexts[] = {
    "<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>",
    "<" OCTO_FW_BAR "fim" OCTO_SPM_SPACE "hole" OCTO_FW_BAR ">", "<SUF>",
    OCTO_SPM_SPACE "<SUF>", "<|code_suffix|>", "<|suffix|>"};
constexpr std::string_view kFimMidTexts[] = {
    "<|fim_middle|>", "<fim-middle>", "<fim_middle>",
    "<" OCTO_FW_BAR "fim" OCTO_SPM_SPACE "end" OCTO_FW_BAR ">", "<MID>",
    OCTO_SPM_SPACE "<MID>", "<|code_middle|>", "<|middle|>"};
constexpr std::string_view kFimPadTexts[] = {
    "<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"};
constexpr std::string_view kFimRepTexts[] = {
    "<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"};
constexpr std::string_view kFimSepTexts[] = {"<|file_sep|>"};

// Texts that end generation whatever the keys say.
constexpr std::string_view kEogTexts[] = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>",
    "<|calls|>", "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>",
    "_<EOT>", "[EOT]", "[EOS]", "<|end_of_text|>", "<end_of_utterance>", "<eos>",
    "<turn|>", "<|tool_response>",
    "<" OCTO_FW_BAR "end" OCTO_SPM_SPACE "of" OCTO_SPM_SPACE "sentence" OCTO_FW_BAR ">",
    "[e~["};

#undef OCTO_FW_BAR
#undef OCTO_SPM_SPACE

bool is_one_of(std::string_view text, std::span<const std::string_view> list) {
    return std::find(list.begin(), list.end(), text) != list.end();
}

void make_control(Vocab& vocab, int32_t id) {
    if (vocab.types.empty()) vocab.types.assign(vocab.tokens.size(), TokenType::Normal);
    vocab.types[id] = TokenType::Control;
}

// Fills `id` (if unset) with the lowest token whose text is in `texts`.
void detect(Vocab& vocab, int32_t& id, std::span<const std::string_view> texts) {
    if (id >= 0) return;
    for (int32_t i = 0; i < vocab.size(); ++i) {
        if (is_one_of(vocab.tokens[i], texts)) {
            id = i;
            make_control(vocab, i);
            return;
        }
    }
}

bool in_range(const Vocab& vocab, int32_t id) { return id >= 0 && id < vocab.size(); }

// Removes from eog_ids the token with text `victim` when all of `required` are EOG
// (llama.cpp's workarounds for gpt-oss / solar-open "<|end|>" and gemma "</s>").
void drop_eog_if(Vocab& vocab, std::string_view victim,
                 std::initializer_list<std::string_view> required, TokenType new_type) {
    auto eog_has = [&](std::string_view text) {
        return std::any_of(vocab.eog_ids.begin(), vocab.eog_ids.end(),
                           [&](int32_t id) { return vocab.tokens[id] == text; });
    };
    if (!eog_has(victim)) return;
    for (const auto text : required) {
        if (!eog_has(text)) return;
    }
    std::erase_if(vocab.eog_ids, [&](int32_t id) {
        if (vocab.tokens[id] != victim) return false;
        vocab.types[id] = new_type;
        return true;
    });
}

} // namespace

void detect_special_tokens(Vocab& vocab) {
    detect(vocab, vocab.eot_id, kEotTexts);
    detect(vocab, vocab.eom_id, kEomTexts);
    detect(vocab, vocab.fim_pre_id, kFimPreTexts);
    detect(vocab, vocab.fim_suf_id, kFimSufTexts);
    detect(vocab, vocab.fim_mid_id, kFimMidTexts);
    detect(vocab, vocab.fim_pad_id, kFimPadTexts);
    detect(vocab, vocab.fim_rep_id, kFimRepTexts);
    detect(vocab, vocab.fim_sep_id, kFimSepTexts);

    std::vector<int32_t> eog = vocab.eog_ids;
    for (const int32_t id : {vocab.fim_pad_id, vocab.fim_rep_id, vocab.fim_sep_id, vocab.eos_id,
                             vocab.eot_id, vocab.eom_id}) {
        if (in_range(vocab, id)) eog.push_back(id);
    }
    for (int32_t i = 0; i < vocab.size(); ++i) {
        if (is_one_of(vocab.tokens[i], kEogTexts)) {
            eog.push_back(i);
            make_control(vocab, i);
        }
    }
    std::sort(eog.begin(), eog.end());
    eog.erase(std::unique(eog.begin(), eog.end()), eog.end());
    vocab.eog_ids = std::move(eog);

    if (vocab.eog_ids.empty()) return;
    if (vocab.types.empty()) vocab.types.assign(vocab.tokens.size(), TokenType::Normal);
    drop_eog_if(vocab, "<|end|>", {"<|return|>", "<|call|>"}, TokenType::UserDefined);
    drop_eog_if(vocab, "<|end|>", {"<|calls|>", "<|flush|>"}, TokenType::UserDefined);
    drop_eog_if(vocab, "</s>", {"<|tool_response>"}, TokenType::Normal);
}

} // namespace octo
