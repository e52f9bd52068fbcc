"""Tests of the router probe generator (run: python3 -m unittest -q tools/router_probes/test_generate.py)."""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import generate  # noqa: E402
import score_rules  # noqa: E402

PROBES = os.path.join(ROOT, "resources", "probes")
MIN_PER_LABEL = {"train": 60, "dev": 30}
SPLITS = {}


def setUpModule():
    for split in generate.SPLITS:
        SPLITS[split] = generate.build_split(split)


def committed(split):
    with open(os.path.join(PROBES, generate.FILES[split]), "rb") as f:
        return f.read()


def literal_grams(template_frame, lang):
    """Word 4-grams (en) or character 5-grams (zh) of a template's fixed text."""
    grams = set()
    for segment in template_frame.split("\u25a1"):
        if lang == "en":
            words = re.findall(r"[a-z0-9'-]+", segment.lower())
            grams |= {tuple(words[i:i + 4]) for i in range(len(words) - 3)}
        else:
            segment = re.sub(r"\s+", "", segment)
            grams |= {segment[i:i + 5] for i in range(len(segment) - 4)}
    return grams


class ProbeFiles(unittest.TestCase):
    def test_committed_files_are_the_generator_output(self):
        for split, records in SPLITS.items():
            self.assertEqual(committed(split), generate.to_jsonl(records).encode("utf-8"),
                             "%s is stale: run python3 tools/router_probes/generate.py" % split)

    def test_deterministic_across_runs(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            for out in (a, b):
                subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--out", out], check=True,
                               stderr=subprocess.DEVNULL, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
                                                                   PYTHONHASHSEED="random"))
            for name in generate.FILES.values():
                with open(os.path.join(a, name), "rb") as fa, open(os.path.join(b, name), "rb") as fb:
                    self.assertEqual(fa.read(), fb.read(), name)
        for split in generate.SPLITS:
            self.assertEqual(generate.build_split(split), SPLITS[split])

    def test_encoding_and_line_format(self):
        for split in generate.SPLITS:
            data = committed(split)
            self.assertNotIn(b"\r", data)
            self.assertTrue(data.endswith(b"\n"))
            for line in data.decode("utf-8").split("\n")[:-1]:
                record = json.loads(line)
                self.assertEqual(line, json.dumps(record, ensure_ascii=False))  # non-ASCII unescaped
                self.assertEqual(list(record), ["text", "lang", "label"])

    def test_fields_and_values(self):
        for split, records in SPLITS.items():
            for r in records:
                self.assertEqual(set(r), {"text", "lang", "label", "template"})  # template: not written out
                self.assertIn(r["lang"], ("zh", "en"))
                self.assertIn(r["label"], generate.LABELS)
                self.assertTrue(r["text"].strip())
                self.assertNotRegex(r["text"], "[⟦⟧]", "unfilled slot")
                han = len(re.findall("[\u4e00-\u9fff]", r["text"]))
                if r["lang"] == "zh":
                    self.assertGreater(han, 0, r["text"])

    def test_counts_per_label_and_language(self):
        for split, records in SPLITS.items():
            per_label = collections.Counter(r["label"] for r in records)
            per_pair = collections.Counter((r["label"], r["lang"]) for r in records)
            self.assertEqual(set(per_label), set(generate.LABELS))
            for label in generate.LABELS:
                self.assertGreaterEqual(per_label[label], MIN_PER_LABEL[split], (split, label))
                zh, en = per_pair[(label, "zh")], per_pair[(label, "en")]
                self.assertLessEqual(abs(zh - en), 0.1 * (zh + en), (split, label, zh, en))

    def test_no_duplicates_and_no_text_in_both_splits(self):
        texts = {split: [r["text"] for r in records] for split, records in SPLITS.items()}
        for split, items in texts.items():
            self.assertEqual(len(items), len(set(items)), split)
        self.assertFalse(set(texts["train"]) & set(texts["dev"]))

    def test_lengths_vary(self):
        for split, records in SPLITS.items():
            lengths = sorted(len(r["text"]) for r in records)
            self.assertLess(lengths[0], 20, split)
            self.assertGreater(lengths[-1], 150, split)

    def test_no_dev_template_in_train(self):
        for label in generate.LABELS:
            for lang in generate.LANGS:
                train = generate.TEMPLATES["train"][label][lang]
                dev = generate.TEMPLATES["dev"][label][lang]
                self.assertFalse(set(train) & set(dev), (label, lang))
        train_frames = {generate.frame(t) for by_lang in generate.TRAIN.values() for ts in by_lang.values() for t in ts}
        dev_frames = {generate.frame(t) for by_lang in generate.DEV.values() for ts in by_lang.values() for t in ts}
        self.assertFalse(train_frames & dev_frames)
        # Different sentence frames: a dev template shares at most a third of its fixed n-grams with train.
        for lang in generate.LANGS:
            train_grams = set()
            for by_lang in generate.TRAIN.values():
                for t in by_lang[lang]:
                    train_grams |= literal_grams(generate.frame(t), lang)
            for by_lang in generate.DEV.values():
                for t in by_lang[lang]:
                    grams = literal_grams(generate.frame(t), lang)
                    if grams:
                        self.assertLess(len(grams & train_grams) / len(grams), 1 / 3, t)

    def test_word_lists_do_not_overlap(self):
        for lang in generate.LANGS:
            train, dev = generate.WORDS["train"][lang], generate.WORDS["dev"][lang]
            for name in set(train) & set(dev):
                self.assertFalse({repr(w) for w in train[name]} & {repr(w) for w in dev[name]}, (lang, name))

    def test_every_template_is_used_and_every_slot_resolves(self):
        for split in generate.SPLITS:
            for label, by_lang in generate.TEMPLATES[split].items():
                for lang, templates in by_lang.items():
                    for t in templates:
                        for name, _, key in generate.slots(t):
                            if name in generate.NUMBERS:
                                continue
                            words = generate.WORDS[split][lang][name]
                            self.assertTrue(words, name)
                            if key:
                                self.assertTrue(all(key in w for w in words), (name, key))
                            else:
                                self.assertTrue(all(isinstance(w, str) for w in words), name)


class RuleFile(unittest.TestCase):
    def test_rules_validate_and_route_train(self):
        rules = score_rules.load_rules(score_rules.DEFAULT_RULES)
        article = {f["id"] for fs in rules.values() for f in fs if f["source"] == "article"}
        self.assertEqual(article, {"rte-a.entities", "rte-a.proper_noun", "rte-c.digits", "rte-c.comparison",
                                   "rte-d.connectives", "rte-d.negations"})
        for label, features in rules.items():
            han = any("\\p{Han}" in p or re.search("[\u4e00-\u9fff]", p) for f in features for p in f["patterns"])
            latin = any(re.search("[a-z]{2}", p.replace("\\p{Han}", "")) for f in features for p in f["patterns"])
            self.assertTrue(han and latin, label + " needs patterns for both languages")
        path = os.path.join(PROBES, generate.FILES["train"])
        hits, totals, _ = score_rules.evaluate(rules, path)
        self.assertGreaterEqual(hits["all"] / totals["all"], 0.9)


if __name__ == "__main__":
    unittest.main()
