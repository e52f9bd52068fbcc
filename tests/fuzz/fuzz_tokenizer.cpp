// Fuzz target: arbitrary bytes as text through every tokenizer the engine has: the repository's
// small SentencePiece ("llama") and byte-level BPE ("gpt2") vocabularies, the BPE one under
// every pre-tokenizer rule set, and the real vocabularies in ../shared/refdata/vocab when they
// are there (Llama 3, Qwen 3, Gemma 3, DeepSeek V3 …). The first byte picks the tokenizer, the
// second the flags; the rest is the text. Besides crashes and sanitizer reports, findings are:
//   - an id outside the vocabulary;
//   - decode(encode(text)) != text for valid UTF-8 without special-token texts or U+2581, on a
//     vocabulary that can represent every byte (byte-level BPE, or byte fallback);
//   - decode of arbitrary ids (the text's bytes read as ids, out of range included) failing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "engine/gguf/gguf_file.h"
#include "engine/tokenizer/byte_encoding.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "engine/tokenizer/utf8.h"

namespace {

struct Subject {
    octo::Tokenizer tokenizer;
    bool lossless = false;                 // every byte can be represented
    std::vector<std::string> special_texts; // texts the encoder may cut out as special tokens
};

std::vector<Subject> load_subjects() {
    std::vector<Subject> subjects;
    const auto add = [&](const std::filesystem::path& path, const char* pre) {
        auto file = octo::GgufFile::open(path.string());
        if (!file) return;
        auto vocab = octo::vocab_from_gguf(*file);
        if (!vocab) return;
        if (pre) vocab->pre = pre;
        auto tokenizer = octo::Tokenizer::create(std::move(*vocab));
        if (!tokenizer) return;
        Subject s{std::move(*tokenizer), false, {}};
        const octo::Vocab& v = s.tokenizer.vocab();
        int byte_tokens = 0;
        for (int32_t id = 0; id < v.size(); ++id) {
            const octo::TokenType type = v.type(id);
            byte_tokens += type == octo::TokenType::Byte;
            if (type != octo::TokenType::Normal && type != octo::TokenType::Byte && !v.tokens[id].empty()) {
                s.special_texts.push_back(v.tokens[id]);
            }
        }
        // byte fallback (every <0xNN>), or byte-level BPE with a token for every byte's symbol
        bool every_symbol = v.model == octo::kModelBpe;
        for (int byte = 0; byte < 256 && every_symbol; ++byte) {
            every_symbol = s.tokenizer.find_token(octo::byte_to_symbol(static_cast<uint8_t>(byte))) >= 0;
        }
        s.lossless = every_symbol || byte_tokens >= 256;
        subjects.push_back(std::move(s));
    };
    const std::filesystem::path seeds = OCTOSCOPE_FUZZ_SEEDS_DIR;
    add(seeds / "tiny_llama.gguf", nullptr);
    for (const char* pre : {"default", "llama3", "llama-bpe", "deepseek-llm", "deepseek-coder", "deepseek-v3", "falcon",
                            "falcon3", "mpt", "starcoder", "gpt-2", "refact", "qwen2", "stablelm2", "smaug-bpe", "dbrx",
                            "smollm", "pixtral", "deepseek-r1-qwen", "gpt-4o", "no-such-rules"}) {
        add(seeds / "tiny_gpt2_vocab.gguf", pre);
    }
    const std::filesystem::path shared = OCTOSCOPE_FUZZ_SHARED_VOCAB_DIR;
    for (const char* name : {"ggml-vocab-llama-spm.gguf", "ggml-vocab-llama3.gguf", "ggml-vocab-qwen3.gguf",
                             "ggml-vocab-gemma3.gguf", "ggml-vocab-deepseek-v3.gguf", "ggml-vocab-phi-3.gguf"}) {
        if (std::filesystem::exists(shared / name)) add(shared / name, nullptr);
    }
    size_t lossless = 0;
    for (const Subject& s : subjects) lossless += s.lossless;
    std::fprintf(stderr, "fuzz_tokenizer: %zu tokenizers, %zu checked for round trips\n", subjects.size(), lossless);
    return subjects;
}

bool valid_utf8(std::string_view text) {
    for (uint32_t cp : octo::decode_utf8(text)) {
        if (cp == octo::kReplacementChar) return false; // (a literal U+FFFD is skipped too)
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::vector<Subject> subjects = load_subjects();
    if (subjects.empty() || size < 2) return 0;
    const Subject& s = subjects[data[0] % subjects.size()];
    const bool add_special = data[1] & 1, parse_special = data[1] & 2;
    const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

    auto ids = s.tokenizer.encode(text, add_special, parse_special);
    if (ids) {
        for (int32_t id : *ids) {
            if (id < 0 || id >= s.tokenizer.n_tokens()) std::abort(); // an id outside the vocabulary
        }
        bool round_trip = s.lossless && !parse_special && valid_utf8(text) && text.find("\xe2\x96\x81") == std::string_view::npos;
        for (const std::string& special : s.special_texts) {
            if (round_trip && text.find(special) != std::string_view::npos) round_trip = false;
        }
        if (round_trip) {
            std::vector<int32_t> content;
            for (int32_t id : *ids) {
                if (!s.tokenizer.is_control(id)) content.push_back(id); // BOS / EOS added by add_special
            }
            if (s.tokenizer.decode(content) != text) std::abort(); // decode(encode(text)) != text
        }
    }
    std::vector<int32_t> raw((size - 2) / 4);
    for (size_t i = 0; i < raw.size(); ++i) {
        uint32_t v = 0;
        for (int b = 0; b < 4; ++b) v |= static_cast<uint32_t>(data[2 + 4 * i + b]) << (8 * b);
        raw[i] = static_cast<int32_t>(v % 300000u) - 1000; // ids in and around the vocabulary
    }
    (void)s.tokenizer.decode(raw, data[1] & 4);
    return 0;
}
