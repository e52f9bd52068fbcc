#include "engine/tokenizer/spm_tokenizer.h"

#include <algorithm>
#include <cstdio>
#include <queue>
#include <string>

#include "engine/tokenizer/utf8.h"

namespace octo {

namespace {

constexpr std::string_view kSpaceMarker = "\xE2\x96\x81"; // U+2581

struct Symbol {
    int prev = -1;
    int next = -1;
    size_t start = 0; // byte range in the escaped text
    size_t length = 0;
};

struct Bigram {
    int left = 0;
    int right = 0;
    float score = 0.0f;
    size_t length = 0; // bytes of the merged text, to detect stale entries

    // Queue order: higher score first, then the leftmost pair.
    friend bool operator<(const Bigram& a, const Bigram& b) {
        return a.score < b.score || (a.score == b.score && a.left > b.left);
    }
};

std::string escape_spaces(std::string_view text, bool prefix_space) {
    std::string out;
    out.reserve(text.size() + 3);
    if (prefix_space) out += kSpaceMarker;
    for (const char c : text) {
        if (c == ' ') {
            out += kSpaceMarker;
        } else {
            out += c;
        }
    }
    return out;
}

Status append_bytes(const TokenLookup& lookup, std::string_view bytes, std::vector<int32_t>& out) {
    for (const char c : bytes) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", static_cast<unsigned>(static_cast<uint8_t>(c)));
        int32_t id = lookup.find(name);
        if (id < 0) id = lookup.find(std::string(1, c));
        if (id < 0) {
            return make_error(ErrorCode::Tokenizer,
                              std::string("no token for byte ") + name + " (vocab lacks byte fallback)");
        }
        out.push_back(id);
    }
    return Ok{};
}

} // namespace

Status spm_encode(const Vocab& vocab, const TokenLookup& lookup, std::string_view raw,
                  bool prefix_space, std::vector<int32_t>& out) {
    const std::string text = escape_spaces(raw, prefix_space);

    std::vector<Symbol> symbols;
    for (size_t offset = 0; offset < text.size();) {
        Symbol s;
        s.start = offset;
        s.length = std::min(utf8_sequence_length(static_cast<uint8_t>(text[offset])),
                            text.size() - offset);
        offset += s.length;
        s.prev = static_cast<int>(symbols.size()) - 1;
        s.next = offset == text.size() ? -1 : static_cast<int>(symbols.size()) + 1;
        symbols.push_back(s);
    }

    std::priority_queue<Bigram> queue;
    const auto try_add = [&](int left, int right) {
        if (left < 0 || right < 0) return;
        const size_t length = symbols[left].length + symbols[right].length;
        const int32_t id = lookup.find(text.substr(symbols[left].start, length));
        if (id < 0) return;
        queue.push({left, right, vocab.score(id), length});
    };
    for (int i = 1; i < static_cast<int>(symbols.size()); ++i) try_add(i - 1, i);

    while (!queue.empty()) {
        const Bigram top = queue.top();
        queue.pop();
        Symbol& left = symbols[top.left];
        Symbol& right = symbols[top.right];
        // Skip pairs that an earlier merge consumed or changed.
        if (left.length == 0 || right.length == 0 || left.length + right.length != top.length) {
            continue;
        }
        left.length += right.length;
        right.length = 0;
        left.next = right.next;
        if (right.next >= 0) symbols[right.next].prev = top.left;
        try_add(left.prev, top.left);
        try_add(top.left, left.next);
    }

    for (int i = symbols.empty() ? -1 : 0; i != -1; i = symbols[i].next) {
        const std::string piece = text.substr(symbols[i].start, symbols[i].length);
        const int32_t id = lookup.find(piece);
        if (id >= 0) {
            out.push_back(id);
        } else if (auto s = append_bytes(lookup, piece, out); !s) {
            return s;
        }
    }
    return Ok{};
}

} // namespace octo
