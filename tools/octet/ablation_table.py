#!/usr/bin/env python3
"""Runs `octoscope-cli eval` on the test split with nothing disabled and with each subsystem
disabled in turn, and prints the Markdown tables of docs/octet.md (accuracy per subsystem, the
8 x 8 ablation matrix, the router's per-token accuracy). Standard library only.

  python3 tools/octet/ablation_table.py [--cli build/bin/octoscope-cli] [--model M]
        [--data resources/octet/octet_test.jsonl] [--jobs 2]
"""
import argparse
import concurrent.futures
import json
import subprocess
import sys

IDS = ["rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h"]


def run_eval(cli, model, data, disabled):
    cmd = [cli, "eval", "--data", data, "--json", "--threads", "1"]
    if model:
        cmd += ["--model", model]
    if disabled:
        cmd += ["--disable", disabled]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return disabled, json.loads(out)


def pct(x):
    return "%.1f" % (100.0 * x)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="build/bin/octoscope-cli")
    ap.add_argument("--model", default="")
    ap.add_argument("--data", default="resources/octet/octet_test.jsonl")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    runs = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_eval, args.cli, args.model, args.data, d) for d in [""] + IDS]
        for f in futures:
            disabled, result = f.result()
            runs[disabled] = result
    base = runs[""]
    print("Accuracy with nothing disabled (exact match, %d items): overall %s%%\n" % (base["n"], pct(base["overall"])))
    print("| subsystem | items | accuracy % |")
    print("|---|---|---|")
    for s in IDS:
        print("| %s | %d | %s |" % (s, base["n_per_subsystem"][s], pct(base["per_subsystem"][s])))
    print("\nAblation matrix: row = subsystem disabled (zero ablation of its 16 heads), column = "
          "accuracy % on that subsystem's items; last column = mean of the other seven minus "
          "their mean with nothing disabled (points).\n")
    print("| disabled | " + " | ".join(IDS) + " | others Δ |")
    print("|---" * (len(IDS) + 2) + "|")
    for k in IDS:
        r = runs[k]
        others = [s for s in IDS if s != k]
        delta = sum(r["per_subsystem"][s] - base["per_subsystem"][s] for s in others) / len(others)
        cells = []
        for s in IDS:
            cell = pct(r["per_subsystem"][s])
            cells.append("**%s**" % cell if s == k else cell)
        print("| %s | %s | %+.1f |" % (k, " | ".join(cells), 100.0 * delta))
    router = base.get("router")
    if router:
        print("\nRouter (teacher-forced, top layer-mean gate = the item's subsystem): %s%% of %d answer "
              "tokens on held-out phrasings; %s%% of %d on all items." % (
                  pct(router["heldout_accuracy"]), router["heldout_answer_tokens"],
                  pct(router["accuracy"]), router["answer_tokens"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
