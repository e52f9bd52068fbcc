#!/usr/bin/env python3
"""Chooses the router's stage-2 weight by 5-fold cross-validation on the TRAIN split only:
for each candidate weight, fit the centroids on four folds with `octoscope-cli eval-router
--train`, measure two-stage accuracy on the fifth, and print the mean. The smallest weight with
the best mean is the one in engine/router/router.h (docs/router.md, "Tuning").

  python3 tools/router_probes/tune_stage2.py [--cli build/bin/octoscope-cli]
"""
import argparse
import json
import os
import random
import subprocess
import tempfile

WEIGHTS = [0.0, 0.1, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="build/bin/octoscope-cli")
    ap.add_argument("--train", default="resources/probes/probes_train.jsonl")
    args = ap.parse_args()
    with open(args.train, encoding="utf-8") as f:
        lines = f.read().splitlines()
    random.Random(3).shuffle(lines)
    folds = [lines[i::5] for i in range(5)]
    with tempfile.TemporaryDirectory() as tmp:
        fit, held = os.path.join(tmp, "fit.jsonl"), os.path.join(tmp, "held.jsonl")
        for w in WEIGHTS:
            accuracies = []
            for i in range(5):
                with open(fit, "w", encoding="utf-8") as f:
                    f.write("\n".join(l for j, fold in enumerate(folds) if j != i for l in fold) + "\n")
                with open(held, "w", encoding="utf-8") as f:
                    f.write("\n".join(folds[i]) + "\n")
                out = subprocess.run([args.cli, "eval-router", "--data", held, "--train", fit, "--stage2-weight", str(w),
                                      "--json"], check=True, capture_output=True, text=True).stdout
                accuracies.append(json.loads(out)["accuracy"])
            print("stage-2 weight %-5s cross-validated accuracy %.4f" % (w, sum(accuracies) / len(accuracies)))


if __name__ == "__main__":
    main()
