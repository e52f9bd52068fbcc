"""Name pools shared by several task families (written for this project)."""
from .common import partition

ZH_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高"
ZH_GIVEN = ("伟", "芳", "娜", "敏", "静", "磊", "军", "洋", "勇", "艳", "杰", "涛",
            "明", "超", "霞", "平", "刚", "丽", "强", "华", "飞", "鑫", "婷", "宇")
ZH_PEOPLE = tuple(s + g for s in ZH_SURNAMES for g in ZH_GIVEN)

EN_PEOPLE = (
    "Tom", "Ann", "Bob", "Eve", "Sam", "Kim", "Joe", "Amy", "Ben", "Liz", "Max", "Zoe",
    "Dan", "Meg", "Ian", "Ivy", "Ken", "Kay", "Leo", "Mia", "Ned", "Nora", "Otto", "Pam",
    "Ray", "Rose", "Ted", "Tina", "Vic", "Vera", "Walt", "Wendy", "Abe", "Ada", "Carl",
    "Cara", "Dave", "Dora", "Ed", "Ella", "Fred", "Fay", "Gus", "Gwen", "Hal", "Hope",
    "Jack", "Jill", "Karl", "Lena", "Mark", "Mona", "Nick", "Nina", "Paul", "Pia", "Rob",
    "Ruth", "Seth", "Sara", "Tim", "Tess", "Will", "Jane", "Alan", "Beth", "Cole", "Dina",
    "Evan", "Gina", "Hugo", "Iris", "Jon", "Kate", "Luke", "Lucy", "Neil", "Opal", "Pete",
    "Rita", "Saul", "Tara", "Vince", "Yara", "Zack", "Owen", "Maya", "Emil", "Ava", "Noah",
)

ZH_CITIES = ("北京", "上海", "广州", "深圳", "杭州", "南京", "成都", "武汉", "西安", "重庆",
             "天津", "苏州", "长沙", "郑州", "青岛", "大连", "厦门", "昆明", "沈阳", "济南")
EN_CITIES = ("Paris", "Oslo", "Rome", "Lima", "Cairo", "Tokyo", "Berlin", "Madrid", "Dublin",
             "Vienna", "Prague", "Lisbon", "Athens", "Warsaw", "Seoul", "Delhi", "Quito",
             "Bern", "Riga", "Kyiv")

# Invented words for syllogisms, so the answer can only come from the stated premises.
_ONSETS = "bdfgklmnprstvwz"
_VOWELS = "aeiou"
_CODAS = "bdgkmnpt"
EN_NONSENSE = tuple(o + v + c for o in _ONSETS for v in _VOWELS for c in _CODAS)
_ZH_SYLLABLES = "布拉奇莫多咕叽哒噜嘀呱啵咪嗒喵哞"
ZH_NONSENSE = tuple(a + b for a in _ZH_SYLLABLES for b in _ZH_SYLLABLES if a != b)


def people(lang, split):
    """Person names reserved for a split."""
    return partition(ZH_PEOPLE if lang == "zh" else EN_PEOPLE, split)


def nonsense(lang, split):
    """Invented category words reserved for a split."""
    return partition(ZH_NONSENSE if lang == "zh" else EN_NONSENSE, split)
