#include "engine/core/regex_pattern.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace octo {

struct RegexPattern::Code {
    pcre2_code* code = nullptr;
    ~Code() { pcre2_code_free(code); }
};

namespace {

std::string pcre2_text(int code) {
    PCRE2_UCHAR buffer[256];
    pcre2_get_error_message(code, buffer, sizeof buffer);
    return reinterpret_cast<const char*>(buffer);
}

} // namespace

Result<RegexPattern> RegexPattern::compile(std::string_view source) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.data()), source.size(),
                                     PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS, &error, &offset, nullptr);
    if (!code) {
        return make_error(ErrorCode::Format, "pattern \"" + std::string(source) + "\" at offset " +
                                                 std::to_string(offset) + ": " + pcre2_text(error));
    }
    auto owned = std::make_shared<Code>();
    owned->code = code;
    RegexPattern pattern;
    pattern.code_ = std::move(owned);
    return pattern;
}

std::vector<TextSpan> RegexPattern::find_all(std::string_view text) const {
    std::vector<TextSpan> spans;
    std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> match(pcre2_match_data_create(1, nullptr),
                                                                              &pcre2_match_data_free);
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    size_t offset = 0;
    while (offset <= text.size()) {
        const int rc = pcre2_match(code_->code, subject, text.size(), offset, 0, match.get(), nullptr);
        if (rc < 0) break; // no match, or invalid UTF-8: nothing more
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(match.get());
        if (ov[1] == ov[0]) { // an empty match: step over one character
            offset = ov[1] + 1;
            while (offset < text.size() && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80) ++offset;
            continue;
        }
        spans.push_back(TextSpan{ov[0], ov[1]});
        offset = ov[1];
    }
    return spans;
}

bool RegexPattern::found_in(std::string_view text) const { return !find_all(text).empty(); }

} // namespace octo
