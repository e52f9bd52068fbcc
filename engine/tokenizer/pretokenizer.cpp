#include "engine/tokenizer/pretokenizer.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "engine/tokenizer/utf8.h"

namespace octo {

namespace {

bool is_whitespace(uint32_t cp) {
    return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 ||
           cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// Rewrites `\s` / `\S` as explicit ASCII classes (the matched text holds no other
// whitespace, see the header), inside or outside a character class.
std::string expand_whitespace_escapes(std::string_view pattern) {
    std::string out;
    bool in_class = false;
    for (size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            const char next = pattern[++i];
            if (next == 's') {
                out += in_class ? "\\t-\\r " : "[\\t-\\r ]";
            } else if (next == 'S' && !in_class) {
                out += "[^\\t-\\r ]";
            } else {
                out += c;
                out += next;
            }
            continue;
        }
        if (c == '[') in_class = true;
        if (c == ']') in_class = false;
        out += c;
    }
    return out;
}

std::string pcre2_message(int code) {
    PCRE2_UCHAR buffer[256];
    pcre2_get_error_message(code, buffer, sizeof buffer);
    return reinterpret_cast<const char*>(buffer);
}

// A piece of the text, in code points.
struct Span {
    size_t begin = 0;
    size_t end = 0;
};

} // namespace

struct PreTokenizer::Pattern {
    pcre2_code* code = nullptr;
    ~Pattern() { pcre2_code_free(code); }
};

Result<PreTokenizer> PreTokenizer::create(const PreTokenizerRules& rules) {
    PreTokenizer pre;
    for (const auto source : rules.patterns) {
        const std::string expanded = expand_whitespace_escapes(source);
        int error = 0;
        PCRE2_SIZE error_offset = 0;
        auto pattern = std::make_shared<Pattern>();
        pattern->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(expanded.data()),
                                      expanded.size(),
                                      PCRE2_UTF | PCRE2_UCP | PCRE2_DOLLAR_ENDONLY, &error,
                                      &error_offset, nullptr);
        if (!pattern->code) {
            return make_error(ErrorCode::Tokenizer,
                              "pre-tokenizer '" + std::string(rules.name) +
                                  "': cannot compile pattern at offset " +
                                  std::to_string(error_offset) + ": " + pcre2_message(error));
        }
        pcre2_jit_compile(pattern->code, PCRE2_JIT_COMPLETE); // optional speed-up
        pre.patterns_.push_back(std::move(pattern));
    }
    return pre;
}

Result<std::vector<std::string>> PreTokenizer::split(std::string_view text) const {
    const std::vector<uint32_t> cps = decode_utf8(text);

    // The text as matched: non-ASCII whitespace replaced by U+000B. byte_at[i] is
    // where code point i starts in `subject`.
    std::string subject;
    std::vector<size_t> byte_at;
    byte_at.reserve(cps.size() + 1);
    for (const uint32_t cp : cps) {
        byte_at.push_back(subject.size());
        append_utf8(cp > 0x7F && is_whitespace(cp) ? 0x0B : cp, subject);
    }
    byte_at.push_back(subject.size());
    const auto cp_index = [&](size_t byte) {
        return static_cast<size_t>(std::lower_bound(byte_at.begin(), byte_at.end(), byte) -
                                   byte_at.begin());
    };

    std::vector<Span> spans;
    if (!cps.empty()) spans.push_back({0, cps.size()});

    std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> match(
        pcre2_match_data_create(1, nullptr), &pcre2_match_data_free);
    for (const auto& pattern : patterns_) {
        std::vector<Span> next;
        for (const Span span : spans) {
            // Each piece is matched as a whole subject of its own, so `$` and
            // lookahead stop at the piece's end.
            const auto* piece = reinterpret_cast<PCRE2_SPTR>(subject.data() + byte_at[span.begin]);
            const size_t base = byte_at[span.begin];
            const size_t length = byte_at[span.end] - base;
            size_t offset = 0; // bytes into the piece
            size_t emitted = 0;
            while (offset < length) {
                const int rc = pcre2_match(pattern->code, piece, length, offset,
                                           PCRE2_NO_UTF_CHECK, match.get(), nullptr);
                if (rc == PCRE2_ERROR_NOMATCH) break;
                if (rc < 0) {
                    return make_error(ErrorCode::Tokenizer,
                                      "pre-tokenizer match failed: " + pcre2_message(rc));
                }
                const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(match.get());
                if (ov[1] == ov[0]) { // empty match: search again one code point later
                    if (ov[0] >= length) break;
                    offset = byte_at[cp_index(base + ov[0]) + 1] - base;
                    continue;
                }
                if (ov[0] > emitted) next.push_back({cp_index(base + emitted), cp_index(base + ov[0])});
                next.push_back({cp_index(base + ov[0]), cp_index(base + ov[1])});
                emitted = offset = ov[1];
            }
            if (emitted < length) next.push_back({cp_index(base + emitted), span.end});
        }
        spans = std::move(next);
    }

    std::vector<std::string> words;
    words.reserve(spans.size());
    for (const Span span : spans) {
        std::string word;
        for (size_t i = span.begin; i < span.end; ++i) append_utf8(cps[i], word);
        words.push_back(std::move(word));
    }
    return words;
}

} // namespace octo
