"""What every task family shares: phrasings, cases, tasks, and split assignment.

An item's split is decided by its values alone, so the same values never land in two splits:
either its key (the tuple of drawn values) hashes to the split (SHA-256, 80/10/10), or, for
tasks marked `pooled`, it names someone or something from a pool partitioned the same way, so
a test name never occurs in training at all.
"""
import hashlib
from functools import lru_cache
from dataclasses import dataclass
from typing import Callable

SPLITS = ("train", "dev", "test")
LANGS = ("zh", "en")


@dataclass(frozen=True)
class Phrasing:
    """A prompt template; held-out phrasings are used only in the test split."""
    text: str
    heldout: bool = False


@dataclass(frozen=True)
class Case:
    """One drawn instance of a task: template fields, the single answer, and its value key."""
    fields: dict
    answer: str
    key: tuple
    meta: dict


@dataclass(frozen=True)
class Task:
    """A task family of one subsystem: phrasings per language and a case sampler."""
    name: str
    subsystem: str
    phrasings: dict          # lang -> tuple of Phrasing
    sample: Callable         # (rng, lang, split) -> Case
    pooled: bool = False     # draws a split-partitioned name pool, which decides the split


# Lead-ins shared by every family. Each family adds a few extra training frames, and every
# lead-in is composed with every one of them (docs/octet.md, "Task families"), so that
# neither a lead-in nor a single wording marks a task. English frames start lower-case.
LEAD_INS = {"zh": ("", "请问，", "说真的，", "麻烦你，", "再问一个："),
            "en": ("", "Ok, ", "Hey, ", "Please, ", "So, ")}


def with_composed(frames, phrasings):
    """A family's phrasings followed by a training phrasing per shared lead-in and frame."""
    def join(lead, frame):
        return lead + frame if lead or frame[0] == "{" else frame[0].upper() + frame[1:]
    return {lang: tuple(phrasings[lang]) + tuple(Phrasing(join(lead, frame))
                                              for lead in LEAD_INS[lang]
                                              for frame in frames[lang])
            for lang in phrasings}


def split_of(key) -> str:
    """The split a value key belongs to: 10 % test, 10 % dev, 80 % train."""
    digest = hashlib.sha256(repr(key).encode("utf-8")).digest()
    bucket = int.from_bytes(digest[:8], "big") % 10
    if bucket == 0:
        return "test"
    if bucket == 1:
        return "dev"
    return "train"


@lru_cache(maxsize=None)
def partition(words, split):
    """The part of a word pool (a tuple) reserved for one split (disjoint across splits)."""
    part = tuple(w for w in words if split_of(("pool", w)) == split)
    if not part:
        raise ValueError("empty pool part for split " + split)
    return part


def decimal_text(value) -> str:
    """A number written with the fewest digits: 3500, 3.4, -12 (never 3.40 or 3500.0)."""
    text = format(value, "f") if not isinstance(value, int) else str(value)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
