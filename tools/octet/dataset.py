"""Builds the train / dev / test splits from the task families, deterministically."""
import json
import random
from dataclasses import dataclass

from tasks import SUBSYSTEMS, TASKS_BY_SUBSYSTEM
from tasks.common import LANGS, SPLITS, split_of

DEFAULT_SEED = 8
DEFAULT_SIZES = {"train": 100000, "dev": 2400, "test": 2400}

# Train favours the families a tiny model finds hard; dev and test are balanced.
TRAIN_WEIGHTS = {"rte-a": 1.0, "rte-b": 2.0, "rte-c": 3.0, "rte-d": 1.5,
                 "rte-e": 3.0, "rte-f": 1.0, "rte-g": 2.0, "rte-h": 1.0}
FIELDS = ("prompt", "answer", "subsystem", "lang", "heldout_phrasing")


@dataclass(frozen=True)
class Item:
    """A generated item; key, task, phrasing and meta stay in memory for the tests."""
    prompt: str
    answer: str
    subsystem: str
    lang: str
    heldout_phrasing: bool
    task: str
    phrasing: str
    key: tuple
    meta: dict

    def to_json(self) -> str:
        record = {name: getattr(self, name) for name in FIELDS}
        return json.dumps(record, ensure_ascii=False)


def allocate(total, weights):
    """Splits total into integer counts proportional to weights (largest remainder)."""
    scale = total / sum(weights.values())
    counts = {k: int(w * scale) for k, w in weights.items()}
    by_remainder = sorted(weights, key=lambda k: (-(weights[k] * scale - counts[k]), k))
    for k in by_remainder[:total - sum(counts.values())]:
        counts[k] += 1
    return counts


def make_item(rng, subsystem, lang, split, heldout):
    """Draws one item whose values belong to the split, in a train or held-out phrasing."""
    task = rng.choice(TASKS_BY_SUBSYSTEM[subsystem])
    phrasings = [p for p in task.phrasings[lang] if p.heldout == heldout]
    phrasing = rng.choice(phrasings)
    while True:
        case = task.sample(rng, lang, split)
        key = (task.name, lang) + case.key
        if task.pooled or split_of(key) == split:
            break
    return Item(phrasing.text.format(**case.fields), case.answer, subsystem, lang, heldout,
                task.name, phrasing.text, key, case.meta)


def build_split(split, count, seed=DEFAULT_SEED):
    """All items of one split: independent of the other splits' sizes, shuffled, and for
    dev and test balanced per subsystem and language with unique prompts. One test item in
    three (per subsystem and language) uses a held-out phrasing."""
    rng = random.Random(seed * 10 + SPLITS.index(split))
    weights = TRAIN_WEIGHTS if split == "train" else {s: 1.0 for s in SUBSYSTEMS}
    items, seen = [], set()
    for subsystem, n in allocate(count, weights).items():
        for lang, n_lang in allocate(n, {l: 1.0 for l in LANGS}).items():
            for i in range(n_lang):
                heldout = split == "test" and i % 3 == 2
                item = make_item(rng, subsystem, lang, split, heldout)
                while split != "train" and item.prompt in seen:
                    item = make_item(rng, subsystem, lang, split, heldout)
                seen.add(item.prompt)
                items.append(item)
    rng.shuffle(items)
    return items


def write_split(items, path):
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for item in items:
            out.write(item.to_json() + "\n")
