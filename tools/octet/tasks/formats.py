"""rte-g: emit canonical JSON (2-3 pairs) or a Markdown table (2 pairs) from key-value pairs,
and tell whether a short JSON text is valid (half of them carry one syntax error).

Canonical JSON: keys in the order given, no spaces (separators "," and ":"), integers bare,
strings quoted, non-ASCII kept as is. Canonical Markdown: a header row of keys, a "---"
delimiter per column, one row of values, cells without padding, lines joined by "\n".
"""
import json

from .common import Case, Phrasing, Task, with_composed
from . import lexicon

KEYS = ("name", "age", "city", "id", "score", "price", "qty", "year", "level", "size",
        "email", "password", "color", "rank", "code", "team")
STRING_KEYS = ("name", "city", "email", "password", "color", "team")
ZH_COLORS = ("红", "蓝", "绿", "黑", "白", "黄")
EN_COLORS = ("red", "blue", "green", "black", "white", "gold")


def _value(key, rng, lang, split):
    if key == "name":
        return rng.choice(lexicon.people(lang, split))
    if key == "city":
        return rng.choice(lexicon.ZH_CITIES if lang == "zh" else lexicon.EN_CITIES)
    if key == "color":
        return rng.choice(ZH_COLORS if lang == "zh" else EN_COLORS)
    if key in STRING_KEYS:   # short invented tokens such as "k7q"
        return rng.choice("abcdefghkmnpqrstuvwxyz") + str(rng.randrange(10, 100))
    return rng.randrange(1, 1000)


def _pairs(rng, lang, split, most):
    keys = rng.sample(KEYS, rng.randrange(2, most + 1))
    return [(k, _value(k, rng, lang, split)) for k in keys]


def _listing(pairs, lang):
    sep = "，" if lang == "zh" else ", "
    return sep.join(f"{k}={v}" for k, v in pairs)


def canonical_json(pairs):
    return json.dumps(dict(pairs), ensure_ascii=False, separators=(",", ":"))


def canonical_table(pairs):
    header = "|" + "|".join(k for k, _ in pairs) + "|"
    rule = "|" + "|".join("---" for _ in pairs) + "|"
    row = "|" + "|".join(str(v) for _, v in pairs) + "|"
    return "\n".join((header, rule, row))


def _sampler(render, most):
    def sample(rng, lang, split):
        pairs = _pairs(rng, lang, split, most)
        return Case({"kv": _listing(pairs, lang)}, render(pairs), tuple(pairs),
                    {"pairs": tuple(pairs)})
    return sample


JSON_FRAMES = {
    "zh": ("JSON格式：{kv}", "把{kv}转换成JSON", "生成JSON：{kv}"),
    "en": ("JSON of {kv}?", "turn {kv} into JSON.", "make a JSON object: {kv}"),
}

JSON = Task("rte-g/json", "rte-g", with_composed(JSON_FRAMES, {
    "zh": (Phrasing("转成JSON：{kv}"), Phrasing("用JSON表示：{kv}"), Phrasing("输出JSON对象：{kv}"),
           Phrasing("请把{kv}写成JSON对象。"), Phrasing("问：{kv} 对应的JSON是什么？"),
           Phrasing("{kv}，用JSON格式给出"), Phrasing("把下列键值对编码为JSON：{kv}"),
           Phrasing("请写成一个JSON：{kv}", heldout=True),
           Phrasing("序列化成JSON后是什么样？{kv}", heldout=True)),
    "en": (Phrasing("As JSON: {kv}"), Phrasing("Convert to JSON: {kv}"),
           Phrasing("Emit a JSON object for {kv}"), Phrasing("Write {kv} as a JSON object."),
           Phrasing("Q: What is the JSON for {kv}?"), Phrasing("Encode these pairs as JSON: {kv}"),
           Phrasing("Give me {kv} in JSON format."), Phrasing("JSON please: {kv}", heldout=True),
           Phrasing("How does {kv} look when serialized to JSON?", heldout=True)),
}), _sampler(canonical_json, 3))

TABLE_FRAMES = {
    "zh": ("Markdown表格：{kv}", "把{kv}转换成Markdown表格", "做一张Markdown表：{kv}"),
    "en": ("Markdown table of {kv}?", "turn {kv} into a Markdown table.",
           "make a Markdown table: {kv}"),
}

TABLE = Task("rte-g/markdown", "rte-g", with_composed(TABLE_FRAMES, {
    "zh": (Phrasing("转成Markdown表格：{kv}"), Phrasing("用Markdown表格列出：{kv}"),
           Phrasing("生成Markdown表：{kv}"),
           Phrasing("请把{kv}做成Markdown表格。"), Phrasing("问：{kv} 的Markdown表格怎么写？"),
           Phrasing("{kv}，整理成Markdown表格"), Phrasing("用Markdown画一张表，内容是：{kv}"),
           Phrasing("请排成Markdown表：{kv}", heldout=True),
           Phrasing("以Markdown表格的形式展示这些数据：{kv}", heldout=True)),
    "en": (Phrasing("As a Markdown table: {kv}"), Phrasing("Make a Markdown table of {kv}"),
           Phrasing("Markdown table for {kv}"), Phrasing("Put {kv} into a Markdown table."),
           Phrasing("Q: How does {kv} look as a Markdown table?"),
           Phrasing("{kv}: show this as a Markdown table."),
           Phrasing("Format these pairs as a Markdown table: {kv}"),
           Phrasing("Tabulate in Markdown: {kv}", heldout=True),
           Phrasing("Present {kv} as a table in Markdown syntax.", heldout=True)),
}), _sampler(canonical_table, 2))

# syntax errors: each turns canonical JSON of two or more pairs into invalid JSON.
CORRUPTIONS = (
    lambda text: text.replace(",", "", 1),                 # missing comma
    lambda text: text[:-1] + ",}",                         # trailing comma
    lambda text: text[:-1],                                # missing closing brace
    lambda text: text.replace('"', "'", 2),                # single-quoted key
)
VERDICT = {"zh": ("否", "是"), "en": ("no", "yes")}


def _sample_validity(rng, lang, split):
    pairs = _pairs(rng, lang, split, 2)
    text = canonical_json(pairs)
    valid = rng.randrange(2) == 0
    if not valid:
        text = rng.choice(CORRUPTIONS)(text)
    return Case({"j": text}, VERDICT[lang][valid], (text,), {"text": text})


VALIDITY_FRAMES = {
    "zh": ("{j} 是合法JSON吗？", "JSON是否有效：{j}", "检查JSON：{j}"),
    "en": ("is {j} valid JSON?", "valid JSON or not: {j}", "check this JSON: {j}"),
}

VALIDITY = Task("rte-g/validate", "rte-g", with_composed(VALIDITY_FRAMES, {
    "zh": (Phrasing("这是合法的JSON吗？{j}"), Phrasing("JSON校验：{j}"),
           Phrasing("{j} 格式正确吗？"),
           Phrasing("请判断这段JSON是否合法：{j}"), Phrasing("问：{j} 是有效的JSON吗？"),
           Phrasing("这段JSON的语法对吗？{j}"), Phrasing("检查这段JSON能否通过语法校验：{j}"),
           Phrasing("{j} 能被解析为JSON吗？", heldout=True),
           Phrasing("严格的JSON解析器会接受{j}吗？", heldout=True)),
    "en": (Phrasing("Is this valid JSON? {j}"), Phrasing("Validate the JSON: {j}"),
           Phrasing("Is {j} well-formed JSON?"),
           Phrasing("Check whether this JSON is valid: {j}"), Phrasing("Q: Is {j} valid JSON?"),
           Phrasing("{j} Is that legal JSON?"),
           Phrasing("Is the following JSON syntactically correct? {j}"),
           Phrasing("Does {j} parse as JSON?", heldout=True),
           Phrasing("Would a strict JSON parser accept {j}?", heldout=True)),
}), _sample_validity)

TASKS = (JSON, TABLE, VALIDITY)
