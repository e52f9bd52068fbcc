#!/usr/bin/env python3
"""Fails when a function grows past 100 lines (docs/coding-guidelines.md, "Functions").

Every function of engine/, app/ and ui/ as Universal Ctags spans it (its first line to its
closing brace; kernels/ and table-like data are out of scope). A function over the limit fails
unless tools/code/long_functions.txt lists it, and a listed one fails when it has grown past the
length listed or has come under the limit (take it off the list): the list only shrinks, one
function split by job at a time. Prints each finding as path:line: name (N lines) and exits 1;
exits 0 when there is none.

Usage: function_lengths.py [REPOSITORY_ROOT] [--list]   (--list prints every function over the limit)
"""
import json
import os
import subprocess
import sys

LIMIT = 100
FOLDERS = ["engine", "app", "ui"]


def functions(root):
    """(path, name, first line, lines) of every function ctags finds under FOLDERS."""
    out = subprocess.run(["ctags", "--output-format=json", "--fields=+ne", "--c++-kinds=f", "--languages=C++", "-R", "-f", "-",
                          *FOLDERS], cwd=root, check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") != "tag" or "end" not in tag:
            continue
        found.append((tag["path"], tag["name"], tag["line"], tag["end"] - tag["line"] + 1))
    return found


def allowed(path):
    """{(path, name): lines} from the list file: `path name lines` a line, # comments."""
    entries = {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            file, name, lines = line.split()
            entries[(file, name)] = int(lines)
    return entries


def findings(found, listed):
    """The problems: unlisted long functions, listed ones grown or no longer long."""
    problems = []
    longest = {}
    for path, name, first, lines in found:
        key = (path, name)
        if lines > LIMIT and lines > longest.get(key, (0, 0))[1]:
            longest[key] = (first, lines)
    for (path, name), (first, lines) in sorted(longest.items()):
        if (path, name) not in listed:
            problems.append(f"{path}:{first}: {name} ({lines} lines, over {LIMIT}): split it by job")
        elif lines > listed[(path, name)]:
            problems.append(f"{path}:{first}: {name} ({lines} lines) grew past the {listed[(path, name)]} listed")
    for (path, name), lines in sorted(listed.items()):
        if (path, name) not in longest:
            problems.append(f"{path}: {name} is listed ({lines} lines) but no longer over {LIMIT}: take it off the list")
    return problems


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    found = functions(root)
    if "--list" in argv:
        for path, name, first, lines in sorted(found, key=lambda f: -f[3]):
            if lines > LIMIT:
                print(f"{path} {name} {lines}")
        return 0
    problems = findings(found, allowed(os.path.join(root, "tools", "code", "long_functions.txt")))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
