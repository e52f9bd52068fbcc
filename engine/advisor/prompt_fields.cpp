#include "engine/advisor/prompt_fields.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "engine/tokenizer/utf8.h"

namespace octo {

namespace {

// ---- tokens: ASCII words, single Han characters, quotes and other punctuation ----

struct Token {
    enum class Kind { Word, Han, Quote, Punct };
    Kind kind = Kind::Punct;
    std::string text; // a word (in lower case unless asked otherwise); a Han character or punctuation as UTF-8
    uint32_t cp = 0;  // Han and punctuation: the code point
    bool starts_with_digit = false;
};

bool is_han(uint32_t cp) {
    return (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0x20000 && cp <= 0x2FFFF);
}

bool is_word_char(uint32_t cp) { return cp < 0x80 && (std::isalnum(static_cast<int>(cp)) || cp == '_'); }

bool is_quote(uint32_t cp) {
    return cp == '"' || cp == '\'' || cp == '`' || cp == 0x201C || cp == 0x201D || cp == 0x2018 || cp == 0x2019 ||
           (cp >= 0x300C && cp <= 0x300F);
}

// `lower`: words in lower case (how names are compared); false keeps them as written.
std::vector<Token> tokenize(std::string_view text, bool lower = true) {
    const std::vector<uint32_t> cps = decode_utf8(text);
    std::vector<Token> out;
    for (size_t i = 0; i < cps.size();) {
        const uint32_t cp = cps[i];
        if (is_word_char(cp)) {
            Token t{Token::Kind::Word, {}, 0, std::isdigit(static_cast<int>(cp)) != 0};
            // A hyphen inside a word belongs to it ("e-mail").
            while (i < cps.size() && (is_word_char(cps[i]) || (cps[i] == '-' && i + 1 < cps.size() && is_word_char(cps[i + 1])))) {
                t.text += static_cast<char>(lower ? std::tolower(static_cast<int>(cps[i])) : static_cast<int>(cps[i]));
                ++i;
            }
            out.push_back(std::move(t));
            continue;
        }
        ++i;
        if (cp != '\n' && (cp == ' ' || cp == '\t' || cp == '\r' || cp == 0x3000 || cp == 0xA0)) continue;
        Token t;
        t.kind = is_han(cp) ? Token::Kind::Han : is_quote(cp) ? Token::Kind::Quote : Token::Kind::Punct;
        t.cp = cp;
        t.text = utf8_from_code_point(cp);
        out.push_back(std::move(t));
    }
    return out;
}

template <size_t N>
bool one_of(std::string_view word, const std::array<std::string_view, N>& set) {
    return std::find(set.begin(), set.end(), word) != set.end();
}

// Words that end an English item (and so a list): articles, prepositions, pronouns, verbs that
// start the rest of a sentence.
constexpr auto kStopWords = std::to_array<std::string_view>({
    "a", "an", "the", "of", "for", "from", "in", "on", "at", "to", "as", "with", "by", "about", "into", "per",
    "each", "every", "all", "this", "that", "these", "those", "is", "are", "was", "were", "be", "only", "please",
    "then", "json", "object", "objects", "format", "you", "your", "it", "its", "their", "his", "her", "me", "us",
    "which", "who", "where", "when", "so", "but", "if", "than", "like", "using", "use", "should", "must", "will",
    "can", "do", "not", "no"});
constexpr auto kConnectorWords = std::to_array<std::string_view>({"and", "or"});
constexpr auto kDeterminers = std::to_array<std::string_view>({"the", "their", "its", "his", "her"});
// Not fields: what every answer is.
constexpr auto kGenericNames = std::to_array<std::string_view>({
    "answer", "answers", "result", "results", "output", "outputs", "response", "data", "info", "information",
    "details", "detail", "value", "values", "everything", "question", "text", "答案", "结果", "信息",
    "输出", "数据", "内容", "回答", "字段", "问题"});

constexpr auto kHanConnectors = std::to_array<uint32_t>({U'和', U'与', U'及', U'或', U'跟'});
// Han characters that end an item: particles and verbs that start the rest of the sentence.
constexpr auto kHanStops = std::to_array<uint32_t>({U'的', U'并', U'以', U'用', U'按', U'为', U'是', U'给', U'在',
                                                U'把', U'将', U'等', U'请', U'要', U'这', U'那', U'从', U'里'});

bool is_word(const std::vector<Token>& t, size_t i) { return i < t.size() && t[i].kind == Token::Kind::Word; }
bool is_word(const std::vector<Token>& t, size_t i, std::string_view w) { return is_word(t, i) && t[i].text == w; }
bool is_han(const std::vector<Token>& t, size_t i, uint32_t cp) {
    return i < t.size() && t[i].kind == Token::Kind::Han && t[i].cp == cp;
}
bool is_punct(const std::vector<Token>& t, size_t i, uint32_t cp) {
    return i < t.size() && t[i].kind == Token::Kind::Punct && t[i].cp == cp;
}

// A Han connector at i (和, 与, 及, 或, 跟, 以及, 还有): how many tokens it takes, or 0.
size_t han_connector(const std::vector<Token>& t, size_t i) {
    if ((is_han(t, i, U'以') && is_han(t, i + 1, U'及')) || (is_han(t, i, U'还') && is_han(t, i + 1, U'有'))) return 2;
    if (i < t.size() && t[i].kind == Token::Kind::Han &&
        std::find(kHanConnectors.begin(), kHanConnectors.end(), t[i].cp) != kHanConnectors.end()) {
        return 1;
    }
    return 0;
}

size_t skip_quotes(const std::vector<Token>& t, size_t i) {
    while (i < t.size() && t[i].kind == Token::Kind::Quote) ++i;
    return i;
}

// An English word that can be part of a field name at i. "a" is an article before another word
// but a name on its own ("keys a, b and c").
bool item_word(const std::vector<Token>& t, size_t i) {
    if (!is_word(t, i) || t[i].starts_with_digit || one_of(t[i].text, kConnectorWords)) return false;
    if (t[i].text == "a") return !is_word(t, i + 1);
    return !one_of(t[i].text, kStopWords);
}

bool item_han(const std::vector<Token>& t, size_t i) {
    return i < t.size() && t[i].kind == Token::Kind::Han && han_connector(t, i) == 0 &&
           std::find(kHanStops.begin(), kHanStops.end(), t[i].cp) == kHanStops.end();
}

struct Item {
    std::string name;
    size_t end = 0;
};

constexpr size_t kMaxWords = 3; // longer runs of words are prose, not a field name
constexpr size_t kMaxHan = 8;

// One field name at i: one to three English words, or a run of Han characters. Nothing when
// there is none, or when the run is too long to be a name. `determiner`: a leading "the", "their" …
// may come first ("give the name …"; not after a field word: "the fields the question asks for").
std::optional<Item> parse_item(const std::vector<Token>& t, size_t i, bool determiner) {
    i = skip_quotes(t, i);
    if (determiner && is_word(t, i) && one_of(t[i].text, kDeterminers) && item_word(t, i + 1)) ++i;
    Item item;
    if (item_word(t, i)) {
        size_t n = 0;
        for (; item_word(t, i); ++i, ++n) {
            if (n == kMaxWords) return std::nullopt;
            if (n > 0) item.name += '_';
            item.name += t[i].text;
        }
    } else if (item_han(t, i)) {
        size_t n = 0;
        for (; item_han(t, i); ++i, ++n) {
            if (n == kMaxHan) return std::nullopt;
            item.name += t[i].text;
        }
        // "年龄信息" asks for the age.
        for (std::string_view suffix : {std::string_view("信息"), std::string_view("数据")}) {
            if (item.name.size() > suffix.size() && item.name.ends_with(suffix)) item.name.resize(item.name.size() - suffix.size());
        }
    } else {
        return std::nullopt;
    }
    item.end = skip_quotes(t, i);
    return item;
}

struct List {
    std::vector<std::string> items;
    size_t end = 0; // the token after the last item
};

bool separator_punct(const std::vector<Token>& t, size_t i) {
    return is_punct(t, i, ',') || is_punct(t, i, U'，') || is_punct(t, i, U'、') || is_punct(t, i, '/') ||
           is_punct(t, i, '&');
}

// A list of field names at i: items joined by commas, 、, and/or, 和/与/及/以及.
List parse_list(const std::vector<Token>& t, size_t i, bool determiner = true) {
    List list;
    list.end = i;
    for (std::optional<Item> item = parse_item(t, i, determiner); item; item = parse_item(t, i, true)) {
        list.items.push_back(item->name);
        list.end = item->end;
        i = item->end;
        bool joined = false;
        if (separator_punct(t, i)) {
            ++i;
            joined = true;
        }
        if (is_word(t, i) && one_of(t[i].text, kConnectorWords)) {
            ++i;
            joined = true;
        } else if (const size_t n = han_connector(t, i)) {
            i += n;
            joined = true;
        }
        if (!joined) break;
    }
    return list;
}

bool generic(std::string_view name) { return one_of(name, kGenericNames); }

// The list's names without generic ones; empty when fewer than `min_items` were listed.
std::vector<std::string> names_of(const List& list, size_t min_items) {
    if (list.items.size() < min_items) return {};
    std::vector<std::string> out;
    for (const std::string& name : list.items) {
        if (!generic(name)) out.push_back(name);
    }
    return out;
}

// ---- the four phrasings ----

// 1. Keys of example objects: "…": after a { and before its }.
std::vector<PromptField> example_keys(std::string_view prompt) {
    std::vector<PromptField> out;
    for (size_t open = prompt.find('{'); open != std::string_view::npos; open = prompt.find('{', open + 1)) {
        const size_t close = prompt.find('}', open);
        const std::string_view body = prompt.substr(open + 1, close == std::string_view::npos ? std::string_view::npos : close - open - 1);
        for (size_t q = body.find('"'); q != std::string_view::npos;) {
            const size_t q2 = body.find('"', q + 1);
            if (q2 == std::string_view::npos) break;
            size_t after = q2 + 1;
            while (after < body.size() && (body[after] == ' ' || body[after] == '\t')) ++after;
            if (after < body.size() && body[after] == ':' && q2 > q + 1) {
                PromptField field{std::string(body.substr(q + 1, q2 - q - 1)), FieldType::String};
                size_t v = after + 1;
                while (v < body.size() && (body[v] == ' ' || body[v] == '\t')) ++v;
                const std::string_view value = body.substr(v);
                const bool numeric = !value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) || value[0] == '-');
                if (numeric || value.starts_with("number") || value.starts_with("integer") || value.starts_with("float")) {
                    field.type = FieldType::Number;
                } else if (!value.starts_with("string") && !value.starts_with("\"")) {
                    field.type = guess_field_type(field.name);
                }
                out.push_back(std::move(field));
                q = body.find('"', after);
            } else {
                q = q2;
            }
        }
    }
    return out;
}

constexpr auto kFieldWords = std::to_array<std::string_view>({"field", "fields", "key", "keys", "property",
                                                          "properties", "attribute", "attributes", "column", "columns"});
constexpr auto kAfterFieldWords = std::to_array<std::string_view>({"named", "called", "including", "are", "is", "like"});

bool han_pair(const std::vector<Token>& t, size_t i, uint32_t a, uint32_t b) { return is_han(t, i, a) && is_han(t, i + 1, b); }

// How many tokens of ：/:/为/是/包括/包含/有 follow at i.
size_t han_lead_in(const std::vector<Token>& t, size_t i) {
    if (is_punct(t, i, ':') || is_punct(t, i, U'：')) return 1;
    if (han_pair(t, i, U'包', U'括') || han_pair(t, i, U'包', U'含')) return 2;
    if (is_han(t, i, U'为') || is_han(t, i, U'是') || is_han(t, i, U'有')) return 1;
    return 0;
}

// 2. A list after a field word.
std::vector<std::string> after_field_words(const std::vector<Token>& t) {
    for (size_t i = 0; i < t.size(); ++i) {
        size_t at = 0;
        if (is_word(t, i) && one_of(t[i].text, kFieldWords)) {
            at = i + 1;
            if (is_punct(t, at, ':')) ++at;
            else if (is_word(t, at) && one_of(t[at].text, kAfterFieldWords)) ++at;
        } else if (han_pair(t, i, U'字', U'段') || han_pair(t, i, U'属', U'性') || han_pair(t, i, U'键', U'名') ||
                   han_pair(t, i, U'列', U'名')) {
            at = i + 2;
            at += han_lead_in(t, at);
        } else if (is_han(t, i, U'键') && han_lead_in(t, i + 1) > 0) {
            at = i + 1 + han_lead_in(t, i + 1);
        } else {
            continue;
        }
        auto names = names_of(parse_list(t, at, false), 1);
        if (!names.empty()) return names;
    }
    return {};
}

// 3. A list after "JSON": "JSON: a and b", "JSON (object) with a, b", "JSON 格式返回：a、b".
std::vector<std::string> after_json(const std::vector<Token>& t) {
    for (size_t i = 0; i < t.size(); ++i) {
        if (!is_word(t, i, "json")) continue;
        size_t at = i + 1;
        if (is_word(t, at, "object") || is_word(t, at, "objects") || is_word(t, at, "format")) ++at;
        if (is_punct(t, at, ':') || is_punct(t, at, U'：')) {
            auto names = names_of(parse_list(t, at + 1), 2);
            if (!names.empty()) return names;
            continue;
        }
        if (is_word(t, at) && (t[at].text == "with" || t[at].text == "containing" || t[at].text == "having" ||
                               t[at].text == "listing" || t[at].text == "including")) {
            auto names = names_of(parse_list(t, at + 1), 1);
            if (!names.empty()) return names;
            continue;
        }
        // Chinese: a few Han characters (格式返回, 输出) and then a colon.
        for (size_t k = at; k < t.size() && k < at + 6 && t[k].kind == Token::Kind::Han; ++k) {
            if (is_punct(t, k + 1, U'：') || is_punct(t, k + 1, ':')) {
                auto names = names_of(parse_list(t, k + 2), 2);
                if (!names.empty()) return names;
                break;
            }
        }
    }
    return {};
}

constexpr auto kAskVerbs = std::to_array<std::string_view>({"return", "give", "list", "output", "extract",
                                                        "provide", "report", "state", "show", "get",
                                                        "find", "tell", "include", "print", "send"});
constexpr auto kOfWords = std::to_array<std::string_view>({"of", "for", "from", "in", "about"});

// 5. "give me the name and age of …"; 的, 包含/包括/含有 or 返回/给出/列出/输出/提取/提供 + two or more
// names.
std::vector<std::string> asked_of(const std::vector<Token>& t) {
    for (size_t i = 0; i < t.size(); ++i) {
        if (is_word(t, i) && one_of(t[i].text, kAskVerbs)) {
            size_t at = i + 1;
            if (is_word(t, at, "me") || is_word(t, at, "us")) ++at;
            if (is_word(t, at, "only")) ++at;
            const List list = parse_list(t, at);
            if (is_word(t, list.end) && one_of(t[list.end].text, kOfWords)) {
                auto names = names_of(list, 1);
                if (!names.empty()) return names;
            }
            continue;
        }
        size_t at = 0;
        if (is_han(t, i, U'的')) at = i + 1;
        else if (han_pair(t, i, U'包', U'含') || han_pair(t, i, U'包', U'括') || han_pair(t, i, U'含', U'有') ||
                 han_pair(t, i, U'返', U'回') || han_pair(t, i, U'给', U'出') || han_pair(t, i, U'列', U'出') ||
                 han_pair(t, i, U'输', U'出') || han_pair(t, i, U'提', U'取') || han_pair(t, i, U'提', U'供')) {
            at = i + 2;
            // 返回包含 …: the list follows the second word.
            if (han_pair(t, at, U'包', U'含') || han_pair(t, at, U'包', U'括') || han_pair(t, at, U'含', U'有')) at += 2;
        } else {
            continue;
        }
        auto names = names_of(parse_list(t, at), 2);
        if (!names.empty()) return names;
    }
    return {};
}

// 1b. key=value pairs, two or more with different keys: "code=816, team=s92", "编码=816，团队=s92".
// A key is the English word before "=" (as written) or the Han characters before it (at most four,
// after any particle or connector); the value's first token gives its type (digits: a number,
// unless the key names a code or an id). "==" is not a pair.
bool names_a_string(std::string_view name);

std::vector<PromptField> key_value_pairs(std::string_view prompt) {
    const std::vector<Token> t = tokenize(prompt, false);
    std::vector<PromptField> out;
    for (size_t e = 1; e + 1 < t.size(); ++e) {
        if (!is_punct(t, e, '=') || is_punct(t, e + 1, '=') || is_punct(t, e - 1, '=')) continue;
        std::string key;
        if (is_word(t, e - 1) && !t[e - 1].starts_with_digit) {
            key = t[e - 1].text;
        } else {
            size_t k = e;
            while (k > 0 && e - k < 4 && item_han(t, k - 1)) --k;
            for (size_t j = k; j < e; ++j) key += t[j].text;
        }
        const size_t value = skip_quotes(t, e + 1);
        if (key.empty() || value >= t.size() || (t[value].kind != Token::Kind::Word && t[value].kind != Token::Kind::Han)) continue;
        const bool digits = t[value].kind == Token::Kind::Word && t[value].text.find_first_not_of("0123456789") == std::string::npos;
        const bool number = (digits || guess_field_type(key) == FieldType::Number) && !names_a_string(key);
        out.push_back(PromptField{key, number ? FieldType::Number : FieldType::String});
    }
    const bool distinct = out.size() >= 2 && std::any_of(out.begin() + 1, out.end(), [&](const PromptField& f) {
        return f.name != out.front().name;
    });
    return distinct ? out : std::vector<PromptField>{};
}

// 4. A list after "table": "a table of name, age and city", "a CSV with title and year".
std::vector<std::string> after_table(const std::vector<Token>& t) {
    for (size_t i = 0; i + 1 < t.size(); ++i) {
        if (!is_word(t, i, "table") && !is_word(t, i, "csv")) continue;
        size_t at = i + 1;
        if (is_punct(t, at, ':')) {
            ++at;
        } else if (is_word(t, at) && (t[at].text == "of" || t[at].text == "with" || t[at].text == "listing" ||
                                      t[at].text == "showing" || t[at].text == "giving")) {
            ++at;
        } else {
            continue;
        }
        auto names = names_of(parse_list(t, at), 2);
        if (!names.empty()) return names;
    }
    return {};
}

// Numbers by name that are written as strings: phone numbers, ids, postal codes.
constexpr auto kStringWords = std::to_array<std::string_view>({"phone", "telephone", "mobile", "fax", "id", "zip",
                                                               "postal", "postcode", "isbn", "serial", "code"});

// The name's words, split at "_", "-" and spaces, in lower case.
std::vector<std::string> words_of(std::string_view name) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= name.size()) {
        size_t end = name.find_first_of("_- ", start);
        if (end == std::string_view::npos) end = name.size();
        std::string word(name.substr(start, end - start));
        for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        out.push_back(std::move(word));
        start = end + 1;
    }
    return out;
}

bool has_number_word(std::string_view name) {
    static constexpr auto kNumberWords = std::to_array<std::string_view>({
        "age", "year", "count", "number", "num", "price", "cost", "amount", "total", "sum", "quantity",
        "qty", "height", "weight", "score", "rating", "population", "salary", "percent", "percentage", "rate",
        "ratio", "size", "length", "width", "depth", "distance", "temperature", "revenue", "income", "balance",
        "duration", "speed", "area", "volume", "capacity", "rank", "minutes", "hours", "seconds", "days",
        "months", "pages", "votes"});
    if (names_a_string(name)) return false;
    for (const std::string& word : words_of(name)) {
        const std::string_view singular = word.size() > 1 && word.back() == 's' ? std::string_view(word).substr(0, word.size() - 1) : std::string_view(word);
        if (one_of(word, kNumberWords) || one_of(singular, kNumberWords)) return true;
    }
    return false;
}

// True when a "_"/"-"-separated word of the name is a code, id, phone … (a string of digits).
bool names_a_string(std::string_view name) {
    for (const std::string& word : words_of(name)) {
        if (one_of(word, kStringWords)) return true;
    }
    for (std::string_view han : {"编码", "代码", "编号", "号码", "电话", "邮编", "证号"}) {
        if (name.find(han) != std::string_view::npos) return true;
    }
    return false;
}

} // namespace

FieldType guess_field_type(std::string_view name) {
    static constexpr auto kNumberParts = std::to_array<std::string_view>({
        "年龄", "岁", "年份", "年度", "数量", "个数", "人数", "次数", "总数", "数目", "价格", "价钱",
        "单价", "售价", "金额", "费用", "成本", "分数", "得分", "评分", "成绩", "身高", "体重", "重量",
        "长度", "宽度", "高度", "面积", "距离", "温度", "人口", "工资", "薪水", "收入", "营收", "比例"});
    for (std::string_view part : kNumberParts) {
        if (name.find(part) != std::string_view::npos) return FieldType::Number;
    }
    if (name.ends_with("率")) return FieldType::Number; // 增长率, 利率, 百分率
    return has_number_word(name) ? FieldType::Number : FieldType::String;
}

const char* field_type_name(FieldType type) { return type == FieldType::Number ? "number" : "string"; }

std::vector<PromptField> fields_named_in(std::string_view prompt) {
    std::vector<PromptField> fields = example_keys(prompt);
    if (fields.empty()) fields = key_value_pairs(prompt);
    if (fields.empty()) {
        const std::vector<Token> tokens = tokenize(prompt);
        std::vector<std::string> names = after_field_words(tokens);
        if (names.empty()) names = after_json(tokens);
        if (names.empty()) names = after_table(tokens);
        if (names.empty()) names = asked_of(tokens);
        for (std::string& name : names) fields.push_back(PromptField{name, guess_field_type(name)});
    }
    std::vector<PromptField> out;
    for (PromptField& f : fields) {
        const bool seen = std::any_of(out.begin(), out.end(), [&](const PromptField& o) { return o.name == f.name; });
        if (!seen) out.push_back(std::move(f));
    }
    return out;
}

} // namespace octo
