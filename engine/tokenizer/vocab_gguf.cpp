// vocab_from_gguf(): reads the `tokenizer.ggml.*` metadata of a GGUF file.
#include <string>

#include "engine/gguf/gguf_file.h"
#include "engine/tokenizer/vocab.h"

namespace octo {

namespace {

Error tokenizer_error(std::string message) {
    return make_error(ErrorCode::Tokenizer, std::move(message));
}

Error wrong_type(const std::string& key, const GgufValue& value, std::string_view expected) {
    std::string actual(gguf_type_name(value.type));
    if (value.type == GgufType::Array && value.array) {
        actual += " of " + std::string(gguf_type_name(value.array->elem_type));
    }
    return tokenizer_error(key + " has type " + actual + ", expected " + std::string(expected));
}

// The array under `key`, nullptr when absent; an error when it is not an array
// whose elements satisfy `elem_ok`.
template <class Pred>
Result<const GgufArray*> find_array(const GgufFile& file, const std::string& key,
                                    std::string_view expected, Pred elem_ok) {
    const GgufValue* value = file.find(key);
    if (!value) return static_cast<const GgufArray*>(nullptr);
    if (value->type != GgufType::Array || !value->array || !elem_ok(value->array->elem_type)) {
        return wrong_type(key, *value, expected);
    }
    return value->array.get();
}

Status read_bool(const GgufFile& file, const std::string& key, bool& out) {
    const GgufValue* value = file.find(key);
    if (!value) return Ok{};
    if (value->type != GgufType::Bool) return wrong_type(key, *value, "bool");
    out = value->i != 0;
    return Ok{};
}

Status read_strings(const GgufFile& file, Vocab& vocab) {
    const GgufValue* model = file.find("tokenizer.ggml.model");
    if (!model) return tokenizer_error("tokenizer.ggml.model is missing (no tokenizer in file)");
    if (model->type != GgufType::String) {
        return wrong_type("tokenizer.ggml.model", *model, "string");
    }
    vocab.model = model->s;
    if (const GgufValue* pre = file.find("tokenizer.ggml.pre")) {
        if (pre->type != GgufType::String) return wrong_type("tokenizer.ggml.pre", *pre, "string");
        vocab.pre = pre->s;
    }
    return Ok{};
}

Status read_token_arrays(const GgufFile& file, Vocab& vocab) {
    const auto is_string = [](GgufType t) { return t == GgufType::String; };
    auto tokens = find_array(file, "tokenizer.ggml.tokens", "array of string", is_string);
    if (!tokens) return tokens.error();
    if (!*tokens) return tokenizer_error("tokenizer.ggml.tokens is missing");
    vocab.tokens = (*tokens)->strings;
    // Like llama.cpp, give empty token texts a unique placeholder.
    for (size_t id = 0; id < vocab.tokens.size(); ++id) {
        if (vocab.tokens[id].empty()) vocab.tokens[id] = "[EMPTY_" + std::to_string(id) + "]";
    }

    auto scores = find_array(file, "tokenizer.ggml.scores", "array of float32 or int32",
                             [](GgufType t) {
                                 return gguf_type_is_float(t) || gguf_type_is_signed_int(t) ||
                                        gguf_type_is_unsigned_int(t);
                             });
    if (!scores) return scores.error();
    if (const GgufArray* a = *scores) {
        for (const double f : a->floats) vocab.scores.push_back(static_cast<float>(f));
        for (const int64_t i : a->ints) vocab.scores.push_back(static_cast<float>(i));
        for (const uint64_t u : a->uints) vocab.scores.push_back(static_cast<float>(u));
    }

    auto types = find_array(file, "tokenizer.ggml.token_type", "array of int32", [](GgufType t) {
        return gguf_type_is_signed_int(t) || gguf_type_is_unsigned_int(t);
    });
    if (!types) return types.error();
    if (const GgufArray* a = *types) {
        for (const int64_t i : a->ints) vocab.types.push_back(static_cast<TokenType>(i));
        for (const uint64_t u : a->uints) vocab.types.push_back(static_cast<TokenType>(u));
    } else {
        vocab.types.assign(vocab.tokens.size(), TokenType::Normal);
    }

    auto merges = find_array(file, "tokenizer.ggml.merges", "array of string", is_string);
    if (!merges) return merges.error();
    if (*merges) vocab.merges = (*merges)->strings;
    if (vocab.model == kModelBpe && !*merges) {
        return tokenizer_error("tokenizer.ggml.merges is missing (required by gpt2 tokenizers)");
    }
    return Ok{};
}

Status read_special_ids(const GgufFile& file, Vocab& vocab) {
    for (const auto& [key_view, member] : special_token_keys()) {
        const std::string key(key_view);
        const GgufValue* value = file.find(key);
        if (!value) continue;
        int64_t id = 0;
        if (!value->as_int(id)) return wrong_type(key, *value, "integer");
        // llama.cpp's converters write "no such token" (-1) as a u32: 4294967295.
        if (id == -1 || (value->type == GgufType::UInt32 && value->u == 0xFFFFFFFFu)) {
            vocab.*member = -1;
            continue;
        }
        if (id < 0 || id >= vocab.size()) {
            return tokenizer_error(key + " = " + std::to_string(id) +
                                   " is out of range (vocab has " +
                                   std::to_string(vocab.size()) + " tokens)");
        }
        vocab.*member = static_cast<int32_t>(id);
    }
    return Ok{};
}

} // namespace

Result<Vocab> vocab_from_gguf(const GgufFile& file) {
    Vocab vocab;
    if (auto s = read_strings(file, vocab); !s) return s.error();
    if (auto s = check_tokenizer_model(vocab.model); !s) return s.error();
    if (auto s = read_token_arrays(file, vocab); !s) return s.error();

    // llama.cpp's default ids for SentencePiece vocabularies, used when the keys are
    // absent (and the ids exist): <unk> = 0, <s> = 1, </s> = 2.
    if (vocab.model == kModelSpm) {
        vocab.unk_id = vocab.size() > 0 ? 0 : -1;
        vocab.bos_id = vocab.size() > 1 ? 1 : -1;
        vocab.eos_id = vocab.size() > 2 ? 2 : -1;
    }
    if (auto s = read_special_ids(file, vocab); !s) return s.error();

    set_default_flags(vocab);
    if (auto s = read_bool(file, "tokenizer.ggml.add_bos_token", vocab.add_bos); !s) {
        return s.error();
    }
    if (auto s = read_bool(file, "tokenizer.ggml.add_eos_token", vocab.add_eos); !s) {
        return s.error();
    }
    if (auto s = read_bool(file, "tokenizer.ggml.add_space_prefix", vocab.add_space_prefix); !s) {
        return s.error();
    }

    // Validate first: detection indexes the arrays by token id.
    if (auto s = validate_vocab(vocab); !s) return s.error();
    detect_special_tokens(vocab);
    return vocab;
}

} // namespace octo
