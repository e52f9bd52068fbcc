#!/usr/bin/env python3
"""Writes the octet task splits as JSONL: train.jsonl, dev.jsonl, test.jsonl.

  python3 tools/octet/generate.py --out DIR [--seed S] [--train N] [--dev N] [--test N]

The same seed and sizes give the same bytes on every run and machine (docs/octet.md).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dataset import DEFAULT_SEED, DEFAULT_SIZES, build_split, write_split  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    for split, size in DEFAULT_SIZES.items():
        parser.add_argument("--" + split, type=int, default=size,
                            help=f"items in {split}.jsonl (default {size})")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for split in DEFAULT_SIZES:
        items = build_split(split, getattr(args, split), args.seed)
        write_split(items, os.path.join(args.out, split + ".jsonl"))
        print(f"{split}: {len(items)} items", file=sys.stderr)


if __name__ == "__main__":
    main()
