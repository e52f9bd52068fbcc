"""rte-b: answer a relation question over facts stated in the prompt."""
from .common import Case, Phrasing, Task
from . import lexicon

ZH_KIN = ("父亲", "母亲", "老师", "老板", "邻居", "同事")
EN_KIN = ("father", "mother", "teacher", "boss", "neighbour", "coworker")

# Table goods; a few share words with unsafe requests (benign look-alikes).
ZH_GOODS = ("苹果", "梨", "书", "笔", "刀", "药", "钱包", "茶", "伞", "鞋", "锁", "灯")
EN_GOODS = ("apple", "pear", "book", "pen", "knife", "pills", "wallet", "tea", "lamp",
            "lock", "shoes", "rope")


def _two_people(rng, lang, split):
    a, b, c, d = rng.sample(lexicon.people(lang, split), 4)
    return a, b, c, d


def _sample_kin(rng, lang, split):
    a, b, c, d = _two_people(rng, lang, split)
    kin = ZH_KIN if lang == "zh" else EN_KIN
    r1, r2 = rng.sample(kin, 2)
    ask_first = rng.randrange(2) == 0
    fields = {"a": a, "b": b, "r1": r1, "c": c, "d": d, "r2": r2,
              "q": b if ask_first else d, "qr": r1 if ask_first else r2}
    answer = a if ask_first else c
    facts = ((b, r1, a), (d, r2, c))
    return Case(fields, answer, (a, b, r1, c, d, r2, ask_first),
                {"facts": facts, "asked": (fields["q"], fields["qr"])})


def _sample_place(rng, lang, split):
    a, b, _, _ = _two_people(rng, lang, split)
    x, y = rng.sample(lexicon.ZH_CITIES if lang == "zh" else lexicon.EN_CITIES, 2)
    ask_first = rng.randrange(2) == 0
    fields = {"a": a, "x": x, "b": b, "y": y, "q": a if ask_first else b}
    return Case(fields, x if ask_first else y, (a, x, b, y, ask_first),
                {"facts": ((a, "place", x), (b, "place", y)), "asked": (fields["q"], "place")})


def _sample_table(rng, lang, split):
    goods = ZH_GOODS if lang == "zh" else EN_GOODS
    g1, g2, g3 = rng.sample(goods, 3)
    p1, p2, p3 = (rng.randrange(2, 100) for _ in range(3))
    ask = rng.randrange(3)
    fields = {"g1": g1, "p1": p1, "g2": g2, "p2": p2, "g3": g3, "p3": p3,
              "q": (g1, g2, g3)[ask]}
    facts = tuple((g, "value", str(p)) for g, p in ((g1, p1), (g2, p2), (g3, p3)))
    return Case(fields, str((p1, p2, p3)[ask]), (g1, p1, g2, p2, g3, p3, ask),
                {"facts": facts, "asked": (fields["q"], "value")})


KIN = Task("rte-b/kin", "rte-b", {
    "zh": (Phrasing("{a}是{b}的{r1}，{c}是{d}的{r2}。{q}的{qr}是谁？"),
           Phrasing("已知{a}是{b}的{r1}；{c}是{d}的{r2}。谁是{q}的{qr}？"),
           Phrasing("{a}是{b}的{r1}；{c}是{d}的{r2}。{q}的{qr}叫什么？"),
           Phrasing("{c}是{d}的{r2}，{a}是{b}的{r1}。问：{q}的{qr}？", heldout=True)),
    "en": (Phrasing("{a} is {b}'s {r1}. {c} is {d}'s {r2}. Who is {q}'s {qr}?"),
           Phrasing("Facts: {a} is {b}'s {r1}; {c} is {d}'s {r2}. {q}'s {qr}?"),
           Phrasing("{a} is the {r1} of {b}. {c} is the {r2} of {d}. {q}'s {qr}?"),
           Phrasing("{c} is {d}'s {r2} and {a} is {b}'s {r1}. Name {q}'s {qr}.",
                    heldout=True)),
}, _sample_kin, pooled=True)

PLACE = Task("rte-b/place", "rte-b", {
    "zh": (Phrasing("{a}住在{x}，{b}住在{y}。{q}住在哪？"),
           Phrasing("{a}在{x}工作，{b}在{y}工作。{q}在哪工作？"),
           Phrasing("{a}的家在{x}，{b}的家在{y}。{q}的家在哪？"),
           Phrasing("{b}来自{y}，{a}来自{x}。{q}来自哪里？", heldout=True)),
    "en": (Phrasing("{a} lives in {x}. {b} lives in {y}. Where does {q} live?"),
           Phrasing("{a} works in {x}; {b} works in {y}. Where does {q} work?"),
           Phrasing("{a} moved to {x}, {b} moved to {y}. Where did {q} move?"),
           Phrasing("{b} is from {y} and {a} is from {x}. {q} is from?", heldout=True)),
}, _sample_place, pooled=True)

TABLE = Task("rte-b/table", "rte-b", {
    "zh": (Phrasing("价格表：{g1}{p1}元，{g2}{p2}元，{g3}{p3}元。{q}几元？"),
           Phrasing("{g1}:{p1}，{g2}:{p2}，{g3}:{p3}。{q}的值？"),
           Phrasing("库存：{g1}{p1}个，{g2}{p2}个，{g3}{p3}个。{q}有几个？"),
           Phrasing("清单：{g1}={p1}；{g2}={p2}；{g3}={p3}。查{q}", heldout=True)),
    "en": (Phrasing("Prices: {g1} {p1}, {g2} {p2}, {g3} {p3}. Price of {q}?"),
           Phrasing("{g1}: {p1}; {g2}: {p2}; {g3}: {p3}. Value for {q}?"),
           Phrasing("Stock: {g1} x{p1}, {g2} x{p2}, {g3} x{p3}. Quantity of {q}?"),
           Phrasing("Table {g1}={p1}, {g2}={p2}, {g3}={p3}. Look up {q}.", heldout=True)),
}, _sample_table)

TASKS = (KIN, PLACE, TABLE)
