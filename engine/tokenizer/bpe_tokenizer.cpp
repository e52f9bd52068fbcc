#include "engine/tokenizer/bpe_tokenizer.h"

#include <algorithm>
#include <queue>

#include "engine/core/log.h"
#include "engine/tokenizer/byte_encoding.h"
#include "engine/tokenizer/pretokenizer_rules.h"
#include "engine/tokenizer/utf8.h"

namespace octo {

namespace {

struct Symbol {
    int prev = -1;
    int next = -1;
    size_t start = 0; // byte range in the encoded word
    size_t length = 0;
};

struct Bigram {
    int left = 0;
    int right = 0;
    int32_t rank = 0;
    std::string text; // merged text, to detect stale entries

    // Queue order: lowest rank first, then the leftmost pair.
    friend bool operator<(const Bigram& a, const Bigram& b) {
        return a.rank > b.rank || (a.rank == b.rank && a.left > b.left);
    }
};

// Unambiguous key of the pair (left, right), even if token texts contain spaces.
std::string merge_key(std::string_view left, std::string_view right) {
    std::string key = std::to_string(left.size());
    key += ':';
    key += left;
    key += right;
    return key;
}

std::string byte_encode(const std::string& word) {
    std::string out;
    out.reserve(word.size() * 2);
    for (const char c : word) out += byte_to_symbol(static_cast<uint8_t>(c));
    return out;
}

std::string unknown_pretokenizer_warning(std::string_view pre, std::string_view fallback) {
    std::string known;
    for (const auto name : known_pretokenizer_names()) {
        known += known.empty() ? "" : ", ";
        known += name;
    }
    return "tokenizer.ggml.pre '" + std::string(pre) + "' is not a pre-tokenizer Octoscope knows; text is split with the '" +
           std::string(fallback) +
           "' rules (llama.cpp's rules when the key is absent) instead, so token ids may differ from the model's own "
           "tokenizer (known: " +
           known + ")";
}

} // namespace

Result<BpeTokenizer> BpeTokenizer::create(const Vocab& vocab) {
    const PreTokenizerRules* rules = find_pretokenizer_rules(vocab.pre);
    const bool fallback = rules == nullptr;
    if (fallback) {
        rules = &fallback_pretokenizer_rules();
        log_message(LogLevel::Warning, unknown_pretokenizer_warning(vocab.pre, rules->name));
    }
    auto pre = PreTokenizer::create(*rules);
    if (!pre) return pre.error();

    BpeTokenizer bpe;
    bpe.pre_ = std::move(pre.value());
    bpe.rules_name_ = rules->name;
    bpe.rules_are_fallback_ = fallback;
    bpe.ignore_merges_ = rules->ignore_merges;
    auto ranks = std::make_shared<std::unordered_map<std::string, int32_t>>();
    ranks->reserve(vocab.merges.size());
    for (size_t i = 0; i < vocab.merges.size(); ++i) {
        // Split at the first space after the first byte (validated to exist).
        const std::string_view merge = vocab.merges[i];
        const size_t space = merge.find(' ', 1);
        ranks->emplace(merge_key(merge.substr(0, space), merge.substr(space + 1)),
                       static_cast<int32_t>(i));
    }
    bpe.ranks_ = std::move(ranks);
    return bpe;
}

int32_t BpeTokenizer::rank(const std::string& left, const std::string& right) const {
    const auto it = ranks_->find(merge_key(left, right));
    return it == ranks_->end() ? -1 : it->second;
}

Status BpeTokenizer::encode(const TokenLookup& lookup, std::string_view text,
                            std::vector<int32_t>& out) const {
    auto words = pre_.split(text);
    if (!words) return words.error();
    for (const std::string& word : *words) encode_word(lookup, byte_encode(word), out);
    return Ok{};
}

void BpeTokenizer::encode_word(const TokenLookup& lookup, const std::string& word,
                               std::vector<int32_t>& out) const {
    if (ignore_merges_) {
        if (const int32_t id = lookup.find(word); id >= 0) {
            out.push_back(id);
            return;
        }
    }

    std::vector<Symbol> symbols;
    for (size_t offset = 0; offset < word.size();) {
        Symbol s;
        s.start = offset;
        s.length = std::min(utf8_sequence_length(static_cast<uint8_t>(word[offset])),
                            word.size() - offset);
        offset += s.length;
        s.prev = static_cast<int>(symbols.size()) - 1;
        s.next = offset == word.size() ? -1 : static_cast<int>(symbols.size()) + 1;
        symbols.push_back(s);
    }
    const auto text_of = [&](const Symbol& s) { return word.substr(s.start, s.length); };

    std::priority_queue<Bigram> queue;
    const auto try_add = [&](int left, int right) {
        if (left < 0 || right < 0) return;
        const std::string a = text_of(symbols[left]);
        const std::string b = text_of(symbols[right]);
        const int32_t r = rank(a, b);
        if (r < 0) return;
        queue.push({left, right, r, a + b});
    };
    for (int i = 1; i < static_cast<int>(symbols.size()); ++i) try_add(i - 1, i);

    while (!queue.empty()) {
        const Bigram top = queue.top();
        queue.pop();
        Symbol& left = symbols[top.left];
        Symbol& right = symbols[top.right];
        if (left.length == 0 || right.length == 0 ||
            text_of(left) + text_of(right) != top.text) {
            continue; // an earlier merge consumed or changed this pair
        }
        left.length += right.length;
        right.length = 0;
        left.next = right.next;
        if (right.next >= 0) symbols[right.next].prev = top.left;
        try_add(left.prev, top.left);
        try_add(top.left, left.next);
    }

    for (int i = symbols.empty() ? -1 : 0; i != -1; i = symbols[i].next) {
        const std::string piece = text_of(symbols[i]);
        if (const int32_t id = lookup.find(piece); id >= 0) {
            out.push_back(id);
            continue;
        }
        for (const char c : piece) {
            if (const int32_t id = lookup.find(std::string(1, c)); id >= 0) out.push_back(id);
        }
    }
}

} // namespace octo
