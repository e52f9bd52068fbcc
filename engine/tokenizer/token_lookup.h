// Token text -> id lookup shared by the encoders.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "engine/tokenizer/vocab.h"

namespace octo {

class TokenLookup {
public:
    explicit TokenLookup(const Vocab& vocab) {
        ids_.reserve(vocab.tokens.size());
        for (int32_t id = 0; id < vocab.size(); ++id) ids_.emplace(vocab.tokens[id], id);
    }

    // Id of the token whose text is exactly `text`, or -1.
    int32_t find(const std::string& text) const {
        const auto it = ids_.find(text);
        return it == ids_.end() ? -1 : it->second;
    }

private:
    std::unordered_map<std::string, int32_t> ids_;
};

} // namespace octo
