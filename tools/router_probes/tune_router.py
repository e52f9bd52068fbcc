#!/usr/bin/env python3
"""Chooses the router's two weights by 5-fold cross-validation on the TRAIN split only: for each
candidate value, fit the centroids on four folds with `octoscope-cli eval-router --train`, measure
two-stage accuracy on the fifth, and print the mean. --param stage2 sweeps the stage-2 weight
(Router::kStage2Weight), --param concept the lexical embedding's concept weight
(LexicalEmbedding::kConceptWeight); the other stays at its default. The smallest value with the
best mean is the one in the engine (docs/router.md, "Tuning").

  python3 tools/router_probes/tune_router.py [--cli build/bin/octoscope-cli] [--folds template]
                                             [--param stage2|concept]

--folds random (the default) deals the prompts into folds at random, so every fold shares its
templates with the other four; --folds template deals out whole templates (fold = the template's
index within its subsystem and language, modulo 5), so the held-out fold's sentence frames are
unseen when fitting — as dev's are.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

WEIGHTS = {"stage2": [0.0, 0.1, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0],
           "concept": [0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0]}


def make_folds(mode):
    records = generate.build_split("train")
    if mode == "template":
        folds = [[r for r in records if r["template"] % 5 == i] for i in range(5)]
    else:
        random.Random(3).shuffle(records)
        folds = [records[i::5] for i in range(5)]
    return [generate.to_jsonl(fold) for fold in folds]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="build/bin/octoscope-cli")
    ap.add_argument("--folds", choices=("random", "template"), default="random")
    ap.add_argument("--param", choices=("stage2", "concept"), default="stage2")
    args = ap.parse_args()
    folds = make_folds(args.folds)
    with tempfile.TemporaryDirectory() as tmp:
        fit, held = os.path.join(tmp, "fit.jsonl"), os.path.join(tmp, "held.jsonl")
        for w in WEIGHTS[args.param]:
            accuracies = []
            for i in range(5):
                with open(fit, "w", encoding="utf-8") as f:
                    f.write("".join(fold for j, fold in enumerate(folds) if j != i))
                with open(held, "w", encoding="utf-8") as f:
                    f.write(folds[i])
                out = subprocess.run([args.cli, "eval-router", "--data", held, "--train", fit, "--%s-weight" % args.param, str(w),
                                      "--json"], check=True, capture_output=True, text=True).stdout
                accuracies.append(json.loads(out)["accuracy"])
            print("%s weight %-5s cross-validated accuracy %.4f" % (args.param, w, sum(accuracies) / len(accuracies)),
                  flush=True)


if __name__ == "__main__":
    main()
