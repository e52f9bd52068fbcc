#!/usr/bin/env python3
"""Fails when a value type's header reaches more of the project than it was allowed
(docs/coding-guidelines.md, "Headers").

A header that describes values (a run's spec, its trace, a token's metrics, the host's events)
is included by the views, the CLI and the tests; every project header it reaches, directly or
through others, is compiled and rebuilt with each of them. tools/code/light_headers.txt lists
those headers with the most project headers each may reach and whether it may reach
nlohmann/json.hpp (the full JSON library; json_fwd.hpp is fine). A listed header fails when it
reaches more, or the JSON library without leave; a header missing from the tree fails too.

Usage: header_weight.py [REPOSITORY_ROOT] [--show HEADER]   (--show prints what HEADER reaches)
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)
JSON = "nlohmann/json.hpp"


def direct_includes(root, header):
    """The project headers and the library headers `header` includes itself."""
    with open(os.path.join(root, header), encoding="utf-8") as f:
        text = f.read()
    project, library = [], []
    for kind, name in INCLUDE.findall(text):
        if kind == '"' and os.path.exists(os.path.join(root, name)):
            project.append(name)
        else:
            library.append(name)
    return project, library


def reach(root, header):
    """(every project header `header` reaches, not itself; every library header among them)."""
    seen, libraries, todo = set(), set(), [header]
    while todo:
        current = todo.pop()
        project, library = direct_includes(root, current)
        libraries.update(library)
        for name in project:
            if name not in seen and name != header:
                seen.add(name)
                todo.append(name)
    return seen, libraries


def budgets(path):
    """[(header, most project headers, json allowed)] from the list: `header N [json]` a line."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].split()
            if not line:
                continue
            entries.append((line[0], int(line[1]), len(line) > 2 and line[2] == "json"))
    return entries


def findings(root, entries):
    problems = []
    for header, most, json_allowed in entries:
        if not os.path.exists(os.path.join(root, header)):
            problems.append(f"{header}: listed in light_headers.txt but not in the tree")
            continue
        headers, libraries = reach(root, header)
        if len(headers) > most:
            problems.append(f"{header}: reaches {len(headers)} project headers, {most} allowed "
                            f"(header_weight.py --show {header})")
        if JSON in libraries and not json_allowed:
            problems.append(f"{header}: reaches {JSON}; a value type needs at most nlohmann/json_fwd.hpp")
    return problems


def main(argv):
    args = list(argv[1:])
    header = None
    if "--show" in args:
        at = args.index("--show")
        header = args[at + 1]
        del args[at:at + 2]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    if header:
        headers, libraries = reach(root, header)
        for name in sorted(headers):
            print(name)
        print(f"{len(headers)} project headers; {JSON if JSON in libraries else 'no full JSON library'}")
        return 0
    problems = findings(root, budgets(os.path.join(root, "tools", "code", "light_headers.txt")))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
