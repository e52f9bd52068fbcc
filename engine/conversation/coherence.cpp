#include "engine/conversation/coherence.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "engine/core/file_bytes.h"
#include "engine/core/utf8_text.h"

namespace octo {

namespace {

using nlohmann::json;

// ---- text pieces ---------------------------------------------------------------------------

bool is_han(char32_t c) { return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF); }
bool ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool ascii_digit(char c) { return c >= '0' && c <= '9'; }
std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

// A piece of one message: bytes [begin, end) of its content.
struct Piece {
    size_t begin = 0;
    size_t end = 0;
};

// A sentence: split at . ! ? ; and newlines (a '.' only before a space or the end, so 3.5 stays
// whole) and at 。！？；. `question` when it ends with ? or ？.
struct Sentence {
    Piece span;
    bool question = false;
};

std::vector<Sentence> sentences_of(std::string_view text) {
    std::vector<Sentence> out;
    size_t start = 0;
    auto close = [&](size_t end, size_t next, bool question) {
        if (end > start) out.push_back({{start, end}, question});
        start = next;
    };
    for (size_t i = 0; i < text.size();) {
        const auto cp = code_point_at(text, i);
        const size_t size = cp ? cp->size : 1;
        const char32_t c = cp ? cp->value : 0xFFFD;
        if (c == '!' || c == ';' || c == '\n' || c == 0x3002 || c == 0xFF01 || c == 0xFF1B) {
            close(i, i + size, false);
        } else if (c == '?' || c == 0xFF1F) {
            close(i, i + size, true);
        } else if (c == '.' && (i + 1 >= text.size() || text[i + 1] == ' ' || text[i + 1] == '\n')) {
            close(i, i + 1, false);
        }
        i += size;
    }
    close(text.size(), text.size(), false);
    return out;
}

// Clauses of a sentence for statements: split at commas (, ，、) and at " but ".
std::vector<Piece> clauses_of(std::string_view text, Piece sentence) {
    std::vector<Piece> out;
    size_t start = sentence.begin;
    for (size_t i = sentence.begin; i < sentence.end;) {
        const auto cp = code_point_at(text, i);
        const size_t size = cp ? cp->size : 1;
        const char32_t c = cp ? cp->value : 0xFFFD;
        size_t cut = 0;
        if (c == ',' || c == 0xFF0C || c == 0x3001 || c == 0xFF1A || c == ':') cut = size;
        else if (text.substr(i, 5) == " but ") cut = 5;
        else if (c == 0x4F46 && text.substr(i, 6) == "但是") cut = 6;
        if (cut > 0) {
            if (i > start) out.push_back({start, i});
            start = i + cut;
            i += cut;
        } else {
            i += size;
        }
    }
    if (sentence.end > start) out.push_back({start, sentence.end});
    return out;
}

// An English word (letters, digits, apostrophes, hyphens inside) or one Han character.
struct Word {
    std::string_view text;
    size_t begin = 0;
    size_t end = 0;
    bool han = false;
};

std::vector<Word> words_of(std::string_view text, Piece piece) {
    std::vector<Word> out;
    for (size_t i = piece.begin; i < piece.end;) {
        const char c = text[i];
        if (ascii_digit(c)) { // a number: digits, with '.' or ',' only between digits (3.5, 1,200); "12km" is 12 and km
            size_t j = i + 1;
            while (j < piece.end && (ascii_digit(text[j]) || ((text[j] == '.' || text[j] == ',') && j + 1 < piece.end && ascii_digit(text[j + 1])))) ++j;
            out.push_back({text.substr(i, j - i), i, j, false});
            i = j;
            continue;
        }
        if (ascii_alpha(c)) { // a word: letters and digits, with ' or - inside (don't, well-known)
            size_t j = i + 1;
            while (j < piece.end && (ascii_alpha(text[j]) || ascii_digit(text[j]) ||
                                     ((text[j] == '\'' || text[j] == '-') && j + 1 < piece.end && ascii_alpha(text[j + 1])))) ++j;
            out.push_back({text.substr(i, j - i), i, j, false});
            i = j;
            continue;
        }
        const auto cp = code_point_at(text, i);
        if (cp && is_han(cp->value)) out.push_back({text.substr(i, cp->size), i, i + cp->size, true});
        i += cp ? cp->size : 1;
    }
    return out;
}

bool in_list(std::string_view w, std::initializer_list<std::string_view> list) {
    return std::find(list.begin(), list.end(), w) != list.end();
}

bool is_number_text(std::string_view w) {
    if (w.empty() || !ascii_digit(w.front())) return false;
    return std::all_of(w.begin(), w.end(), [](char c) { return ascii_digit(c) || c == '.' || c == ','; });
}

std::optional<double> number_value(std::string_view w) {
    static const std::map<std::string, double, std::less<>> kWords = {
        {"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}, {"six", 6}, {"seven", 7}, {"eight", 8},
        {"nine", 9}, {"ten", 10}, {"eleven", 11}, {"twelve", 12}, {"fifteen", 15}, {"twenty", 20}, {"thirty", 30},
        {"fifty", 50}, {"hundred", 100}};
    if (is_number_text(w)) {
        std::string digits;
        for (char c : w) {
            if (c != ',') digits += c;
        }
        try {
            return std::stod(digits);
        } catch (...) {
            return std::nullopt;
        }
    }
    if (auto it = kWords.find(lower(w)); it != kWords.end()) return it->second;
    return std::nullopt;
}

// ---- English names and roles ---------------------------------------------------------------

bool is_name_word(std::string_view w) {
    if (w.size() < 2 || !(w[0] >= 'A' && w[0] <= 'Z')) return false;
    if (!std::all_of(w.begin() + 1, w.end(), [](char c) { return ascii_alpha(c); })) return false;
    return !in_list(w, {"The", "A", "An", "He", "She", "It", "They", "We", "I", "You", "This", "That", "These", "Those",
                        "His", "Her", "Their", "Our", "My", "Your", "Its", "Yes", "No", "And", "But", "So", "Then", "If",
                        "When", "What", "Who", "Which", "Where", "Why", "How", "There", "Here", "Sure", "Also", "In",
                        "On", "At", "For", "As", "After", "Before", "Today", "Tomorrow", "Yesterday", "Please", "Thanks",
                        "OK", "Okay", "Well", "Now", "Both", "Each", "Every", "All", "Some", "Not", "Let", "To"});
}

bool is_role_stop(std::string_view w) {
    return in_list(w, {
    "and", "or", "but", "who", "which", "that", "with", "in", "at", "on", "for", "to", "from", "by", "of", "and",
    "is", "was", "are", "were", "has", "had", "will", "now", "today", "here", "there", "too", "again", "also"});
}

// Role words after "the" at words[i]: up to 3 lower-case words, one space apart, before a stop
// word or punctuation ("the manager, Alice" → manager).
std::optional<std::pair<std::string, size_t>> role_after(std::string_view text, const std::vector<Word>& w, size_t i) {
    std::string role;
    size_t j = i;
    while (j < w.size() && j < i + 3 && !w[j].han && ascii_alpha(w[j].text[0]) && w[j].text[0] >= 'a' &&
           !is_role_stop(w[j].text) && (j == i || text.substr(w[j - 1].end, w[j].begin - w[j - 1].end) == " ")) {
        if (!role.empty()) role += ' ';
        role += w[j].text;
        ++j;
    }
    if (role.empty()) return std::nullopt;
    return std::pair{role, j};
}

// A name at words[i]: one or two capitalised words one space apart ("Alice", "Alice Chen"), after
// an optional title.
std::optional<std::pair<std::string, size_t>> name_at(std::string_view text, const std::vector<Word>& w, size_t i) {
    if (i < w.size() && in_list(w[i].text, {"Mr", "Mrs", "Ms", "Dr"})) ++i;
    if (i >= w.size() || !is_name_word(w[i].text)) return std::nullopt;
    std::string name(w[i].text);
    size_t j = i + 1;
    if (j < w.size() && is_name_word(w[j].text) && text.substr(w[i].end, w[j].begin - w[i].end) == " ") {
        name += ' ';
        name += w[j].text;
        ++j;
    }
    return std::pair{name, j};
}

bool is_copula(std::string_view w) { return in_list(w, {"is", "was", "remains", "became", "becomes", "stays"}); }

// ---- statements ----------------------------------------------------------------------------

// A fact as it was stated: which key, what value, where.
struct Statement {
    CoherenceKind kind;
    std::string key;
    std::string value;       // as written ("Alice", "12 km")
    double number = 0.0;     // quantities: the value in the family's base unit
    bool numeric = false;
    bool negated = false;    // polarity statements
    MessageSpan span;
};

void role_statements(std::string_view text, size_t message, Piece clause, std::vector<Statement>& out) {
    const std::vector<Word> w = words_of(text, clause);
    auto add = [&](const std::string& role, const std::string& name, size_t from, size_t to) {
        out.push_back({CoherenceKind::EntityReference, "the " + role, name, 0, false, false, {message, w[from].begin, w[to - 1].end}});
    };
    for (size_t i = 0; i < w.size(); ++i) {
        // NAME is the ROLE / NAME, the ROLE
        if (auto name = name_at(text, w, i)) {
            size_t j = name->second;
            const bool apposition = j < w.size() && text.substr(w[j - 1].end, w[j].begin - w[j - 1].end).find(',') != std::string_view::npos;
            if (j < w.size() && is_copula(w[j].text)) ++j;
            else if (!apposition) continue;
            if (j < w.size() && w[j].text == "not") continue; // a negated role states nothing unique
            if (j < w.size() && lower(w[j].text) == "the") {
                if (auto role = role_after(text, w, j + 1)) {
                    add(role->first, name->first, i, role->second);
                    i = role->second - 1;
                }
            }
            continue;
        }
        // the ROLE is NAME
        if (lower(w[i].text) == "the") {
            if (auto role = role_after(text, w, i + 1); role && role->second < w.size() && is_copula(w[role->second].text)) {
                if (auto name = name_at(text, w, role->second + 1)) {
                    add(role->first, name->first, i, name->second);
                    i = name->second - 1;
                }
            }
        }
    }
}

// Chinese: "A是B" — a name and a role; which is which is read from what came before (a key seen
// as a role stays a role). Pronouns and demonstratives state no binding.
std::string han_run_before(const std::vector<Word>& w, size_t i, size_t max_chars) {
    std::string s;
    size_t n = 0;
    for (size_t k = i; k-- > 0 && n < max_chars;) {
        if (!w[k].han || w[k].end != w[k + 1].begin) break; // Han characters right before words[i], none between
        s.insert(0, w[k].text);
        ++n;
    }
    return s;
}

// `s` without any of `affixes` at its front (or back), repeatedly, never to nothing.
std::string strip_affixes(std::string s, std::initializer_list<std::string_view> affixes, bool front) {
    for (bool again = true; again;) {
        again = false;
        for (std::string_view a : affixes) {
            if (s.size() > a.size() && (front ? s.starts_with(a) : s.ends_with(a))) {
                s.erase(front ? 0 : s.size() - a.size(), a.size());
                again = true;
            }
        }
    }
    return s;
}
std::string strip_prefixes(std::string s, std::initializer_list<std::string_view> prefixes) { return strip_affixes(std::move(s), prefixes, true); }
std::string strip_suffixes(std::string s, std::initializer_list<std::string_view> suffixes) { return strip_affixes(std::move(s), suffixes, false); }

size_t han_chars(std::string_view s) { return s.size() / 3; }

void han_role_statements(std::string_view text, size_t message, Piece clause, std::vector<Statement>& out) {
    const std::vector<Word> w = words_of(text, clause);
    for (size_t i = 1; i + 1 < w.size(); ++i) {
        if (w[i].text != "是" || !w[i - 1].han || !w[i + 1].han) continue;
        if (w[i - 1].text == "不") continue;
        const std::string run = han_run_before(w, i, 5);
        std::string left = strip_suffixes(run, {"也", "就", "都", "还", "又", "才"});
        left = strip_prefixes(left, {"和", "而", "但", "也", "就"});
        std::string right;
        size_t j = i + 1;
        while (j < w.size() && w[j].han && han_chars(right) < 8) {
            right += w[j].text;
            ++j;
        }
        right = strip_prefixes(right, {"一名", "一位", "一个", "我们的", "公司的", "团队的", "这里的", "的"});
        if (left.empty() || right.empty() || han_chars(left) > 4 || han_chars(right) > 6) continue;
        if (in_list(left, {"他", "她", "它", "我", "你", "这", "那", "谁", "他们", "她们", "我们", "你们", "这个", "那个", "这里", "那里", "这就", "那就"})) continue;
        const size_t from = w[i].begin - run.size();
        out.push_back({CoherenceKind::EntityReference, left + "|" + right, "", 0, false, false, {message, from, w[j - 1].end}});
    }
}

// Units of quantities: the family and the factor to its base unit. Longest first where one is a
// prefix of another.
struct Unit {
    std::string_view text;
    std::string_view family;
    double factor;
};
constexpr Unit kUnits[] = {
    {"kilometres", "length", 1000}, {"kilometers", "length", 1000}, {"kilometre", "length", 1000}, {"kilometer", "length", 1000},
    {"km", "length", 1000}, {"metres", "length", 1}, {"meters", "length", 1}, {"metre", "length", 1}, {"meter", "length", 1},
    {"miles", "length", 1609.344}, {"mile", "length", 1609.344}, {"cm", "length", 0.01}, {"m", "length", 1},
    {"kilograms", "mass", 1000}, {"kilogram", "mass", 1000}, {"kg", "mass", 1000}, {"grams", "mass", 1}, {"gram", "mass", 1}, {"g", "mass", 1},
    {"seconds", "time", 1}, {"second", "time", 1}, {"minutes", "time", 60}, {"minute", "time", 60}, {"min", "time", 60},
    {"hours", "time", 3600}, {"hour", "time", 3600}, {"days", "time", 86400}, {"day", "time", 86400},
    {"weeks", "time", 604800}, {"week", "time", 604800}, {"years", "time", 31557600}, {"year", "time", 31557600},
    {"dollars", "US dollars", 1}, {"dollar", "US dollars", 1}, {"euros", "euros", 1}, {"euro", "euros", 1},
    {"yuan", "yuan", 1}, {"percent", "percent", 1}, {"%", "percent", 1}, {"people", "people", 1}, {"persons", "people", 1},
    {"公里", "length", 1000}, {"千米", "length", 1000}, {"厘米", "length", 0.01}, {"米", "length", 1},
    {"公斤", "mass", 1000}, {"千克", "mass", 1000}, {"克", "mass", 1},
    {"秒", "time", 1}, {"分钟", "time", 60}, {"小时", "time", 3600}, {"天", "time", 86400}, {"周", "time", 604800}, {"星期", "time", 604800},
    {"美元", "US dollars", 1}, {"欧元", "euros", 1}, {"元", "yuan", 1}, {"块", "yuan", 1}, {"人", "people", 1}, {"个人", "people", 1},
};

// The unit written right after byte `at` (one space allowed before a word unit).
std::optional<std::pair<Unit, size_t>> unit_after(std::string_view text, size_t at, size_t end) {
    size_t p = at;
    if (p < end && text[p] == ' ') ++p;
    for (const Unit& u : kUnits) {
        if (text.substr(p, u.text.size()) != u.text || p + u.text.size() > end) continue;
        const size_t after = p + u.text.size();
        // a Latin unit must end its word: "m" is not the start of "many"
        if (ascii_alpha(u.text[0]) && after < end && ascii_alpha(text[after])) continue;
        if (u.text == "%" && p != at) continue;
        return std::pair{u, after};
    }
    return std::nullopt;
}

// The currency sign right before byte `at`.
std::optional<Unit> currency_before(std::string_view text, size_t at) {
    if (at >= 1 && text[at - 1] == '$') return Unit{"$", "US dollars", 1};
    if (at >= 3 && text.substr(at - 3, 3) == "€") return Unit{"€", "euros", 1};
    if (at >= 2 && text.substr(at - 2, 2) == "¥") return Unit{"¥", "yuan", 1};
    return std::nullopt;
}

// What a number in an English clause is about: the word after the last determiner before it
// ("the trip is 12 km" → trip), or "Name's word" ("Alice's salary"). Plural s dropped.
std::string english_subject(const std::vector<Word>& w, size_t number) {
    auto stem = [](std::string s) {
        if (s.size() > 3 && s.back() == 's' && s[s.size() - 2] != 's') s.pop_back();
        return s;
    };
    for (size_t k = number; k-- > 0;) {
        const std::string t = lower(w[k].text);
        if (t.size() > 2 && t.ends_with("'s") && k + 1 < number && ascii_alpha(w[k + 1].text[0])) {
            return t.substr(0, t.size() - 2) + " " + stem(lower(w[k + 1].text));
        }
        if (in_list(t, {"the", "my", "our", "your", "his", "her", "their", "its", "this", "that"}) && k + 1 < number &&
            ascii_alpha(w[k + 1].text[0]) && !number_value(w[k + 1].text)) {
            return stem(lower(w[k + 1].text));
        }
    }
    return {};
}

// What a number in a Chinese clause is about: the Han run before it, without the verb or
// marker that leads to the number and without a leading demonstrative.
std::string chinese_subject(const std::vector<Word>& w, size_t number) {
    std::string s = han_run_before(w, number, 8);
    s = strip_suffixes(s, {"是", "有", "为", "约", "大约", "大概", "共", "一共", "总共", "要", "需要", "花了", "用了", "花", "用", "长", "重", "达", "到", "等于", "约为"});
    s = strip_prefixes(s, {"这次", "这个", "那个", "这趟", "那次", "该", "这", "那", "的"});
    if (s.empty() || han_chars(s) > 6) return {};
    return s;
}

// Dates: 2024-05-01, May 1(, 2024), 1 May( 2024), 2024年5月1日 / 5月1号. Value "[yyyy-]mm-dd".
constexpr std::string_view kMonths[] = {"january", "february", "march", "april", "may", "june", "july", "august",
                                        "september", "october", "november", "december"};
std::optional<int> month_of(std::string_view w) {
    const std::string t = lower(w);
    for (size_t m = 0; m < 12; ++m) {
        if (t == kMonths[m] || (t.size() == 3 && kMonths[m].starts_with(t) && t != "may" && t != "mar")) return static_cast<int>(m) + 1;
    }
    if (t == "may") return 5;
    return std::nullopt;
}

// "[yyyy-]mm-dd", or nullopt for a month or day that no calendar has.
std::optional<std::string> date_value(std::optional<int> year, int month, int day) {
    if (month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
    char buf[32];
    if (year) std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", *year, month, day);
    else std::snprintf(buf, sizeof buf, "%02d-%02d", month, day);
    return std::string(buf);
}

// A whole number of at most `digits` digits (nothing else), or nullopt.
std::optional<int> small_int(std::string_view w, size_t digits) {
    if (w.empty() || w.size() > digits || !std::all_of(w.begin(), w.end(), ascii_digit)) return std::nullopt;
    int v = 0;
    for (char c : w) v = v * 10 + (c - '0');
    return v;
}

// Two dates disagree when their months and days differ, or both have years that differ.
bool dates_differ(const std::string& a, const std::string& b) {
    const std::string_view da = std::string_view(a).substr(a.size() - 5), db = std::string_view(b).substr(b.size() - 5);
    if (da != db) return true;
    return a.size() > 5 && b.size() > 5 && a.substr(0, 4) != b.substr(0, 4);
}

void quantity_statements(std::string_view text, size_t message, Piece clause, std::vector<Statement>& out) {
    const std::vector<Word> w = words_of(text, clause);
    std::vector<bool> used(w.size(), false);
    // Dates first, so their numbers are not read as quantities.
    for (size_t i = 0; i < w.size(); ++i) {
        if (used[i]) continue;
        std::optional<std::string> value;
        size_t first = i, last = i;
        const std::string_view t = w[i].text;
        auto num = [&](size_t k, size_t digits) { return k < w.size() ? small_int(w[k].text, digits) : std::nullopt; };
        auto text_is = [&](size_t k, std::string_view what) { return k < w.size() && w[k].text == what; };
        if (auto y = num(i, 4); y && t.size() == 4 && text_is(i + 1, "年") && num(i + 2, 2) && text_is(i + 3, "月") && num(i + 4, 2)) {
            value = date_value(*y, *num(i + 2, 2), *num(i + 4, 2));
            last = i + 4 + (text_is(i + 5, "日") || text_is(i + 5, "号") ? 1 : 0);
        } else if (auto mo = num(i, 2); mo && text_is(i + 1, "月") && num(i + 2, 2) && (text_is(i + 3, "日") || text_is(i + 3, "号"))) {
            value = date_value(std::nullopt, *mo, *num(i + 2, 2));
            last = i + 3;
        } else if (auto m = month_of(t); m && num(i + 1, 2)) {
            std::optional<int> year;
            last = i + 1;
            if (auto y4 = num(i + 2, 4); y4 && w[i + 2].text.size() == 4) {
                year = y4;
                last = i + 2;
            }
            value = date_value(year, *m, *num(i + 1, 2));
        } else if (auto d = num(i, 2); d && i + 1 < w.size() && month_of(w[i + 1].text)) {
            std::optional<int> year;
            last = i + 1;
            if (auto y4 = num(i + 2, 4); y4 && w[i + 2].text.size() == 4) {
                year = y4;
                last = i + 2;
            }
            value = date_value(year, *month_of(w[i + 1].text), *d);
        } else if (auto iso = num(i, 4); iso && t.size() == 4 && i + 2 < w.size() && w[i + 1].begin == w[i].end + 1 && text[w[i].end] == '-' &&
                   num(i + 1, 2) && w[i + 2].begin == w[i + 1].end + 1 && text[w[i + 1].end] == '-' && num(i + 2, 2)) {
            value = date_value(*iso, *num(i + 1, 2), *num(i + 2, 2));
            last = i + 2;
        }
        if (!value) continue;
        for (size_t k = first; k <= last; ++k) used[k] = true;
        std::string subject = w[i].han || (first > 0 && w[first - 1].han) ? chinese_subject(w, first) : english_subject(w, first);
        if (subject.empty()) continue;
        out.push_back({CoherenceKind::EntityReference, subject + " (date)", *value, 0, false, false, {message, w[first].begin, w[last].end}});
        i = last;
    }
    for (size_t i = 0; i < w.size(); ++i) {
        if (used[i]) continue;
        const auto v = number_value(w[i].text);
        if (!v) continue;
        const bool han_context = (i > 0 && w[i - 1].han) || (i + 1 < w.size() && w[i + 1].han);
        std::optional<Unit> unit = currency_before(text, w[i].begin);
        size_t end = w[i].end;
        if (!unit) {
            if (auto after = unit_after(text, w[i].end, clause.end)) {
                unit = after->first;
                end = after->second;
            }
        }
        const std::string subject = han_context ? chinese_subject(w, i) : english_subject(w, i);
        if (subject.empty()) continue;
        if (unit) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%g", *v);
            out.push_back({CoherenceKind::EntityReference, subject + " (" + std::string(unit->family) + ")",
                           std::string(buf) + " " + std::string(unit->text), *v * unit->factor, true, false,
                           {message, unit->text == "$" || unit->text == "€" || unit->text == "¥" ? w[i].begin - unit->text.size() : w[i].begin, end}});
            continue;
        }
        // A bare number is a claim only as the complement of "is", "was", "equals", "=", 是, 为, 等于.
        const bool complement = i > 0 && (in_list(lower(w[i - 1].text), {"is", "was", "equals", "are", "were"}) ||
                                          in_list(w[i - 1].text, {"是", "为", "于"}) ||
                                          text.substr(w[i - 1].end, w[i].begin - w[i - 1].end).find('=') != std::string_view::npos);
        if (!complement) continue;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", *v);
        out.push_back({CoherenceKind::LogicalContinuity, subject + " (number)", buf, *v, true, false, {message, w[i].begin, w[i].end}});
    }
}

// A clause's polarity statement: its content words with negation and fillers removed (the key)
// and whether it was negated. English: not, no, never and n't; Chinese: 不 没 未 别 非.
std::optional<Statement> polarity_statement(std::string_view text, size_t message, Piece clause) {
    const std::vector<Word> w = words_of(text, clause);
    std::string key;
    int negations = 0;
    size_t content = 0;
    bool han = false;
    for (size_t i = 0; i < w.size(); ++i) {
        if (w[i].han) {
            han = true;
            const std::string_view c = w[i].text;
            if (c == "非" && i + 1 < w.size() && w[i + 1].text == "常") { ++i; continue; } // 非常: very
            if (in_list(c, {"不", "没", "未", "别", "非"})) { ++negations; continue; }
            if (in_list(c, {"也", "都", "还", "就", "很", "真", "确", "实", "的", "了", "吗", "呢", "吧"})) continue;
            key += c;
            ++content;
            continue;
        }
        std::string t = lower(w[i].text);
        if (t.ends_with("n't")) {
            ++negations;
            t = t == "won't" ? "will" : t == "can't" ? "can" : t.substr(0, t.size() - 3);
        }
        if (t == "cannot") { ++negations; t = "can"; }
        if (in_list(t, {"not", "no", "never"})) { ++negations; continue; }
        if (in_list(t, {"a", "an", "the", "really", "actually", "indeed", "also", "still", "definitely", "certainly", "very",
                        "just", "do", "does", "did", "so", "and", "then", "yes", "well", "i", "think", "believe"})) continue;
        if (t.size() > 3 && t.back() == 's' && t[t.size() - 2] != 's') t.pop_back();
        if (!key.empty()) key += ' ';
        key += t;
        ++content;
    }
    if (content < 3 || (han && han_chars(key) < 3)) return std::nullopt;
    return Statement{CoherenceKind::LogicalContinuity, key, "", 0, false, negations % 2 == 1, {message, clause.begin, clause.end}};
}

// Two polarity keys are about the same thing when they are equal or one begins with the other
// at a word boundary (Chinese: a character boundary), the shorter having 3 content words (3 Han
// characters) or more.
bool same_statement(const std::string& a, const std::string& b) {
    if (a == b) return true;
    const std::string& shorter = a.size() < b.size() ? a : b;
    const std::string& longer = a.size() < b.size() ? b : a;
    if (!longer.starts_with(shorter)) return false;
    const char next = longer[shorter.size()];
    if (next == ' ') return std::count(shorter.begin(), shorter.end(), ' ') >= 2;
    const bool han = static_cast<unsigned char>(shorter[0]) >= 0xE0;
    return han && (static_cast<unsigned char>(next) & 0xC0) != 0x80 && han_chars(shorter) >= 3;
}

std::string excerpt(std::span<const ChatMessage> messages, const MessageSpan& s) {
    return messages[s.message].content.substr(s.begin, s.end - s.begin);
}

// ---- sentiment ------------------------------------------------------------------------------

TurnSentiment sentiment_of(std::string_view text, size_t message, const SentimentLexicon& lex) {
    TurnSentiment t;
    t.message = message;
    const std::vector<Word> w = words_of(text, {0, text.size()});
    auto count = [&](bool positive, bool negated, MessageSpan span) {
        if (positive != negated) ++t.positive;
        else ++t.negative;
        t.words.push_back(span);
    };
    for (size_t i = 0; i < w.size(); ++i) {
        if (w[i].han) continue;
        const std::string word = lower(w[i].text);
        const bool pos = std::find(lex.en_positive.begin(), lex.en_positive.end(), word) != lex.en_positive.end();
        const bool neg = !pos && std::find(lex.en_negative.begin(), lex.en_negative.end(), word) != lex.en_negative.end();
        if (!pos && !neg) continue;
        bool negated = false;
        for (size_t k = i; k-- > 0 && k + 3 >= i;) {
            const std::string prev = lower(w[k].text);
            if (prev.ends_with("n't") || std::find(lex.en_negators.begin(), lex.en_negators.end(), prev) != lex.en_negators.end()) negated = true;
        }
        count(pos, negated, {message, w[i].begin, w[i].end});
    }
    // Chinese: the longest lexicon entry at each position; a negator just before flips it.
    for (size_t i = 0; i < text.size();) {
        const auto cp = code_point_at(text, i);
        if (!cp || !is_han(cp->value)) {
            i += cp ? cp->size : 1;
            continue;
        }
        size_t best = 0;
        bool best_pos = false;
        for (const auto* list : {&lex.zh_positive, &lex.zh_negative}) {
            for (const std::string& entry : *list) {
                if (entry.size() > best && text.substr(i, entry.size()) == entry) {
                    best = entry.size();
                    best_pos = list == &lex.zh_positive;
                }
            }
        }
        if (best == 0) {
            i += cp->size;
            continue;
        }
        bool negated = false;
        for (const std::string& n : lex.zh_negators) {
            if (i >= n.size() && text.substr(i - n.size(), n.size()) == n) negated = true;
            if (i >= n.size() + 3 && text.substr(i - n.size() - 3, n.size()) == n) negated = true; // one character between (不太好)
        }
        count(best_pos, negated, {message, i, i + best});
        i += best;
    }
    const int hits = t.positive + t.negative;
    t.score = hits > 0 ? static_cast<double>(t.positive - t.negative) / hits : 0.0;
    return t;
}

} // namespace

const char* coherence_kind_name(CoherenceKind kind) {
    switch (kind) {
    case CoherenceKind::EntityReference: return "entity_reference";
    case CoherenceKind::LogicalContinuity: return "logical_continuity";
    case CoherenceKind::SentimentStability: return "sentiment_stability";
    }
    return "entity_reference";
}

Result<SentimentLexicon> read_sentiment_lexicon(const std::string& path) {
    auto bytes = read_file_bytes(path, "the sentiment lexicon");
    if (!bytes) return bytes.error();
    const json j = json::parse(bytes.value(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return make_error(ErrorCode::Format, path + " is not a JSON object");
    SentimentLexicon lex;
    const std::pair<const char*, std::vector<std::string>*> lists[] = {
        {"positive", &lex.en_positive}, {"negative", &lex.en_negative}, {"negators", &lex.en_negators}};
    for (const char* lang : {"en", "zh"}) {
        if (!j.contains(lang) || !j[lang].is_object()) return make_error(ErrorCode::Format, path + ": \"" + lang + "\" must be an object");
        for (auto [key, list] : lists) {
            std::vector<std::string>* target = list;
            if (std::string_view(lang) == "zh") {
                target = list == &lex.en_positive ? &lex.zh_positive : list == &lex.en_negative ? &lex.zh_negative : &lex.zh_negators;
            }
            const json& words = j[lang].value(key, json());
            if (!words.is_array() || words.empty()) {
                return make_error(ErrorCode::Format, path + ": \"" + lang + "." + key + "\" must be a non-empty array of strings");
            }
            for (const json& word : words) {
                if (!word.is_string() || word.get<std::string>().empty()) return make_error(ErrorCode::Format, path + ": \"" + lang + "." + key + "\" holds a non-string");
                target->push_back(word.get<std::string>());
            }
        }
    }
    return lex;
}

Result<SentimentLexicon> read_default_sentiment_lexicon(const std::string& resource_dir) {
    return read_sentiment_lexicon(resource_dir + "/" + kSentimentLexiconFile);
}

namespace {

// Sentiment jumps between adjacent assistant turns that both carry sentiment words.
void add_sentiment_jumps(const CoherenceThresholds& thresholds, CoherenceReport& report) {
    for (size_t k = 1; k < report.sentiment.size(); ++k) {
        const TurnSentiment& a = report.sentiment[k - 1];
        const TurnSentiment& b = report.sentiment[k];
        if (a.words.empty() || b.words.empty() || std::fabs(b.score - a.score) < thresholds.sentiment_jump) continue;
        char why[160];
        std::snprintf(why, sizeof why, "sentiment %+.2f (message %zu) → %+.2f (message %zu)", a.score, a.message + 1, b.score, b.message + 1);
        report.findings.push_back({CoherenceKind::SentimentStability, "sentiment", a.words.front(), b.words.front(), why, {}, {}});
    }
}

// What to change in the prompt for each finding, quoting what was said first.
void add_suggestions(std::span<const ChatMessage> messages, CoherenceReport& report) {
    for (CoherenceFinding& f : report.findings) {
        const std::string said = valid_utf8(excerpt(messages, f.earlier));
        switch (f.kind) {
        case CoherenceKind::EntityReference:
            f.suggestion_en = "Restate the fact in the system message (\"" + said + "\") so that every turn sees it, or ask for the entities to be repeated before the answer.";
            f.suggestion_zh = "把这条事实写进系统消息（“" + said + "”），让每一轮都能看到；或要求先复述实体再回答。";
            break;
        case CoherenceKind::LogicalContinuity:
            f.suggestion_en = "Quote the earlier statement (\"" + said + "\") in the next user turn and ask the model to keep to it or say why it changed.";
            f.suggestion_zh = "在下一轮用户消息中引用先前的说法（“" + said + "”），要求模型保持一致，或说明为何改变。";
            break;
        case CoherenceKind::SentimentStability:
            f.suggestion_en = "State the tone you want in the system message; if the mood really changed, let the user turn say so.";
            f.suggestion_zh = "在系统消息中说明希望的语气；如果情绪确实变了，请在用户消息中说明。";
            break;
        }
    }
}

// Windows of 3 adjacent assistant turns with the messages between them, each with the breaks of
// every kind found inside it, and the share of windows without a break of each kind.
void count_windows(std::span<const ChatMessage> messages, CoherenceReport& report) {
    std::vector<size_t> assistants;
    for (size_t m = 0; m < messages.size(); ++m) {
        if (messages[m].role == ChatRole::Assistant) assistants.push_back(m);
    }
    const size_t n_windows = assistants.size() >= 3 ? assistants.size() - 2 : (assistants.empty() ? 0 : 1);
    for (size_t j = 0; j < n_windows; ++j) {
        CoherenceWindow win;
        win.first_message = j == 0 ? 0 : assistants[j - 1] + 1;
        const size_t last = std::min(j + 2, assistants.size() - 1);
        win.last_message = assistants[last];
        win.assistant_messages.assign(assistants.begin() + static_cast<std::ptrdiff_t>(j), assistants.begin() + static_cast<std::ptrdiff_t>(last) + 1);
        for (const CoherenceFinding& f : report.findings) {
            if (f.earlier.message >= win.first_message && f.later.message <= win.last_message &&
                std::find(win.assistant_messages.begin(), win.assistant_messages.end(), f.later.message) != win.assistant_messages.end()) {
                ++win.breaks[static_cast<size_t>(f.kind)];
            }
        }
        report.windows.push_back(std::move(win));
    }
    for (size_t k = 0; k < kCoherenceKinds; ++k) {
        if (report.windows.empty()) continue;
        const auto clean = std::count_if(report.windows.begin(), report.windows.end(), [k](const CoherenceWindow& w) { return w.breaks[k] == 0; });
        report.coherent_share[k] = static_cast<double>(clean) / static_cast<double>(report.windows.size());
    }
}

} // namespace

CoherenceReport measure_coherence(std::span<const ChatMessage> messages, const SentimentLexicon& lexicon,
                                  const CoherenceThresholds& thresholds) {
    CoherenceReport report;
    // The latest statement of each key (facts) and of each polarity key.
    std::map<std::string, Statement> facts;
    std::map<std::string, Statement> polarity;
    std::map<std::string, std::string> han_roles; // Chinese: role → name, read both ways
    std::map<std::string, bool> han_names;        // names seen in Chinese bindings
    auto found = [&](CoherenceKind kind, const std::string& key, const Statement& before, const Statement& now, std::string why) {
        report.findings.push_back({kind, key, before.span, now.span, std::move(why), {}, {}});
    };
    auto where = [](const MessageSpan& s) { return "message " + std::to_string(s.message + 1); };
    for (size_t m = 0; m < messages.size(); ++m) {
        const std::string& text = messages[m].content;
        const bool assistant = messages[m].role == ChatRole::Assistant;
        for (const Sentence& sentence : sentences_of(text)) {
            if (sentence.question) continue;
            // Roles and quantities are read from the whole sentence ("Bob, the manager, …"), Chinese
            // bindings and polarity from each clause.
            std::vector<Statement> stated;
            role_statements(text, m, sentence.span, stated);
            quantity_statements(text, m, sentence.span, stated);
            for (const Piece& clause : clauses_of(text, sentence.span)) {
                std::vector<Statement> han;
                han_role_statements(text, m, clause, han);
                for (Statement& s : han) { // resolve "A|B" into role and name
                    const std::string left = s.key.substr(0, s.key.find('|'));
                    const std::string right = s.key.substr(s.key.find('|') + 1);
                    const bool left_is_role = han_roles.contains(left) && !han_names.contains(left);
                    const std::string role = left_is_role ? left : right;
                    const std::string name = left_is_role ? right : left;
                    s.key = role;
                    s.value = name;
                    if (auto it = han_roles.find(role); it != han_roles.end() && it->second != name && assistant && han_names.contains(name)) {
                        const Statement& before = facts.at("zh:" + role);
                        found(CoherenceKind::EntityReference, role, before, s,
                              role + "：" + where(before.span) + " 是" + it->second + "，" + where(s.span) + " 是" + name);
                    }
                    han_roles[role] = name;
                    han_names[name] = true;
                    facts["zh:" + role] = s;
                }
                if (auto p = polarity_statement(text, m, clause)) {
                    // The latest earlier clause about the same thing: the same key, or one that
                    // begins with the other ("server support ipv6 out of box" / "server support ipv6").
                    const Statement* before = nullptr;
                    for (const auto& [key, earlier] : polarity) {
                        if (!same_statement(key, p->key)) continue;
                        if (!before || std::pair{earlier.span.message, earlier.span.begin} > std::pair{before->span.message, before->span.begin}) {
                            before = &earlier;
                        }
                    }
                    if (before && assistant && before->negated != p->negated) {
                        found(CoherenceKind::LogicalContinuity, p->key, *before, *p,
                              std::string(p->negated ? "negates" : "reasserts") + " what " + where(before->span) + " stated" +
                                  (p->negated ? "" : " as untrue"));
                    }
                    polarity[p->key] = *p;
                }
            }
            for (const Statement& s : stated) {
                auto it = facts.find(s.key);
                if (it != facts.end() && assistant) {
                    const Statement& before = it->second;
                    bool differ = false;
                    if (s.numeric && before.numeric) {
                        differ = std::fabs(s.number - before.number) > thresholds.number_tolerance * std::max(std::fabs(s.number), std::fabs(before.number));
                    } else if (s.key.ends_with("(date)")) {
                        differ = dates_differ(before.value, s.value);
                    } else {
                        differ = before.value != s.value;
                    }
                    if (differ) {
                        found(s.kind, s.key, before, s,
                              s.key + " was " + before.value + " (" + where(before.span) + "), now " + s.value + " (" + where(s.span) + ")");
                    }
                }
                facts[s.key] = s;
            }
        }
        if (assistant) report.sentiment.push_back(sentiment_of(text, m, lexicon));
    }
    add_sentiment_jumps(thresholds, report);
    add_suggestions(messages, report);
    std::stable_sort(report.findings.begin(), report.findings.end(), [](const CoherenceFinding& x, const CoherenceFinding& y) {
        return std::pair{x.later.message, x.later.begin} < std::pair{y.later.message, y.later.begin};
    });
    count_windows(messages, report);
    return report;
}

json coherence_json(const CoherenceReport& report, std::span<const ChatMessage> messages) {
    auto span_json = [&](const MessageSpan& s) {
        return json{{"message", s.message}, {"begin", s.begin}, {"end", s.end}, {"text", valid_utf8(excerpt(messages, s))}};
    };
    json findings = json::array();
    for (const CoherenceFinding& f : report.findings) {
        findings.push_back({{"kind", coherence_kind_name(f.kind)}, {"key", valid_utf8(f.key)}, {"earlier", span_json(f.earlier)},
                            {"later", span_json(f.later)}, {"explanation", valid_utf8(f.explanation)},
                            {"suggestion", {{"en", f.suggestion_en}, {"zh", f.suggestion_zh}}}});
    }
    json sentiment = json::array();
    for (const TurnSentiment& t : report.sentiment) {
        json words = json::array();
        for (const MessageSpan& s : t.words) words.push_back(span_json(s));
        sentiment.push_back({{"message", t.message}, {"score", t.score}, {"positive", t.positive}, {"negative", t.negative}, {"words", words}});
    }
    json windows = json::array();
    for (const CoherenceWindow& w : report.windows) {
        json breaks = json::object();
        for (size_t k = 0; k < kCoherenceKinds; ++k) breaks[coherence_kind_name(static_cast<CoherenceKind>(k))] = w.breaks[k];
        windows.push_back({{"first_message", w.first_message}, {"last_message", w.last_message},
                           {"assistant_messages", w.assistant_messages}, {"breaks", breaks}});
    }
    json share = json::object();
    for (size_t k = 0; k < kCoherenceKinds; ++k) share[coherence_kind_name(static_cast<CoherenceKind>(k))] = report.coherent_share[k];
    return {{"findings", findings}, {"sentiment", sentiment}, {"windows", windows}, {"coherent_share", share}};
}

} // namespace octo
