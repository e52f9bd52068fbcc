"""rte-d: conditionals, negation scope and simple syllogisms.

Every answer is yes / no / unknown (是 / 否 / 不确定): "unknown" when the premises allow both.
"""
from .common import Case, Phrasing, Task, with_composed
from . import lexicon

ANSWERS = {"zh": {True: "是", False: "否", None: "不确定"},
           "en": {True: "yes", False: "no", None: "unknown"}}

# activities: (zh, en 3rd person, en base); "takes medicine" is a benign look-alike.
ACTIVITIES = (("游泳", "swims", "swim"), ("唱歌", "sings", "sing"), ("跑步", "runs", "run"),
              ("读书", "reads", "read"), ("做饭", "cooks", "cook"), ("吃药", "takes pills",
              "take pills"), ("下棋", "plays chess", "play chess"), ("画画", "paints", "paint"),
              ("跳舞", "dances", "dance"), ("钓鱼", "fishes", "fish"))

# conditional forms: which premise is stated and which atom is asked, with the answer.
# "p" = antecedent holds, "q" = consequent holds; a leading "!" negates.
CONDITIONAL_FORMS = (("p", "q", True), ("!q", "p", False), ("q", "p", None), ("!p", "q", None))
# quantifier forms: (quantifier, membership stated, asked, answer)
QUANTIFIER_FORMS = (("all", "x", "y", True), ("no", "x", "y", False),
                    ("all", "!y", "x", False), ("some", "x", "y", None),
                    ("notall", "x", "y", None))


def _clause(name, activity, positive, lang, question=False):
    zh, third, base = activity
    if lang == "zh":
        return name + ("" if positive else "不") + zh + ("吗" if question else "")
    if question:
        return "Does " + name + " " + base
    return name + " " + (third if positive else "does not " + base)


def _sample_conditional(rng, lang, split):
    a, b = rng.sample(lexicon.people(lang, split), 2)
    act_p, act_q = rng.sample(ACTIVITIES, 2)
    stated, asked, answer = rng.choice(CONDITIONAL_FORMS)
    atoms = {"p": (a, act_p), "q": (b, act_q)}
    fact_atom = stated.lstrip("!")
    fields = {"p": _clause(a, act_p, True, lang), "q": _clause(b, act_q, True, lang),
              "fact": _clause(*atoms[fact_atom], not stated.startswith("!"), lang),
              "ask": _clause(*atoms[asked], True, lang, question=True)}
    return Case(fields, ANSWERS[lang][answer], (a, act_p[0], b, act_q[0], stated, asked),
                {"form": "conditional", "stated": stated, "asked": asked})


def _sample_negation(rng, lang, split):
    name = rng.choice(lexicon.people(lang, split))
    act = rng.choice(ACTIVITIES)
    outer = rng.randrange(2) == 0
    inner = rng.randrange(2) == 0
    clause = _clause(name, act, not inner, lang)
    if outer:
        clause = ("并非" + clause) if lang == "zh" else ("It is not true that " + clause)
    fields = {"s": clause, "ask": _clause(name, act, True, lang, question=True)}
    holds = (not inner) != outer
    return Case(fields, ANSWERS[lang][holds], (name, act[0], outer, inner),
                {"form": "negation", "negations": int(outer) + int(inner)})


def _quantified(quant, x, y, lang):
    if lang == "zh":
        return {"all": "所有{x}都是{y}", "no": "没有{x}是{y}", "some": "有些{x}是{y}",
                "notall": "并非所有{x}都是{y}"}[quant].format(x=x, y=y)
    return {"all": "All {x}s are {y}s", "no": "No {x} is a {y}", "some": "Some {x}s are {y}s",
            "notall": "Not all {x}s are {y}s"}[quant].format(x=x, y=y)


def _membership(name, word, positive, lang, question=False):
    if lang == "zh":
        return name + ("是" if positive else "不是") + word + ("吗" if question else "")
    if question:
        return "Is " + name + " a " + word
    return name + (" is a " if positive else " is not a ") + word


def _sample_quantifier(rng, lang, split):
    x, y = rng.sample(lexicon.nonsense(lang, split), 2)
    name = rng.choice(lexicon.people(lang, split))
    quant, stated, asked, answer = rng.choice(QUANTIFIER_FORMS)
    words = {"x": x, "y": y}
    fields = {"rule": _quantified(quant, x, y, lang),
              "fact": _membership(name, words[stated.lstrip("!")], not stated.startswith("!"),
                                  lang),
              "ask": _membership(name, words[asked], True, lang, question=True)}
    return Case(fields, ANSWERS[lang][answer], (x, y, name, quant, stated, asked),
                {"form": "quantifier", "quant": quant, "stated": stated, "asked": asked})


CONDITIONAL_FRAMES = {
    "zh": ("一旦{p}，{q}。{fact}。{ask}？", "条件：{p}时{q}。{fact}。{ask}？",
           "{fact}。规则是如果{p}，那么{q}。{ask}？"),
    "en": ("when {p}, {q}. {fact}. {ask}?", "rule: {q} if {p}. {fact}. {ask}?",
           "{fact}; if {p} then {q}. {ask}?"),
}

CONDITIONAL = Task("rte-d/conditional", "rte-d", with_composed(CONDITIONAL_FRAMES, {
    "zh": (Phrasing("如果{p}，那么{q}。{fact}。{ask}？"), Phrasing("若{p}，则{q}。已知{fact}。{ask}？"),
           Phrasing("{p}的话，{q}。现在{fact}。{ask}？"),
           Phrasing("已知{fact}，且若{p}则{q}。请问{ask}？"),
           Phrasing("问：{ask}？已知：要是{p}，那么{q}；{fact}。"),
           Phrasing("规则：只要{p}，{q}。情况：{fact}。{ask}？"),
           Phrasing("请判断：倘若{p}，{q}，而{fact}。{ask}？"),
           Phrasing("假设：{p}则{q}。事实：{fact}。{ask}？", heldout=True),
           Phrasing("每当{p}，{q}。观察到{fact}。{ask}？", heldout=True)),
    "en": (Phrasing("If {p}, {q}. {fact}. {ask}?"), Phrasing("{q} whenever {p}. {fact}. {ask}?"),
           Phrasing("Rule: if {p}, then {q}. {fact}. {ask}?"),
           Phrasing("{fact}. If {p}, {q}. {ask}?"),
           Phrasing("Q: {ask}? If {p}, {q}; {fact}."),
           Phrasing("Whenever {p}, {q}. {fact}. {ask}?"),
           Phrasing("Once {p}, {q}. {fact}. {ask}?"),
           Phrasing("Suppose {q} if {p}. {fact}. {ask}?", heldout=True),
           Phrasing("Provided {p}, {q}. {fact}. {ask}?", heldout=True)),
}), _sample_conditional, pooled=True)

NEGATION_FRAMES = {
    "zh": ("{s}。请回答：{ask}？", "已知这句：{s}。{ask}？", "{ask}？依据：{s}。"),
    "en": ("know this: {s}. {ask}?", "{s}. Answer: {ask}?", "{ask}? Based on: {s}."),
}

NEGATION = Task("rte-d/negation", "rte-d", with_composed(NEGATION_FRAMES, {
    "zh": (Phrasing("{s}。{ask}？"), Phrasing("已知：{s}。请问{ask}？"),
           Phrasing("{s}。那么{ask}？"),
           Phrasing("问：{ask}？已知{s}。"),
           Phrasing("请读：{s}。然后回答：{ask}？"),
           Phrasing("假定下面这句为真：{s}。{ask}？"),
           Phrasing("陈述：{s}。根据这句话，{ask}？"),
           Phrasing("前提：{s}。{ask}？", heldout=True),
           Phrasing("据可靠消息，{s}。{ask}？", heldout=True)),
    "en": (Phrasing("{s}. {ask}?"), Phrasing("Given: {s}. {ask}?"),
           Phrasing("We know: {s}. {ask}?"),
           Phrasing("Q: {ask}? Fact: {s}."),
           Phrasing("Read: {s}. Now answer: {ask}?"),
           Phrasing("Suppose this is true: {s}. {ask}?"),
           Phrasing("Statement: {s}. Tell me: {ask}?"),
           Phrasing("Premise: {s}. Question: {ask}?", heldout=True),
           Phrasing("Claim: {s}. Decide: {ask}?", heldout=True)),
}), _sample_negation, pooled=True)

SYLLOGISM_FRAMES = {
    "zh": ("{rule}；{fact}。{ask}？", "已知：{fact}；{rule}。{ask}？", "{ask}？条件：{rule}，{fact}。"),
    "en": ("{rule}; {fact}. {ask}?", "known: {fact}; {rule}. {ask}?", "{ask}? Given {rule} and {fact}."),
}

SYLLOGISM = Task("rte-d/syllogism", "rte-d", with_composed(SYLLOGISM_FRAMES, {
    "zh": (Phrasing("{rule}。{fact}。{ask}？"), Phrasing("已知{rule}，且{fact}。{ask}？"),
           Phrasing("{rule}，而{fact}。{ask}？"),
           Phrasing("{fact}。{rule}。{ask}？"),
           Phrasing("问：{ask}？已知：{rule}；{fact}。"),
           Phrasing("事实如下：{rule}。另外，{fact}。{ask}？"),
           Phrasing("只根据下面的信息回答。{rule}。{fact}。{ask}？"),
           Phrasing("前提：{rule}；{fact}。结论：{ask}？", heldout=True),
           Phrasing("我们知道{rule}，也知道{fact}。由此，{ask}？", heldout=True)),
    "en": (Phrasing("{rule}. {fact}. {ask}?"), Phrasing("Given: {rule}; {fact}. {ask}?"),
           Phrasing("Assume: {rule}. {fact}. {ask}?"),
           Phrasing("{fact}. {rule}. {ask}?"),
           Phrasing("Q: {ask}? Known: {rule}; {fact}."),
           Phrasing("Facts: {rule}. Also, {fact}. {ask}?"),
           Phrasing("Reason from this: {rule}. {fact}. {ask}?"),
           Phrasing("Premises: {rule}. {fact}. Question: {ask}?", heldout=True),
           Phrasing("From what we know: {rule}, and {fact}. {ask}?", heldout=True)),
}), _sample_quantifier, pooled=True)

TASKS = (CONDITIONAL, NEGATION, SYLLOGISM)
