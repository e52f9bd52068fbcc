"""rte-f: formal <-> casual rewrites and zh -> en term pairs, answered from fixed tables."""
from .common import Case, Phrasing, Task, with_composed
from . import lexicon

# (formal, casual): one-to-one in both directions.
ZH_REGISTER = (("请您稍候", "等一下哈"), ("非常感谢您的帮助", "太谢谢啦"), ("请问您贵姓", "你叫啥"),
               ("恕我无法出席", "我去不了啦"), ("烦请尽快回复", "快回我哈"), ("祝您一切顺利", "加油哦"),
               ("敬请谅解", "别介意哈"), ("欢迎莅临", "欢迎来玩"), ("此事已办妥", "搞定啦"),
               ("请您过目", "你看看"), ("失陪了", "我先撤了"), ("久仰大名", "早听说你了"))
EN_REGISTER = (("please wait a moment", "hang on"), ("thank you very much", "thanks a lot"),
               ("I am unable to attend", "can't make it"), ("please reply soon", "get back to me"),
               ("I apologise for the delay", "sorry I'm late"), ("good morning to you", "morning"),
               ("that is correct", "yep"), ("I do not understand", "no idea"),
               ("it is my pleasure", "no problem"), ("kindly take a look", "have a look"),
               ("I must leave now", "gotta go"), ("congratulations to you", "nice one"))

# zh -> en terms; the security words are benign look-alikes of rte-h requests.
TERMS = (("机器学习", "machine learning"), ("数据库", "database"), ("操作系统", "operating system"),
         ("编译器", "compiler"), ("神经网络", "neural network"), ("算法", "algorithm"),
         ("服务器", "server"), ("浏览器", "browser"), ("病毒", "virus"), ("密码", "password"),
         ("防火墙", "firewall"), ("邮箱", "mailbox"), ("漏洞", "vulnerability"),
         ("缓存", "cache"), ("线程", "thread"), ("接口", "interface"), ("变量", "variable"),
         ("函数", "function"), ("网络", "network"), ("芯片", "chip"), ("显卡", "graphics card"),
         ("内存", "memory"), ("硬盘", "hard disk"), ("键盘", "keyboard"), ("鼠标", "mouse"),
         ("软件", "software"), ("硬件", "hardware"), ("云计算", "cloud computing"),
         ("人工智能", "artificial intelligence"), ("注意力", "attention"))


def _register_sampler(to_casual):
    def sample(rng, lang, split):
        table = ZH_REGISTER if lang == "zh" else EN_REGISTER
        formal, casual = rng.choice(table)
        name = rng.choice(lexicon.people(lang, split))
        source, target = (formal, casual) if to_casual else (casual, formal)
        sep = "，" if lang == "zh" else ", "
        end = "。" if lang == "zh" else "."
        return Case({"s": name + sep + source + end}, name + sep + target + end,
                    (name, source, to_casual), {"source": source, "target": target})
    return sample


def _sample_terms(rng, lang, split):
    (z1, e1), (z2, e2) = rng.sample(TERMS, 2)
    return Case({"t": z1 + "和" + z2}, e1 + " and " + e2, (z1, z2), {"pair": (z1, z2)})


CASUAL_FRAMES = {
    "zh": ("口语化：{s}", "说得随意一点：{s}", "用口语讲这句：{s}"),
    "en": ("casual rewrite: {s}", "say this casually: {s}", "informal wording of: {s}"),
}

CASUAL = Task("rte-f/casual", "rte-f", with_composed(CASUAL_FRAMES, {
    "zh": (Phrasing("改成口语：{s}"), Phrasing("用随意的语气说：{s}"),
           Phrasing("换成朋友间的说法：{s}"),
           Phrasing("请把下面这句改得口语化一些：{s}"), Phrasing("问：{s}用大白话怎么讲？"),
           Phrasing("{s}换个随便点的说法。"), Phrasing("这句太正式了，说得随意些：{s}"),
           Phrasing("把这句话说得轻松点：{s}", heldout=True),
           Phrasing("跟熟人聊天时，这句会怎么说？{s}", heldout=True)),
    "en": (Phrasing("Make it casual: {s}"), Phrasing("Say it informally: {s}"),
           Phrasing("Casual version: {s}"),
           Phrasing("Rewrite this the way friends talk: {s}"),
           Phrasing("Q: {s} How would a friend say that?"),
           Phrasing("{s} Now say it casually."), Phrasing("Drop the formality: {s}"),
           Phrasing("Rewrite in a relaxed tone: {s}", heldout=True),
           Phrasing("How might you text this to a buddy? {s}", heldout=True)),
}), _register_sampler(True), pooled=True)

FORMAL_FRAMES = {
    "zh": ("书面化：{s}", "说得正式一点：{s}", "用书面语讲这句：{s}"),
    "en": ("formal rewrite: {s}", "say this formally: {s}", "formal wording of: {s}"),
}

FORMAL = Task("rte-f/formal", "rte-f", with_composed(FORMAL_FRAMES, {
    "zh": (Phrasing("改成正式书面语：{s}"), Phrasing("用礼貌正式的语气说：{s}"),
           Phrasing("换成公文的说法：{s}"),
           Phrasing("请把这句改成正式的说法：{s}"), Phrasing("{s}用书面语怎么表达？"),
           Phrasing("问：{s}换成客气正式的讲法是？"), Phrasing("写正式邮件时，这句该怎么写：{s}"),
           Phrasing("把这句话改得正式些：{s}", heldout=True),
           Phrasing("当着领导的面，这话得怎么讲？{s}", heldout=True)),
    "en": (Phrasing("Make it formal: {s}"), Phrasing("Say it politely and formally: {s}"),
           Phrasing("Formal version: {s}"),
           Phrasing("Rewrite this in formal English: {s}"),
           Phrasing("{s} How would you put that formally?"),
           Phrasing("Q: {s} Formal wording?"), Phrasing("Turn this into business language: {s}"),
           Phrasing("Rewrite in a formal tone: {s}", heldout=True),
           Phrasing("How would this read in an official letter? {s}", heldout=True)),
}), _register_sampler(False), pooled=True)

TERM_FRAMES = {
    "zh": ("{t}的英文术语？", "英文术语：{t}", "{t}英文叫什么？"),
    "en": ("{t}: English terms?", "{t} in English, please.", "how do you say {t} in English?"),
}

TERM = Task("rte-f/term", "rte-f", with_composed(TERM_FRAMES, {
    "zh": (Phrasing("术语英译：{t}"), Phrasing("“{t}”的英文术语是？"),
           Phrasing("{t}用英文怎么说？"),
           Phrasing("请把{t}译成英文术语。"), Phrasing("问：{t}的英文分别是什么？"),
           Phrasing("{t}，英文术语各是什么？"), Phrasing("给出{t}对应的英文术语"),
           Phrasing("把{t}翻译成英文术语", heldout=True),
           Phrasing("英文文档里，{t}该写作什么？", heldout=True)),
    "en": (Phrasing("Translate the terms: {t}"), Phrasing("English for {t}?"),
           Phrasing("Terms in English: {t}"),
           Phrasing("What are {t} called in English?"), Phrasing("Q: {t} in English?"),
           Phrasing("Translate {t} into English terms."),
           Phrasing("Render these Chinese terms in English: {t}"),
           Phrasing("Give the English terms for {t}.", heldout=True),
           Phrasing("Which English words mean {t}?", heldout=True)),
}), _sample_terms)

TASKS = (CASUAL, FORMAL, TERM)
