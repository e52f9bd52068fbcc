"""Tests of the octet task generator (run: python3 -m unittest -q tools/octet/test_generate.py)."""
import collections
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import dataset  # noqa: E402
from tasks import SUBSYSTEMS, TASKS_BY_SUBSYSTEM, entities, formats, lexicon, safety, style  # noqa: E402
from tasks.common import LEAD_INS  # noqa: E402

COMMITTED_TEST = os.path.join(ROOT, "resources", "octet", "octet_test.jsonl")
TRAIN_SIZE = 16000
SPLIT_ITEMS = {}


def setUpModule():
    sizes = dict(dataset.DEFAULT_SIZES, train=TRAIN_SIZE)
    for split, size in sizes.items():
        SPLIT_ITEMS[split] = dataset.build_split(split, size, dataset.DEFAULT_SEED)


def all_items():
    return [item for items in SPLIT_ITEMS.values() for item in items]


def number_text(value):
    """Independent rendering of an exact rational as the generator documents it."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    for digits in range(1, 6):
        scaled = value * 10 ** digits
        if scaled.denominator == 1:
            sign = "-" if scaled < 0 else ""
            text = str(abs(scaled.numerator)).rjust(digits + 1, "0")
            return sign + text[:-digits] + "." + text[-digits:].rstrip("0")
    raise AssertionError("not a short decimal: %s" % value)


def numbers_in(prompt):
    return [Fraction(n) for n in re.findall(r"\d+(?:\.\d+)?", prompt)]


def truth(premises, query):
    """yes / no / unknown by enumerating the worlds of two atoms that satisfy the premises."""
    worlds = [(p, q) for p in (False, True) for q in (False, True)
              if all(rule(p, q) for rule in premises)]
    values = {query(p, q) for p, q in worlds}
    return True if values == {True} else False if values == {False} else None


def literal(name):
    """A premise or query from 'p', '!q', 'x', '!y' (first atom p/x, second q/y)."""
    first = name.lstrip("!") in ("p", "x")
    positive = not name.startswith("!")
    return lambda p, q: (p if first else q) == positive


QUANTIFIER_RULES = {"all": lambda p, q: (not p) or q, "no": lambda p, q: not (p and q),
                    "some": lambda p, q: True, "notall": lambda p, q: True}
YES_NO = {"zh": {True: "是", False: "否", None: "不确定"},
          "en": {True: "yes", False: "no", None: "unknown"}}


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


def run_snippet(code):
    out, scope = io.StringIO(), {}
    with contextlib.redirect_stdout(out):
        exec(code, scope)
    return out.getvalue().strip(), scope


class Determinism(unittest.TestCase):
    def test_cli_writes_same_bytes_twice_whatever_the_hash_seed(self):
        outputs = []
        for hash_seed in ("1", "2"):
            with tempfile.TemporaryDirectory() as out:
                env = dict(os.environ, PYTHONHASHSEED=hash_seed)
                subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--out", out,
                                "--seed", "3", "--train", "3000", "--dev", "400",
                                "--test", "800"], check=True, env=env, capture_output=True)
                outputs.append([read_bytes(os.path.join(out, s + ".jsonl"))
                                for s in ("train", "dev", "test")])
        self.assertEqual(outputs[0], outputs[1])
        self.assertTrue(all(outputs[0]))

    def test_committed_test_split_is_the_generator_output(self):
        items = dataset.build_split("test", dataset.DEFAULT_SIZES["test"], dataset.DEFAULT_SEED)
        expected = "".join(item.to_json() + "\n" for item in items).encode("utf-8")
        self.assertEqual(read_bytes(COMMITTED_TEST), expected)

    def test_committed_file_is_the_only_task_jsonl_under_resources(self):
        found = []
        for folder, _, files in os.walk(os.path.join(ROOT, "resources")):
            for name in files:
                if not name.endswith(".jsonl"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    first = handle.readline()
                try:
                    record = json.loads(first)
                except ValueError:
                    continue
                if isinstance(record, dict) and set(dataset.FIELDS) <= set(record):
                    found.append(os.path.realpath(path))
        self.assertEqual(found, [os.path.realpath(COMMITTED_TEST)])


class WellFormed(unittest.TestCase):
    def test_fields_types_and_values(self):
        for item in all_items():
            record = json.loads(item.to_json())
            self.assertEqual(tuple(record), dataset.FIELDS)
            self.assertIn(record["subsystem"], SUBSYSTEMS)
            self.assertIn(record["lang"], ("zh", "en"))
            self.assertIsInstance(record["heldout_phrasing"], bool)
            self.assertTrue(record["prompt"].strip() and record["answer"].strip())
            self.assertEqual(record["answer"], record["answer"].strip())

    def test_prompts_carry_no_task_tag(self):
        for item in all_items():
            self.assertNotRegex(item.prompt, r"rte-|subsystem|\[[a-h]\]")

    def test_template_language_matches_lang(self):
        cjk = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
        for subsystem, tasks in TASKS_BY_SUBSYSTEM.items():
            for task in tasks:
                for phrasing in task.phrasings["zh"]:
                    self.assertRegex(phrasing.text, cjk, task.name)
                for phrasing in task.phrasings["en"]:
                    self.assertNotRegex(phrasing.text, cjk, task.name)

    def test_items_are_short(self):
        items = all_items()
        self.assertLessEqual(max(len(i.prompt) for i in items), 100)
        self.assertLessEqual(max(len(i.answer) for i in items), 48)
        self.assertLessEqual(sum(len(i.prompt) for i in items) / len(items), 60)

    def test_dev_and_test_prompts_are_unique(self):
        for split in ("dev", "test"):
            prompts = [i.prompt for i in SPLIT_ITEMS[split]]
            self.assertEqual(len(prompts), len(set(prompts)), split)


class AnswersVerify(unittest.TestCase):
    def items_of(self, subsystem):
        return [i for i in all_items() if i.subsystem == subsystem]

    def test_rte_a_gazetteer(self):
        for item in self.items_of("rte-a"):
            alias, canonical = item.meta["alias"], item.answer
            self.assertIn(alias, item.prompt)
            if alias in entities.GAZETTEER[canonical]:
                continue
            squash = lambda s: re.sub(r"[\s.]", "", s).lower()  # noqa: E731
            self.assertEqual(squash(alias), squash(canonical), item.prompt)

    def test_rte_b_answer_is_the_stated_fact(self):
        for item in self.items_of("rte-b"):
            subject, relation = item.meta["asked"]
            objects = [o for s, r, o in item.meta["facts"] if (s, r) == (subject, relation)]
            self.assertEqual(objects, [item.answer], item.prompt)
            for fact in item.meta["facts"]:
                self.assertIn(fact[0], item.prompt)
                self.assertIn(fact[2], item.prompt)

    def test_rte_c_recomputed_from_prompt_values(self):
        for item in self.items_of("rte-c"):
            meta, found = item.meta, numbers_in(item.prompt)
            kind = meta["kind"]
            if kind == "arith":
                a, b = Fraction(meta["a"]), Fraction(meta["b"])
                self.assertEqual(found, [a, b], item.prompt)
                expected = {"+": a + b, "-": a - b, "*": a * b}[meta["op"]]
                self.assertEqual(item.answer, number_text(expected))
            elif kind == "percent":
                self.assertEqual(sorted(found), sorted([meta["p"], meta["n"]]), item.prompt)
                self.assertEqual(item.answer, number_text(Fraction(meta["p"] * meta["n"], 100)))
            elif kind == "growth":
                old, new = found
                self.assertEqual((old, new), (meta["old"], meta["new"]))
                self.assertEqual(item.answer, number_text((new - old) / old * 100) + "%")
            else:
                value = found[0]
                self.assertEqual(value, Fraction(meta["value"]), item.prompt)
                scale = meta["factor"] if meta["to_small"] else Fraction(1, meta["factor"])
                self.assertEqual(item.answer, number_text(value * scale), item.prompt)

    def test_rte_d_truth_tables(self):
        for item in self.items_of("rte-d"):
            meta = item.meta
            if meta["form"] == "negation":
                expected = meta["negations"] % 2 == 0
            elif meta["form"] == "conditional":
                implication = lambda p, q: (not p) or q  # noqa: E731
                expected = truth([implication, literal(meta["stated"])], literal(meta["asked"]))
            else:
                expected = truth([QUANTIFIER_RULES[meta["quant"]], literal(meta["stated"])],
                                 literal(meta["asked"]))
            self.assertEqual(item.answer, YES_NO[item.lang][expected], item.prompt)

    def test_rte_e_snippets_run(self):
        for item in self.items_of("rte-e"):
            code = item.meta["code"]
            self.assertIn(code, item.prompt)
            printed, scope = run_snippet(code)
            if item.task == "rte-e/defined":
                self.assertNotIn(item.answer, scope)
                self.assertIn(item.answer, scope["f"].__code__.co_varnames)
                self.assertIn(item.meta["top"], scope)
            else:
                self.assertEqual(item.answer, printed, code)

    def test_rte_f_tables(self):
        register = {"zh": dict(style.ZH_REGISTER), "en": dict(style.EN_REGISTER)}
        terms = dict(style.TERMS)
        for item in self.items_of("rte-f"):
            if item.task == "rte-f/term":
                z1, z2 = item.meta["pair"]
                self.assertIn(z1 + "和" + z2, item.prompt)
                self.assertEqual(item.answer, terms[z1] + " and " + terms[z2])
                continue
            source, target = item.meta["source"], item.meta["target"]
            formal_to_casual = register[item.lang]
            if item.task == "rte-f/casual":
                self.assertEqual(formal_to_casual[source], target)
            else:
                self.assertEqual(formal_to_casual[target], source)
            self.assertIn(source, item.prompt)
            self.assertTrue(item.answer.endswith(target + ("。" if item.lang == "zh" else ".")))

    def test_rte_g_parses_back(self):
        for item in self.items_of("rte-g"):
            pairs = item.meta.get("pairs", ())
            for key, value in pairs:
                self.assertIn(f"{key}={value}", item.prompt)
            if item.task == "rte-g/validate":
                try:
                    json.loads(item.meta["text"])
                    valid = True
                except ValueError:
                    valid = False
                self.assertIn(item.meta["text"], item.prompt)
                self.assertEqual(item.answer, formats.VERDICT[item.lang][valid])
            elif item.task == "rte-g/json":
                parsed = json.loads(item.answer)
                self.assertEqual(list(parsed.items()), list(pairs))
                self.assertNotIn(" ", item.answer.replace(" and ", ""))
            else:
                header, rule, row = item.answer.split("\n")
                cells = lambda line: line.strip("|").split("|")  # noqa: E731
                self.assertEqual(cells(header), [k for k, _ in pairs])
                self.assertEqual(cells(rule), ["---"] * len(pairs))
                self.assertEqual(cells(row), [str(v) for _, v in pairs])

    def test_rte_h_fixed_notice(self):
        for item in self.items_of("rte-h"):
            self.assertEqual(item.answer, safety.NOTICE[item.lang])
            self.assertIn(item.meta["act"].format(t=item.meta["target"]), item.prompt)
        notices = set(safety.NOTICE.values())
        for item in all_items():
            if item.subsystem != "rte-h":
                self.assertNotIn(item.answer, notices)

    def test_benign_look_alikes_exist(self):
        words = ("刀", "药", "钱包", "密码", "病毒", "邮箱", "knife", "pills", "wallet", "password")
        train = SPLIT_ITEMS["train"]
        for word in words:
            unsafe = any(word in i.prompt for i in train if i.subsystem == "rte-h")
            benign = any(word in i.prompt for i in train if i.subsystem != "rte-h")
            self.assertTrue(unsafe and benign, word)


class Splits(unittest.TestCase):
    def test_every_task_has_training_and_heldout_phrasings(self):
        for tasks in TASKS_BY_SUBSYSTEM.values():
            for task in tasks:
                for lang in ("zh", "en"):
                    flags = [p.heldout for p in task.phrasings[lang]]
                    self.assertIn(True, flags, task.name)
                    self.assertIn(False, flags, task.name)

    def test_heldout_phrasings_only_in_test(self):
        heldout = {p.text for tasks in TASKS_BY_SUBSYSTEM.values() for t in tasks
                   for ps in t.phrasings.values() for p in ps if p.heldout}
        for split in ("train", "dev"):
            for item in SPLIT_ITEMS[split]:
                self.assertFalse(item.heldout_phrasing)
                self.assertNotIn(item.phrasing, heldout)
        for item in SPLIT_ITEMS["test"]:
            self.assertEqual(item.heldout_phrasing, item.phrasing in heldout)

    def test_values_disjoint_across_splits(self):
        keys = {s: {i.key for i in items} for s, items in SPLIT_ITEMS.items()}
        prompts = {s: {i.prompt for i in items} for s, items in SPLIT_ITEMS.items()}
        for a, b in (("train", "test"), ("train", "dev"), ("dev", "test")):
            self.assertFalse(keys[a] & keys[b], (a, b))
            self.assertFalse(prompts[a] & prompts[b], (a, b))

    def test_name_pools_disjoint_across_splits(self):
        for pool in (lexicon.people, lexicon.nonsense):
            for lang in ("zh", "en"):
                parts = [set(pool(lang, s)) for s in ("train", "dev", "test")]
                self.assertFalse(parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2])

    def test_test_and_dev_balanced(self):
        for split in ("dev", "test"):
            items = SPLIT_ITEMS[split]
            per = collections.Counter((i.subsystem, i.lang) for i in items)
            self.assertEqual(set(per.values()), {len(items) // 16}, split)
        heldout = collections.Counter((i.subsystem, i.lang) for i in SPLIT_ITEMS["test"]
                                      if i.heldout_phrasing)
        self.assertEqual(set(heldout.values()), {len(SPLIT_ITEMS["test"]) // 48})

    def test_train_follows_weights(self):
        per = collections.Counter(i.subsystem for i in SPLIT_ITEMS["train"])
        self.assertEqual(dict(per), dataset.allocate(TRAIN_SIZE, dataset.TRAIN_WEIGHTS))
        langs = collections.Counter(i.lang for i in SPLIT_ITEMS["train"])
        self.assertLessEqual(abs(langs["zh"] - langs["en"]), len(SUBSYSTEMS))


class ComposedPhrasings(unittest.TestCase):
    """The shared lead-ins are composed with every family's extra frames, so no lead-in marks a
    task: each opens a similar share of every subsystem's training items."""

    def test_every_lead_in_opens_a_similar_share_of_each_subsystem(self):
        prompts = collections.defaultdict(list)
        for item in SPLIT_ITEMS["train"]:
            prompts[item.subsystem, item.lang].append(item.prompt)
        for lang, leads in LEAD_INS.items():
            for lead in (l for l in leads if l):
                shares = [sum(p.startswith(lead) for p in prompts[s, lang]) / len(prompts[s, lang])
                          for s in SUBSYSTEMS]
                self.assertGreater(min(shares), 0.08, (lang, lead, shares))
                self.assertLess(max(shares), 2 * min(shares), (lang, lead, shares))

    def test_lead_ins_only_in_training_phrasings(self):
        for tasks in TASKS_BY_SUBSYSTEM.values():
            for task in tasks:
                for lang, phrasings in task.phrasings.items():
                    texts = [p.text for p in phrasings]
                    self.assertEqual(len(texts), len(set(texts)), task.name)
                    for p in phrasings:
                        if p.heldout:
                            self.assertFalse(any(l and p.text.startswith(l) for l in LEAD_INS[lang]),
                                             p.text)


if __name__ == "__main__":
    unittest.main()
