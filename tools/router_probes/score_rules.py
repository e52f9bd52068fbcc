#!/usr/bin/env python3
"""Checks resources/rules/router_features.json and scores the probe set with stage 2 alone.

  python3 tools/router_probes/score_rules.py [--rules F] [--data F.jsonl ...] [--errors N]

An approximation of the engine's stage-2 rescoring using Python `re` instead of PCRE2: patterns
are compiled case-insensitively after translating \\p{Han} to [\\u4e00-\\u9fff]. A feature's value
is min(matches, cap) / cap for "count" (matches of all its patterns summed) and 1 / 0 for
"present"; a subsystem's score is the sum of weight x value. Stage 2 alone here means ranking all
eight subsystems (the engine ranks only stage 1's top 3); ties go to the earlier id, and a prompt
where every score is 0 counts as wrong. Prints top-1 accuracy per file, per label and language.
"""
import argparse
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_RULES = os.path.join(ROOT, "resources", "rules", "router_features.json")
DEFAULT_DATA = [os.path.join(ROOT, "resources", "probes", name)
                for name in ("probes_train.jsonl", "probes_dev.jsonl")]
LABELS = ("rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h")
FEATURE_KEYS = {"id", "description", "source", "weight", "measure", "cap", "patterns"}
HAN = "[\u4e00-\u9fff]"


class RuleError(ValueError):
    pass


def to_python(pattern):
    """Translates the PCRE2 pattern to Python `re` syntax (\\p{Han} only; not inside a class)."""
    in_class = False
    escaped = False
    out = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if escaped:
            escaped = False
        elif ch == "\\":
            if pattern.startswith("\\p{Han}", i):
                if in_class:
                    raise RuleError("\\p{Han} inside a character class is not translated: " + pattern)
                out.append(HAN)
                i += len("\\p{Han}")
                continue
            if pattern.startswith("\\p", i) or pattern.startswith("\\P", i):
                raise RuleError("unsupported property in " + pattern)
            escaped = True
        elif ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def load_rules(path):
    """Validates the rule file as strictly as the engine's loader; returns {label: [feature]}."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if set(doc) != {"version", "subsystems"} or doc["version"] != 1:
        raise RuleError("top level must be exactly {version: 1, subsystems}")
    if set(doc["subsystems"]) != set(LABELS):
        raise RuleError("subsystems must be exactly rte-a .. rte-h")
    seen = set()
    rules = {}
    for label in LABELS:
        entry = doc["subsystems"][label]
        if set(entry) != {"features"} or not entry["features"]:
            raise RuleError(label + ": needs a non-empty features list and nothing else")
        rules[label] = []
        for feature in entry["features"]:
            fid = feature.get("id", "")
            expected = FEATURE_KEYS - ({"cap"} if feature.get("measure") == "present" else set())
            if set(feature) != expected:
                raise RuleError("%s: keys %s, expected %s" % (fid, sorted(feature), sorted(expected)))
            if not re.fullmatch(re.escape(label) + r"\.[a-z0-9_]+", fid) or fid in seen:
                raise RuleError("bad or duplicate id: " + fid)
            seen.add(fid)
            desc = feature["description"]
            if set(desc) != {"en", "zh"} or not all(isinstance(v, str) and v for v in desc.values()):
                raise RuleError(fid + ": description needs en and zh")
            if feature["source"] not in ("article", "project"):
                raise RuleError(fid + ": source")
            weight = feature["weight"]
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight <= 0:
                raise RuleError(fid + ": weight must be > 0")
            if feature["measure"] == "count":
                cap = feature["cap"]
                if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
                    raise RuleError(fid + ": cap must be an integer >= 1")
            elif feature["measure"] != "present":
                raise RuleError(fid + ": measure")
            patterns = feature["patterns"]
            if not patterns or not all(isinstance(p, str) and p for p in patterns):
                raise RuleError(fid + ": patterns must be non-empty strings")
            compiled = []
            for p in patterns:
                try:
                    rx = re.compile(to_python(p), re.IGNORECASE)
                except re.error as e:
                    raise RuleError("%s: %s: %s" % (fid, p, e))
                if rx.match(""):
                    raise RuleError("%s: pattern matches the empty string: %s" % (fid, p))
                compiled.append(rx)
            rules[label].append(dict(feature, compiled=compiled))
    return rules


def feature_value(feature, text):
    count = sum(1 for rx in feature["compiled"] for _ in rx.finditer(text))
    if feature["measure"] == "present":
        return 1.0 if count else 0.0
    return min(count, feature["cap"]) / feature["cap"]


def scores(rules, text):
    return {label: sum(f["weight"] * feature_value(f, text) for f in rules[label]) for label in LABELS}


def predict(rules, text):
    s = scores(rules, text)
    best = max(LABELS, key=lambda label: (s[label], -LABELS.index(label)))
    return (best if s[best] > 0 else None), s


def evaluate(rules, path, errors=0):
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    hits = collections.Counter()
    totals = collections.Counter()
    confusion = collections.Counter()
    shown = 0
    for r in records:
        guess, s = predict(rules, r["text"])
        ok = guess == r["label"]
        for key in ("all", r["label"], r["lang"], (r["label"], r["lang"])):
            totals[key] += 1
            hits[key] += ok
        confusion[(r["label"], guess)] += 1
        if not ok and shown < errors:
            shown += 1
            top = sorted(s.items(), key=lambda kv: -kv[1])[:3]
            print("  %s -> %s %s | %s" % (r["label"], guess, " ".join("%s=%.2f" % kv for kv in top),
                                          r["text"].replace("\n", " ")[:110]))
    return hits, totals, confusion


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--data", nargs="+", default=DEFAULT_DATA)
    parser.add_argument("--errors", type=int, default=0, help="print up to N misrouted prompts per file")
    args = parser.parse_args(argv)
    rules = load_rules(args.rules)
    print("rules: %d features, all patterns compile" % sum(len(v) for v in rules.values()))
    for path in args.data:
        print(os.path.basename(path))
        hits, totals, confusion = evaluate(rules, path, args.errors)
        print("  stage-2 top-1 accuracy: %.1f%% (%d/%d); zh %.1f%%, en %.1f%%" % (
            100 * hits["all"] / totals["all"], hits["all"], totals["all"],
            100 * hits["zh"] / totals["zh"], 100 * hits["en"] / totals["en"]))
        print("  per label: " + ", ".join("%s %.0f%%" % (l, 100 * hits[l] / totals[l]) for l in LABELS if totals[l]))
        print("  confusion (label: predicted counts): ")
        for label in LABELS:
            row = {(g or "none"): n for (l, g), n in confusion.items() if l == label}
            print("    %s: %s" % (label, ", ".join("%s %d" % kv for kv in sorted(row.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
