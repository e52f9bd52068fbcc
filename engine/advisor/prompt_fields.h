// The fields a prompt asks for, so that a JSON rewrite can state a schema that fits the question
// ("name and age of Alice" → {"name": string, "age": number}), and a table rewrite its columns,
// instead of a generic one. A few phrasings are recognised, in this order (the first that names a
// field wins):
//  1. the keys of an example object in the prompt: {"name": "…", "age": 1};
//  1b. key=value pairs, two or more with different keys: "code=816, team=s92" (keys kept as
//     written, a value of digits making a number unless the key names a code or an id);
//  2. a list after a field word: "with keys a, b and c", "fields: title, year", "the fields are
//     title and year", 字段为 name 和 color, 属性：姓名、年龄;
//  3. a list after "JSON": "as JSON: name and age of Alice", "a JSON object with name and city",
//     "JSON 格式返回：姓名、年龄";
//  4. a list of two or more after "table"/"CSV" and of, with, listing, showing or a colon: "a table
//     of name, age and city";
//  5. a verb and "… of": "give me the name and age of Alice"; in Chinese a list of two or more
//     after 的, 包含/包括 or a verb (返回, 列出, 提取 …): 爱丽丝的姓名和年龄, 返回书名、作者及出版年份.
// Lists are split at commas, 、, "and"/"or", 和/与/及/以及; an item is one to three words (joined
// with "_", lower case) or a run of Han characters. Generic words (answer, result, data, 信息 …)
// are not fields. Keyword parsing, not understanding: a prompt phrased otherwise names no fields.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace octo {

enum class FieldType { String, Number };

struct PromptField {
    std::string name; // as the prompt writes it (English words lower case, joined with "_")
    FieldType type = FieldType::String;
};

// The fields `prompt` names, in order, without duplicates; empty when it names none.
std::vector<PromptField> fields_named_in(std::string_view prompt);

// The type a field's name suggests: number for age, year, count, number, price, amount, score …
// (any "_"-separated word, plural or not) and for Chinese names holding 年龄, 数, 价, 金额, 量 …;
// string otherwise.
FieldType guess_field_type(std::string_view name);

const char* field_type_name(FieldType type); // "string" | "number"

} // namespace octo
