#include "engine/advisor/prompt_detectors.h"

#include <algorithm>

namespace octo {

namespace {

// All matches of the rule's patterns, by start; a match overlapping an earlier one is dropped.
std::vector<TextSpan> matches(const DetectorSpec& d, std::string_view prompt) {
    std::vector<TextSpan> all;
    for (const RegexPattern& p : d.any) {
        for (const TextSpan& s : p.find_all(prompt)) all.push_back(s);
    }
    std::sort(all.begin(), all.end(), [](const TextSpan& a, const TextSpan& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    std::vector<TextSpan> kept;
    for (const TextSpan& s : all) {
        if (kept.empty() || s.start >= kept.back().end) kept.push_back(s);
    }
    return kept;
}

// Index of the sentence holding byte `at`: sentences end at . ! ? ; followed by a space or the
// end, at 。！？； and at line breaks.
size_t sentence_of(std::string_view text, size_t at) {
    size_t sentence = 0;
    for (size_t i = 0; i < at && i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++sentence;
        } else if (c == '.' || c == '!' || c == '?' || c == ';') {
            if (i + 1 >= text.size() || text[i + 1] == ' ' || text[i + 1] == '\t' || text[i + 1] == '\n') ++sentence;
        } else if (text.substr(i, 3) == "。" || text.substr(i, 3) == "！" || text.substr(i, 3) == "？" ||
                   text.substr(i, 3) == "；") {
            ++sentence;
        }
    }
    return sentence;
}

LocalText count_detail(size_t n, bool one_sentence) {
    return {std::to_string(n) + " matches in " + (one_sentence ? "one sentence" : "the prompt"),
            (one_sentence ? "同一句中有 " : "提示词中有 ") + std::to_string(n) + " 处匹配"};
}

void detect(const AdvisorRule& rule, std::string_view prompt, std::vector<Finding>& out) {
    const DetectorSpec& d = rule.detector;
    if (!d.condition.holds(prompt)) return;
    const std::vector<TextSpan> hits = matches(d, prompt);
    const auto min = static_cast<size_t>(d.min_matches);
    if (hits.empty()) return;
    switch (d.scope) {
    case MatchScope::Each:
        if (hits.size() < min) return;
        for (const TextSpan& h : hits) out.push_back(make_finding(rule, prompt, h.start, h.end));
        return;
    case MatchScope::First:
        if (hits.size() >= min) out.push_back(make_finding(rule, prompt, hits.front().start, hits.front().end));
        return;
    case MatchScope::Prompt:
        if (hits.size() >= min) {
            out.push_back(make_finding(rule, prompt, hits.front().start, hits.back().end,
                                       count_detail(hits.size(), false)));
        }
        return;
    case MatchScope::Sentence:
        for (size_t i = 0; i < hits.size();) {
            const size_t sentence = sentence_of(prompt, hits[i].start);
            size_t j = i;
            while (j < hits.size() && sentence_of(prompt, hits[j].start) == sentence) ++j;
            if (j - i >= min) {
                out.push_back(make_finding(rule, prompt, hits[i].start, hits[j - 1].end,
                                           count_detail(j - i, true)));
            }
            i = j;
        }
        return;
    }
}

} // namespace

std::vector<Finding> check_prompt(const AdvisorRules& rules, std::string_view prompt) {
    std::vector<Finding> out;
    for (const AdvisorRule& rule : rules.rules()) {
        if (rule.place == FindingPlace::Prompt) detect(rule, prompt, out);
    }
    std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) { return a.start < b.start; });
    return out;
}

} // namespace octo
