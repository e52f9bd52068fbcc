"""rte-c: arithmetic, percentages, growth rates and unit conversions with exact answers.

Values are drawn so that every answer is exact: no rounding ever happens. Answers are
written with the fewest digits (3500, 3.4, -12); percentages carry a trailing "%".
"""
from decimal import Decimal

from .common import Case, Phrasing, Task, decimal_text

# unit conversions: (zh big, zh small, en big, en small, factor)
UNITS = (
    ("千米", "米", "km", "m", 1000),
    ("千克", "克", "kg", "g", 1000),
    ("升", "毫升", "L", "mL", 1000),
    ("米", "厘米", "m", "cm", 100),
    ("小时", "分钟", "h", "min", 60),
    ("分钟", "秒", "min", "s", 60),
)


def _sample_add_sub(rng, lang, split):
    a, b = rng.randrange(10, 1000), rng.randrange(10, 1000)
    op = rng.choice("+-")
    if op == "-" and b > a:
        a, b = b, a
    value = a + b if op == "+" else a - b
    return Case({"a": a, "b": b, "op": op, "opw": _op_word(op, lang)}, str(value),
                (a, op, b), {"kind": "arith", "a": a, "b": b, "op": op})


def _sample_mul(rng, lang, split):
    a, b = rng.randrange(11, 100), rng.randrange(2, 10)
    return Case({"a": a, "b": b, "op": "*", "opw": _op_word("*", lang)}, str(a * b),
                (a, "*", b), {"kind": "arith", "a": a, "b": b, "op": "*"})


def _op_word(op, lang):
    words = {"+": ("加", "plus"), "-": ("减", "minus"), "*": ("乘以", "times")}[op]
    return words[0] if lang == "zh" else words[1]


def _sample_percent(rng, lang, split):
    while True:
        p, n = rng.randrange(1, 100), rng.randrange(2, 100) * 10
        if p * n % 100 == 0:
            break
    return Case({"p": p, "n": n}, str(p * n // 100), (p, n),
                {"kind": "percent", "p": p, "n": n})


def _sample_growth(rng, lang, split):
    while True:
        old, rate = rng.randrange(2, 100) * 10, rng.randrange(-50, 101)
        if rate != 0 and old * rate % 100 == 0:
            break
    new = old + old * rate // 100
    return Case({"old": old, "new": new}, str(rate) + "%", (old, new),
                {"kind": "growth", "old": old, "new": new})


def _sample_convert(rng, lang, split):
    zh_big, zh_small, en_big, en_small, factor = rng.choice(UNITS)
    if factor == 60:     # time: whole hours or minutes, 1 to 99
        big = Decimal(rng.randrange(1, 100))
    else:                # metric: one decimal place, 0.1 to 19.9
        big = Decimal(rng.randrange(1, 200)) / 10
    small = big * factor
    to_small = rng.randrange(2) == 0
    value, answer = (big, small) if to_small else (small, big)
    src, dst = ((zh_big, zh_small) if to_small else (zh_small, zh_big)) if lang == "zh" else \
        ((en_big, en_small) if to_small else (en_small, en_big))
    fields = {"v": decimal_text(value), "u": src, "w": dst}
    return Case(fields, decimal_text(answer), (str(value), src, dst),
                {"kind": "convert", "value": str(value), "factor": factor,
                 "to_small": to_small})


ARITH = Task("rte-c/add-sub", "rte-c", {
    "zh": (Phrasing("计算：{a}{op}{b}="), Phrasing("{a}{opw}{b}等于多少？"),
           Phrasing("求{a}{op}{b}的值"), Phrasing("算一下{a}{opw}{b}", heldout=True)),
    "en": (Phrasing("Compute {a}{op}{b}="), Phrasing("What is {a} {opw} {b}?"),
           Phrasing("Solve: {a} {op} {b}"), Phrasing("Work out {a} {opw} {b}.", heldout=True)),
}, _sample_add_sub)

MUL = Task("rte-c/mul", "rte-c", ARITH.phrasings, _sample_mul)

PERCENT = Task("rte-c/percent", "rte-c", {
    "zh": (Phrasing("{n}的{p}%是多少？"), Phrasing("计算{n}×{p}%"),
           Phrasing("{n}乘以{p}%得多少？"), Phrasing("求{n}的百分之{p}", heldout=True)),
    "en": (Phrasing("What is {p}% of {n}?"), Phrasing("Compute {p}% of {n}."),
           Phrasing("{p} percent of {n} = ?"), Phrasing("Find {p}% of {n}", heldout=True)),
}, _sample_percent)

GROWTH = Task("rte-c/growth", "rte-c", {
    "zh": (Phrasing("营收从{old}变为{new}，增长率？"), Phrasing("由{old}到{new}，同比增长多少？"),
           Phrasing("去年{old}，今年{new}，增长率是？"),
           Phrasing("计算从{old}到{new}的增长率", heldout=True)),
    "en": (Phrasing("Revenue went from {old} to {new}. Growth rate?"),
           Phrasing("From {old} to {new}: percent change?"),
           Phrasing("Last year {old}, this year {new}. Growth?"),
           Phrasing("Compute the growth from {old} to {new}.", heldout=True)),
}, _sample_growth)

CONVERT = Task("rte-c/convert", "rte-c", {
    "zh": (Phrasing("{v}{u}等于多少{w}？"), Phrasing("把{v}{u}换算成{w}"),
           Phrasing("{v}{u}合多少{w}？"), Phrasing("{v}{u}是几{w}？", heldout=True)),
    "en": (Phrasing("How many {w} is {v} {u}?"), Phrasing("Convert {v} {u} to {w}."),
           Phrasing("{v} {u} = ? {w}"), Phrasing("Express {v} {u} in {w}.", heldout=True)),
}, _sample_convert)

TASKS = (ARITH, MUL, PERCENT, GROWTH, CONVERT)
