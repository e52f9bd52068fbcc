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
           Phrasing("问：{q}的{qr}是谁？已知{a}是{b}的{r1}，{c}是{d}的{r2}。"),
           Phrasing("{c}是{d}的{r2}，而{a}是{b}的{r1}。那么{q}的{qr}是谁？"),
           Phrasing("根据以下关系回答：{b}的{r1}是{a}，{d}的{r2}是{c}。{q}的{qr}是？"),
           Phrasing("请说出{q}的{qr}。{a}是{b}的{r1}，{c}是{d}的{r2}。"),
           Phrasing("{c}是{d}的{r2}，{a}是{b}的{r1}。问：{q}的{qr}？", heldout=True),
           Phrasing("{b}有位{r1}叫{a}，{d}有位{r2}叫{c}。{q}的{qr}是哪位？", heldout=True)),
    "en": (Phrasing("{a} is {b}'s {r1}. {c} is {d}'s {r2}. Who is {q}'s {qr}?"),
           Phrasing("Facts: {a} is {b}'s {r1}; {c} is {d}'s {r2}. {q}'s {qr}?"),
           Phrasing("{a} is the {r1} of {b}. {c} is the {r2} of {d}. {q}'s {qr}?"),
           Phrasing("Q: Who is {q}'s {qr}? {a} is {b}'s {r1}; {c} is {d}'s {r2}."),
           Phrasing("{c} is the {r2} of {d}, while {a} is the {r1} of {b}. Who is {q}'s {qr}?"),
           Phrasing("Given that {b}'s {r1} is {a} and {d}'s {r2} is {c}, who is {q}'s {qr}?"),
           Phrasing("Tell me {q}'s {qr}. {a} is {b}'s {r1}, and {c} is {d}'s {r2}."),
           Phrasing("{c} is {d}'s {r2} and {a} is {b}'s {r1}. Name {q}'s {qr}.",
                    heldout=True),
           Phrasing("{b} has a {r1} called {a}; {d} has a {r2} called {c}. And {q}'s {qr}?",
                    heldout=True)),
}, _sample_kin, pooled=True)

PLACE = Task("rte-b/place", "rte-b", {
    "zh": (Phrasing("{a}住在{x}，{b}住在{y}。{q}住在哪？"),
           Phrasing("{a}在{x}工作，{b}在{y}工作。{q}在哪工作？"),
           Phrasing("{a}的家在{x}，{b}的家在{y}。{q}的家在哪？"),
           Phrasing("问：{q}住在哪个城市？{a}住在{x}，{b}住在{y}。"),
           Phrasing("{b}住{y}，{a}住{x}。请说出{q}住的城市。"),
           Phrasing("{a}在{x}上班，{b}在{y}上班，那{q}在哪上班？"),
           Phrasing("{a}搬到了{x}，{b}搬到了{y}。{q}搬去了哪里？"),
           Phrasing("{b}来自{y}，{a}来自{x}。{q}来自哪里？", heldout=True),
           Phrasing("读大学的城市：{a}是{x}，{b}是{y}。{q}呢？", heldout=True)),
    "en": (Phrasing("{a} lives in {x}. {b} lives in {y}. Where does {q} live?"),
           Phrasing("{a} works in {x}; {b} works in {y}. Where does {q} work?"),
           Phrasing("{a} moved to {x}, {b} moved to {y}. Where did {q} move?"),
           Phrasing("Q: Where does {q} live? {a} lives in {x}; {b} lives in {y}."),
           Phrasing("{b} is based in {y}, and {a} is based in {x}. Where is {q} based?"),
           Phrasing("{a} grew up in {x} and {b} grew up in {y}. Which city did {q} grow up in?"),
           Phrasing("Tell me where {q} works: {a} works in {x}, {b} works in {y}."),
           Phrasing("{b} is from {y} and {a} is from {x}. {q} is from?", heldout=True),
           Phrasing("Hometowns: {a}, {x}; {b}, {y}. What is {q}'s hometown?", heldout=True)),
}, _sample_place, pooled=True)

TABLE = Task("rte-b/table", "rte-b", {
    "zh": (Phrasing("价格表：{g1}{p1}元，{g2}{p2}元，{g3}{p3}元。{q}几元？"),
           Phrasing("{g1}:{p1}，{g2}:{p2}，{g3}:{p3}。{q}的值？"),
           Phrasing("库存：{g1}{p1}个，{g2}{p2}个，{g3}{p3}个。{q}有几个？"),
           Phrasing("问：{q}多少钱？{g1}{p1}元，{g2}{p2}元，{g3}{p3}元。"),
           Phrasing("{g1}卖{p1}元，{g2}卖{p2}元，{g3}卖{p3}元，请问{q}卖多少？"),
           Phrasing("仓库里有{g1}{p1}件、{g2}{p2}件、{g3}{p3}件。{q}还剩几件？"),
           Phrasing("查表回答{q}的数值：{g1}是{p1}，{g2}是{p2}，{g3}是{p3}"),
           Phrasing("清单：{g1}={p1}；{g2}={p2}；{g3}={p3}。查{q}", heldout=True),
           Phrasing("若{g1}值{p1}，{g2}值{p2}，{g3}值{p3}，则{q}值多少？", heldout=True)),
    "en": (Phrasing("Prices: {g1} {p1}, {g2} {p2}, {g3} {p3}. Price of {q}?"),
           Phrasing("{g1}: {p1}; {g2}: {p2}; {g3}: {p3}. Value for {q}?"),
           Phrasing("Stock: {g1} x{p1}, {g2} x{p2}, {g3} x{p3}. Quantity of {q}?"),
           Phrasing("Q: What's the price of {q}? {g1} at {p1}, {g2} at {p2}, {g3} at {p3}."),
           Phrasing("{p1} buys {g1}, {p2} buys {g2}, {p3} buys {g3}. How much for {q}?"),
           Phrasing("Inventory: {g1} ({p1} left), {g2} ({p2} left), {g3} ({p3} left). "
                    "Units of {q}?"),
           Phrasing("Find the value of {q} in: {g1} {p1} | {g2} {p2} | {g3} {p3}"),
           Phrasing("Table {g1}={p1}, {g2}={p2}, {g3}={p3}. Look up {q}.", heldout=True),
           Phrasing("Given {g1} -> {p1}, {g2} -> {p2}, {g3} -> {p3}, what does {q} map to?",
                    heldout=True)),
}, _sample_table)

TASKS = (KIN, PLACE, TABLE)
