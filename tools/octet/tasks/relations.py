"""rte-b: answer a relation question over facts stated in the prompt.

Each prompt states facts of different kinds (a relative, a home city, an age; or a price
and a stock count, each after its label) and asks for one of them. The question's relation
decides which stated value is the answer. (The first two octets asked which of two or three
people or goods a value belonged to; matching a name in the question to the same name among
the facts stayed at chance for a model of this size, see docs/octet.md.)
"""
from .common import Case, Phrasing, Task, with_composed
from . import lexicon

ZH_KIN = ("父亲", "母亲", "老师", "老板", "邻居", "同事")
EN_KIN = ("father", "mother", "teacher", "boss", "neighbour", "coworker")

# Table goods; a few share words with unsafe requests (benign look-alikes).
ZH_GOODS = ("苹果", "梨", "书", "笔", "刀", "药", "钱包", "茶", "伞", "鞋", "锁", "灯")
EN_GOODS = ("apple", "pear", "book", "pen", "knife", "pills", "wallet", "tea", "lamp",
            "lock", "shoes", "rope")
ZH_ATTRIBUTES = {"price": "价格", "stock": "库存"}


def _sample_profile(asked):
    """A person b with a relative a (relation r), a home city x and an age n; asks one."""
    def sample(rng, lang, split):
        a, b = rng.sample(lexicon.people(lang, split), 2)
        r = rng.choice(ZH_KIN if lang == "zh" else EN_KIN)
        x = rng.choice(lexicon.ZH_CITIES if lang == "zh" else lexicon.EN_CITIES)
        n = rng.randrange(18, 80)
        facts = ((b, r, a), (b, "place", x), (b, "age", str(n)))
        relation, answer = (r, a) if asked == "kin" else ("place", x)
        return Case({"a": a, "b": b, "r": r, "x": x, "n": n}, answer, (a, b, r, x, n),
                    {"facts": facts, "asked": (b, relation)})
    return sample


def _sample_table(rng, lang, split):
    """Goods g with a price p and a stock count s (different numbers); asks one of them."""
    g = rng.choice(ZH_GOODS if lang == "zh" else EN_GOODS)
    p, s = rng.sample(range(2, 100), 2)
    attribute = rng.choice(("price", "stock"))
    qa = ZH_ATTRIBUTES[attribute] if lang == "zh" else attribute
    facts = ((g, "price", str(p)), (g, "stock", str(s)))
    return Case({"g": g, "p": p, "s": s, "qa": qa}, str(p if attribute == "price" else s),
                (g, p, s, attribute), {"facts": facts, "asked": (g, attribute)})


KIN_FRAMES = {
    "zh": ("{b}住{x}，{n}岁；{b}的{r}是{a}。{b}的{r}是谁？",
           "{b}的{r}：{a}。{b}的城市：{x}。{b}的年龄：{n}。谁是{b}的{r}？",
           "{b}{n}岁了，{a}是{b}的{r}，{b}在{x}。{b}的{r}叫啥？",
           "看资料：{a}是{b}的{r}，{b}{n}岁，住{x}。回答{b}的{r}。",
           "{b}的{r}是谁？资料：{b}在{x}住，{a}是{b}的{r}，{b}{n}岁。"),
    "en": ("{b} lives in {x}. {b}'s {r} is {a}. {b} is {n}. Who is {b}'s {r}?",
           "{b}'s {r}: {a}. {b}'s city: {x}. {b}'s age: {n}. Who is the {r}?",
           "who is {b}'s {r}? Info: {a} is {b}'s {r}, {b} is {n}, in {x}.",
           "{a} is the {r} of {b}; {b} is {n} and lives in {x}. {b}'s {r} is?",
           "name the {r} of {b}. {b} is {n}, lives in {x}, has {a} as {r}."),
}

KIN = Task("rte-b/kin", "rte-b", with_composed(KIN_FRAMES, {
    "zh": (Phrasing("{a}是{b}的{r}。{b}住在{x}，今年{n}岁。{b}的{r}是谁？"),
           Phrasing("{b}今年{n}岁，住在{x}，{b}的{r}是{a}。谁是{b}的{r}？"),
           Phrasing("已知：{b}住在{x}；{a}是{b}的{r}；{b}{n}岁。{b}的{r}叫什么？"),
           Phrasing("问：{b}的{r}是谁？{b}{n}岁，家在{x}，{a}是{b}的{r}。"),
           Phrasing("{b}的家在{x}，{b}的{r}是{a}，{b}今年{n}岁。那么{b}的{r}是谁？"),
           Phrasing("根据资料回答：{b}，{n}岁，住{x}，{r}是{a}。{b}的{r}是？"),
           Phrasing("请说出{b}的{r}。{a}是{b}的{r}，{b}住在{x}，今年{n}岁。"),
           Phrasing("{b}有位{r}叫{a}；{b}在{x}生活，{n}岁。问：{b}的{r}？", heldout=True),
           Phrasing("关于{b}：年龄{n}，城市{x}，{r}{a}。{b}的{r}是哪位？", heldout=True)),
    "en": (Phrasing("{a} is {b}'s {r}. {b} lives in {x} and is {n}. Who is {b}'s {r}?"),
           Phrasing("{b} is {n}, lives in {x}, and {b}'s {r} is {a}. Who is {b}'s {r}?"),
           Phrasing("Facts: {b} lives in {x}; {a} is {b}'s {r}; {b} is {n} years old. "
                    "{b}'s {r}?"),
           Phrasing("Q: Who is {b}'s {r}? {b} is {n} and lives in {x}. {a} is the {r} of {b}."),
           Phrasing("{b}, aged {n}, lives in {x}. {a} is {b}'s {r}. Name {b}'s {r}."),
           Phrasing("Given {b}'s {r} is {a}, and {b}, {n}, lives in {x}: who is {b}'s {r}?"),
           Phrasing("Tell me {b}'s {r}. {a} is {b}'s {r}; {b} is {n} and lives in {x}."),
           Phrasing("{b} has a {r} called {a}, is {n}, and is from {x}. And {b}'s {r}?",
                    heldout=True),
           Phrasing("Profile of {b}: age {n}, city {x}, {r} {a}. Which person is {b}'s {r}?",
                    heldout=True)),
}), _sample_profile("kin"), pooled=True)

PLACE_FRAMES = {
    "zh": ("{b}住{x}，{n}岁；{b}的{r}是{a}。{b}住哪个城市？",
           "{b}的{r}：{a}。{b}的城市：{x}。{b}的年龄：{n}。{b}在哪个城市？",
           "{b}{n}岁了，{a}是{b}的{r}，{b}在{x}上班。{b}在哪上班？",
           "看资料：{a}是{b}的{r}，{b}{n}岁，住{x}。回答{b}住的城市。",
           "{b}住在哪里？资料：{b}在{x}住，{a}是{b}的{r}，{b}{n}岁。"),
    "en": ("{b} lives in {x}. {b}'s {r} is {a}. {b} is {n}. Where does {b} live?",
           "{b}'s {r}: {a}. {b}'s city: {x}. {b}'s age: {n}. Which city?",
           "where does {b} live? Info: {a} is {b}'s {r}, {b} is {n}, in {x}.",
           "{a} is the {r} of {b}; {b} is {n} and works in {x}. {b} works where?",
           "name the city of {b}. {b} is {n}, lives in {x}, has {a} as {r}."),
}

PLACE = Task("rte-b/place", "rte-b", with_composed(PLACE_FRAMES, {
    "zh": (Phrasing("{a}是{b}的{r}。{b}住在{x}，今年{n}岁。{b}住在哪？"),
           Phrasing("{b}今年{n}岁，在{x}工作，{b}的{r}是{a}。{b}在哪工作？"),
           Phrasing("已知：{b}住在{x}；{a}是{b}的{r}；{b}{n}岁。{b}住在哪个城市？"),
           Phrasing("问：{b}的家在哪？{b}{n}岁，家在{x}，{a}是{b}的{r}。"),
           Phrasing("{b}搬到了{x}，{b}的{r}是{a}，{b}今年{n}岁。{b}搬去了哪里？"),
           Phrasing("根据资料回答：{b}，{n}岁，住{x}，{r}是{a}。{b}住哪？"),
           Phrasing("请说出{b}住的城市。{a}是{b}的{r}，{b}住在{x}，今年{n}岁。"),
           Phrasing("{b}来自{x}，{n}岁，{r}叫{a}。{b}来自哪里？", heldout=True),
           Phrasing("关于{b}：年龄{n}，城市{x}，{r}{a}。{b}在哪座城市？", heldout=True)),
    "en": (Phrasing("{a} is {b}'s {r}. {b} lives in {x} and is {n}. Where does {b} live?"),
           Phrasing("{b} is {n}, works in {x}, and {b}'s {r} is {a}. Where does {b} work?"),
           Phrasing("Facts: {b} lives in {x}; {a} is {b}'s {r}; {b} is {n} years old. "
                    "{b} lives where?"),
           Phrasing("Q: Where does {b} live? {b} is {n} and lives in {x}. "
                    "{a} is the {r} of {b}."),
           Phrasing("{b}, aged {n}, moved to {x}. {a} is {b}'s {r}. Where did {b} move?"),
           Phrasing("{b}'s {r} is {a}; {b}, {n}, grew up in {x}. Which city did {b} grow up in?"),
           Phrasing("Tell me where {b} lives. {a} is {b}'s {r}; {b} is {n} and lives in {x}."),
           Phrasing("{b} has a {r} called {a}, is {n}, and is from {x}. {b} is from?",
                    heldout=True),
           Phrasing("Profile of {b}: age {n}, city {x}, {r} {a}. What is {b}'s home city?",
                    heldout=True)),
}), _sample_profile("place"), pooled=True)

TABLE_FRAMES = {
    "zh": ("{g}的价格是{p}，库存是{s}。{qa}？", "库存{s}，价格{p}，商品是{g}。{g}的{qa}？",
           "{g}一栏：价格{p}；库存{s}。请回答{qa}。", "{g}的{qa}是多少？价格{p}，库存{s}。",
           "盘点：{g} 库存{s} 价格{p}。{qa}多少？"),
    "en": ("{g} price is {p} and stock is {s}. The {qa}?",
           "stock {s}, price {p}, item {g}. What's the {qa} of {g}?",
           "{g} row: price {p}; stock {s}. Answer with the {qa}.",
           "what is the {qa} of {g}? Price {p}, stock {s}.",
           "stocktake: {g} stock {s} price {p}. How much is the {qa}?"),
}

TABLE = Task("rte-b/table", "rte-b", with_composed(TABLE_FRAMES, {
    "zh": (Phrasing("{g}：价格{p}元，库存{s}个。{g}的{qa}是多少？"),
           Phrasing("商品{g}，库存{s}件，价格{p}元。问{g}的{qa}？"),
           Phrasing("价格表：{g}价格{p}，库存{s}。{g}的{qa}是？"),
           Phrasing("问：{g}的{qa}是多少？{g}的价格是{p}，库存是{s}。"),
           Phrasing("{g}库存{s}，价格{p}，请问{qa}是多少？"),
           Phrasing("查表回答{g}的{qa}：价格={p}，库存={s}"),
           Phrasing("仓库记录：{g}，库存{s}个，价格{p}元。{g}的{qa}多少？"),
           Phrasing("清单｜{g}｜价格{p}｜库存{s}。查{qa}", heldout=True),
           Phrasing("若{g}的库存为{s}、价格为{p}，则其{qa}为？", heldout=True)),
    "en": (Phrasing("{g}: price {p}, stock {s}. What is the {qa} of {g}?"),
           Phrasing("Item {g}, stock {s}, price {p}. The {qa} of {g}?"),
           Phrasing("Price list: {g} price {p}, stock {s}. Its {qa}?"),
           Phrasing("Q: What's the {qa} of {g}? The price of {g} is {p} and the stock is {s}."),
           Phrasing("{g} has stock {s} and price {p}. What is the {qa}?"),
           Phrasing("Inventory: {g} (stock {s}, price {p}). Tell me the {qa} of {g}."),
           Phrasing("Find the {qa} of {g} in: price {p} | stock {s}"),
           Phrasing("Record {g}: price={p}; stock={s}. Look up its {qa}.", heldout=True),
           Phrasing("Given {g} -> price {p}, stock {s}, what is the {qa}?", heldout=True)),
}), _sample_table)

TASKS = (KIN, PLACE, TABLE)
