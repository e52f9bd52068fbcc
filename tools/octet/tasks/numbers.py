"""rte-c: arithmetic, percentages, growth rates and unit conversions with exact answers.

Values are drawn so that every answer is exact: no rounding ever happens. Answers are
written with the fewest digits (3500, 3.4, -12); percentages carry a trailing "%".

The ranges are kept small so that a tiny model can learn the arithmetic itself:
  add-sub  a, b in 10..199; a subtraction never goes negative (larger operand first)
  mul      11..49 x 2..9
  percent  p a multiple of 5 in 5..95, n a multiple of 20 in 20..500, result an integer
  growth   old in (100, 200, 400, 500), rate a nonzero multiple of 5 in -50..100,
           new = old * (100 + rate) / 100 exactly
  convert  km/m, kg/g, L/mL, m/cm (0.1..19.9 big units), h/min, min/s (1..99), both ways
"""
from decimal import Decimal

from .common import Case, Phrasing, Task, with_composed, decimal_text

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
    """a + b or a - b with operands 10..199; a subtraction never goes negative."""
    a, b = rng.randrange(10, 200), rng.randrange(10, 200)
    op = rng.choice("+-")
    if op == "-" and b > a:
        a, b = b, a
    value = a + b if op == "+" else a - b
    return Case({"a": a, "b": b, "op": op, "opw": _op_word(op, lang)}, str(value),
                (a, op, b), {"kind": "arith", "a": a, "b": b, "op": op})


def _sample_mul(rng, lang, split):
    """a * b with a in 11..49 and b in 2..9."""
    a, b = rng.randrange(11, 50), rng.randrange(2, 10)
    return Case({"a": a, "b": b, "op": "*", "opw": _op_word("*", lang)}, str(a * b),
                (a, "*", b), {"kind": "arith", "a": a, "b": b, "op": "*"})


def _op_word(op, lang):
    words = {"+": ("加", "plus"), "-": ("减", "minus"), "*": ("乘以", "times")}[op]
    return words[0] if lang == "zh" else words[1]


def _sample_percent(rng, lang, split):
    """p % of n: p a multiple of 5 in 5..95, n a multiple of 20 in 20..500, exact only."""
    while True:
        p, n = rng.randrange(1, 20) * 5, rng.randrange(1, 26) * 20
        if p * n % 100 == 0:
            break
    return Case({"p": p, "n": n}, str(p * n // 100), (p, n),
                {"kind": "percent", "p": p, "n": n})


def _sample_growth(rng, lang, split):
    """Rate from old to new: old in (100, 200, 400, 500), rate a nonzero multiple of 5 in
    -50..100, new = old * (100 + rate) / 100 (always an integer for these olds)."""
    while True:
        old, rate = rng.choice((100, 200, 400, 500)), rng.randrange(-10, 21) * 5
        if rate != 0 and old * (100 + rate) % 100 == 0:
            break
    new = old * (100 + rate) // 100
    return Case({"old": old, "new": new}, str(rate) + "%", (old, new),
                {"kind": "growth", "old": old, "new": new})


def _sample_convert(rng, lang, split):
    """A unit conversion either way; metric 0.1..19.9 big units, time 1..99 big units."""
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


ARITH_FRAMES = {
    "zh": ("{a}{op}{b}是多少？", "{a}{opw}{b}的结果是？", "答案是多少：{a}{op}{b}", "{a}{op}{b}=？"),
    "en": ("what is {a} {op} {b}?", "{a} {opw} {b} equals what?", "give the answer: {a} {op} {b}",
           "{a}{op}{b} = ?"),
}

ARITH = Task("rte-c/add-sub", "rte-c", with_composed(ARITH_FRAMES, {
    "zh": (Phrasing("计算：{a}{op}{b}="), Phrasing("{a}{opw}{b}等于多少？"),
           Phrasing("求{a}{op}{b}的值"), Phrasing("问：{a}{opw}{b}是多少？"),
           Phrasing("请算出{a}{op}{b}的结果。"), Phrasing("{a}{op}{b}得几？"),
           Phrasing("用{a}{opw}{b}，结果是多少？"),
           Phrasing("算一下{a}{opw}{b}", heldout=True),
           Phrasing("心算{a}{op}{b}，答案写出来", heldout=True)),
    "en": (Phrasing("Compute {a}{op}{b}="), Phrasing("What is {a} {opw} {b}?"),
           Phrasing("Solve: {a} {op} {b}"), Phrasing("Q: {a} {op} {b} = ?"),
           Phrasing("Calculate {a} {opw} {b}."), Phrasing("Tell me the result of {a} {op} {b}."),
           Phrasing("{a} {opw} {b} gives what number?"),
           Phrasing("Work out {a} {opw} {b}.", heldout=True),
           Phrasing("Evaluate the expression {a}{op}{b} for me.", heldout=True)),
}), _sample_add_sub)

MUL = Task("rte-c/mul", "rte-c", ARITH.phrasings, _sample_mul)

PERCENT_FRAMES = {
    "zh": ("{p}%的{n}是多少？", "{n}里{p}%是多少", "{n}的{p}%等于？", "{n}×{p}%的结果？"),
    "en": ("how much is {p}% of {n}?", "{p}% of {n} equals what?", "what's {p} percent of {n}?",
           "{n} times {p}% is?"),
}

PERCENT = Task("rte-c/percent", "rte-c", with_composed(PERCENT_FRAMES, {
    "zh": (Phrasing("{n}的{p}%是多少？"), Phrasing("计算{n}×{p}%"),
           Phrasing("{n}乘以{p}%得多少？"), Phrasing("请计算{n}的{p}%。"),
           Phrasing("问：{p}%乘以{n}等于多少？"), Phrasing("{n}中的{p}%是几？"),
           Phrasing("一共{n}个，占{p}%的有多少个？"),
           Phrasing("求{n}的百分之{p}", heldout=True),
           Phrasing("按{p}%算，{n}对应多少？", heldout=True)),
    "en": (Phrasing("What is {p}% of {n}?"), Phrasing("Compute {p}% of {n}."),
           Phrasing("{p} percent of {n} = ?"), Phrasing("Q: {p}% of {n} is what?"),
           Phrasing("Take {p}% of {n}. Result?"), Phrasing("Out of {n}, how much is {p}%?"),
           Phrasing("Calculate {p} percent of {n}."),
           Phrasing("Find {p}% of {n}", heldout=True),
           Phrasing("A total of {n}; {p}% of it equals?", heldout=True)),
}), _sample_percent)

GROWTH_FRAMES = {
    "zh": ("从{old}涨到{new}，增长率是多少？", "{old}→{new}的增长率？", "之前{old}，现在{new}，增长率？",
           "增长率多少：{old}到{new}"),
    "en": ("growth rate from {old} to {new}?", "{old} -> {new}: what is the growth rate?",
           "it was {old}, now it is {new}. Growth rate?", "what growth takes {old} to {new}?"),
}

GROWTH = Task("rte-c/growth", "rte-c", with_composed(GROWTH_FRAMES, {
    "zh": (Phrasing("营收从{old}变为{new}，增长率？"), Phrasing("由{old}到{new}，同比增长多少？"),
           Phrasing("去年{old}，今年{new}，增长率是？"),
           Phrasing("问：价格从{old}变成{new}，变化率是多少？"),
           Phrasing("原值{old}，现值{new}，求增长率。"),
           Phrasing("用户数上月{old}，本月{new}，环比增长率？"),
           Phrasing("求增长率：旧值{old}，新值{new}"),
           Phrasing("计算从{old}到{new}的增长率", heldout=True),
           Phrasing("{old}变到{new}，百分比变化是多少？", heldout=True)),
    "en": (Phrasing("Revenue went from {old} to {new}. Growth rate?"),
           Phrasing("From {old} to {new}: percent change?"),
           Phrasing("Last year {old}, this year {new}. Growth?"),
           Phrasing("Q: sales changed from {old} to {new}. Rate of change?"),
           Phrasing("Old value {old}, new value {new}. Find the growth rate."),
           Phrasing("What is the percent change if {old} becomes {new}?"),
           Phrasing("Users: {old} last month, {new} this month. Growth?"),
           Phrasing("Compute the growth from {old} to {new}.", heldout=True),
           Phrasing("The price moved from {old} to {new}; give the change in %.",
                    heldout=True)),
}), _sample_growth)

CONVERT_FRAMES = {
    "zh": ("{v}{u}换成{w}是多少？", "{v}{u}折算成{w}？", "{w}数：{v}{u}", "{v}{u}相当于多少{w}？"),
    "en": ("{v} {u} is how many {w}?", "turn {v} {u} into {w}.", "{v} {u} equals how many {w}?",
           "{v} {u} to {w}?"),
}

CONVERT = Task("rte-c/convert", "rte-c", with_composed(CONVERT_FRAMES, {
    "zh": (Phrasing("{v}{u}等于多少{w}？"), Phrasing("把{v}{u}换算成{w}"),
           Phrasing("{v}{u}合多少{w}？"), Phrasing("问：{v}{u}折合多少{w}？"),
           Phrasing("请将{v}{u}转换为{w}。"), Phrasing("换算成{w}：{v}{u}"),
           Phrasing("{v}{u}有多少{w}？"),
           Phrasing("{v}{u}是几{w}？", heldout=True),
           Phrasing("用{w}表示{v}{u}，是多少？", heldout=True)),
    "en": (Phrasing("How many {w} is {v} {u}?"), Phrasing("Convert {v} {u} to {w}."),
           Phrasing("{v} {u} = ? {w}"), Phrasing("Q: {v} {u} in {w}?"),
           Phrasing("Change {v} {u} into {w}."), Phrasing("In {w}, how much is {v} {u}?"),
           Phrasing("What is {v} {u} when written in {w}?"),
           Phrasing("Express {v} {u} in {w}.", heldout=True),
           Phrasing("Rewrite {v} {u} using {w} as the unit.", heldout=True)),
}), _sample_convert)

TASKS = (ARITH, MUL, PERCENT, GROWTH, CONVERT)
