#include "engine/tokenizer/special_tokens.h"

#include <algorithm>

namespace octo {

std::vector<int32_t> special_tokens_by_length(const Vocab& vocab) {
    std::vector<int32_t> ids;
    for (int32_t id = 0; id < vocab.size(); ++id) {
        const TokenType type = vocab.type(id);
        if (type == TokenType::Control || type == TokenType::UserDefined ||
            type == TokenType::Unknown) {
            ids.push_back(id);
        }
    }
    std::stable_sort(ids.begin(), ids.end(), [&](int32_t a, int32_t b) {
        return vocab.tokens[a].size() > vocab.tokens[b].size();
    });
    return ids;
}

std::vector<Fragment> partition_special_tokens(std::string_view text, const Vocab& vocab,
                                               const std::vector<int32_t>& specials,
                                               bool parse_special) {
    std::vector<Fragment> fragments;
    if (!text.empty()) fragments.push_back({-1, 0, text.size()});

    for (const int32_t id : specials) {
        if (!parse_special && vocab.type(id) != TokenType::UserDefined) continue;
        const std::string_view special = vocab.tokens[id];

        std::vector<Fragment> next;
        next.reserve(fragments.size());
        for (const Fragment& fragment : fragments) {
            if (fragment.token >= 0) {
                next.push_back(fragment);
                continue;
            }
            size_t begin = fragment.offset;
            const size_t end = fragment.offset + fragment.length;
            const std::string_view window = text.substr(0, end);
            for (size_t at = window.find(special, begin); at != std::string_view::npos;
                 at = window.find(special, begin)) {
                if (at > begin) next.push_back({-1, begin, at - begin});
                next.push_back({id, 0, 0});
                begin = at + special.size();
            }
            if (begin < end) next.push_back({-1, begin, end - begin});
        }
        fragments = std::move(next);
    }
    return fragments;
}

} // namespace octo
