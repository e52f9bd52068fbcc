"""rte-a: recognise an entity in a short sentence and normalise it through the gazetteer."""
from .common import Case, Phrasing, Task, with_composed
from . import lexicon

# canonical English name -> Chinese aliases (the project's own gazetteer)
GAZETTEER = {
    "Apple Inc.": ("苹果公司", "苹果"),
    "Microsoft": ("微软", "微软公司"),
    "Google": ("谷歌", "谷歌公司"),
    "Amazon": ("亚马逊", "亚马逊公司"),
    "Tencent": ("腾讯", "腾讯公司"),
    "Alibaba": ("阿里巴巴", "阿里"),
    "Huawei": ("华为", "华为公司"),
    "Xiaomi": ("小米", "小米公司"),
    "Baidu": ("百度", "百度公司"),
    "Toyota": ("丰田", "丰田汽车"),
    "Samsung": ("三星", "三星电子"),
    "Sony": ("索尼", "索尼公司"),
    "Tesla": ("特斯拉", "特斯拉公司"),
    "Intel": ("英特尔", "英特尔公司"),
    "Nike": ("耐克", "耐克公司"),
    "Peking University": ("北京大学", "北大"),
    "Tsinghua University": ("清华大学", "清华"),
    "Fudan University": ("复旦大学", "复旦"),
    "Harvard University": ("哈佛大学", "哈佛"),
    "Oxford University": ("牛津大学", "牛津"),
    "United Nations": ("联合国", "联合国组织"),
    "World Bank": ("世界银行", "世行"),
    "Red Cross": ("红十字会", "红会"),
    "Beijing": ("北京", "北京市"),
    "Shanghai": ("上海", "上海市"),
    "Guangzhou": ("广州", "广州市"),
    "Shenzhen": ("深圳", "深圳市"),
    "Hong Kong": ("香港", "香港特区"),
    "Tokyo": ("东京", "东京都"),
    "London": ("伦敦", "伦敦市"),
    "New York": ("纽约", "纽约市"),
    "Paris": ("巴黎", "巴黎市"),
    "China": ("中国", "中华人民共和国"),
    "Japan": ("日本", "日本国"),
    "Germany": ("德国", "德意志"),
    "France": ("法国", "法兰西"),
    "Brazil": ("巴西", "巴西联邦"),
    "Canada": ("加拿大", "加国"),
    "Yangtze River": ("长江", "扬子江"),
    "Mount Everest": ("珠穆朗玛峰", "珠峰"),
}

_NOISES = ("lower", "upper", "plain", "spaced", "zh")


def _noisy(name, noise, rng):
    """An English surface variant of a canonical name, or one of its Chinese aliases."""
    if noise == "lower":
        return name.lower()
    if noise == "upper":
        return name.upper()
    if noise == "plain":
        return name.replace(".", "").lower()
    if noise == "spaced":
        return "  ".join(name.lower().split(" "))
    return rng.choice(GAZETTEER[name])


def _sample(rng, lang, split):
    canonical = rng.choice(sorted(GAZETTEER))
    person = rng.choice(lexicon.people(lang, split))
    if lang == "zh":
        alias = rng.choice(GAZETTEER[canonical])
    else:
        alias = _noisy(canonical, rng.choice(_NOISES), rng)
    return Case({"person": person, "alias": alias}, canonical,
                (canonical, alias, person), {"canonical": canonical, "alias": alias})


NORMALISE_FRAMES = {
    "zh": ("{person}聊到{alias}，它的规范英文名？", "规范英文名是什么：{person}在说{alias}",
           "{alias}（{person}提到的）规范成英文名", "{person}的笔记里有{alias}，写出英文正式名",
           "把{alias}规范化，{person}问的"),
    "en": ("{person} talked about {alias}; its canonical name?",
           "what's the canonical name of {alias}? {person} said it.",
           "{alias}, mentioned by {person}: normalise the name.",
           "in {person}'s notes: {alias}. Standard English name?",
           "give the proper name for {alias} ({person} typed it)."),
}

NORMALISE = Task("rte-a/normalise", "rte-a", with_composed(NORMALISE_FRAMES, {
    "zh": (Phrasing("{person}提到了{alias}。规范英文名？"),
           Phrasing("{person}去过{alias}，其标准名称是？"),
           Phrasing("实体规范化：{person}说起{alias}"),
           Phrasing("问：{person}提到的{alias}，规范英文名是什么？"),
           Phrasing("{alias}的规范英文名是？{person}刚提起它。"),
           Phrasing("请写出标准英文名：{person}最近关注{alias}"),
           Phrasing("找出句中实体并给出英文正式名：{person}常聊{alias}"),
           Phrasing("{person}谈到“{alias}”，标准写法？", heldout=True),
           Phrasing("把{person}说的{alias}换成规范名", heldout=True)),
    "en": (Phrasing("{person} mentioned {alias}. Canonical name?"),
           Phrasing("Normalise the entity: {person} saw {alias}"),
           Phrasing("{person} wrote \"{alias}\". Standard name?"),
           Phrasing("Q: {person} talked about {alias}. What is its canonical name?"),
           Phrasing("Which canonical name matches {alias}? {person} brought it up."),
           Phrasing("{person} keeps talking about {alias}; give the entity's proper name."),
           Phrasing("Write the standard English name for {alias}, as used by {person}."),
           Phrasing("Link the entity in: {person} met {alias}", heldout=True),
           Phrasing("Official name of {alias} ({person} asks)?", heldout=True)),
}), _sample, pooled=True)

TASKS = (NORMALISE,)
