#!/usr/bin/env python3
"""Fails when an engine source's test cannot be found from its name (docs/coding-guidelines.md,
"Tests").

The test of engine/x/y.cpp is tests/engine/x/test_y.cpp. Where one test file tests several
sources together (the chat formats through one template test, the ISA kernels through one matrix
product test, the server end to end through the CLI), the others are named on a `// Covers:` line
in that file's opening comment: a bare file name is in the test's own folder (tests/engine/x/ for
engine/x/), a path with a slash is from the repository root (engine/serve/openai_server.cpp). A
newcomer looks for test_y.cpp, then greps tests/ for y.cpp. The CLI's commands are held to the
same rule: the test of app/cli/cmd_x.cpp is tests/cli/test_cli_x.cpp, or names it on a Covers
line. A source with neither fails, and so does a `Covers:` entry that names no source (renamed or
deleted).

Usage: test_names.py [REPOSITORY_ROOT] [--list]   (--list prints each source and its test)
"""
import os
import re
import sys

COVERS = re.compile(r"^//\s*Covers:\s*(.*)$")


def sources(root):
    """Every engine/**/*.cpp and app/cli/cmd_*.cpp, relative to root."""
    found = []
    for folder, _, files in os.walk(os.path.join(root, "engine")):
        for name in files:
            if name.endswith(".cpp"):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    cli = os.path.join(root, "app", "cli")
    if os.path.isdir(cli):
        found += [os.path.join("app", "cli", n) for n in os.listdir(cli) if n.startswith("cmd_") and n.endswith(".cpp")]
    return sorted(found)


def own_test(src):
    """Where the test named after `src` is: tests/engine/x/test_y.cpp, tests/cli/test_cli_x.cpp."""
    folder, name = os.path.split(src)
    if folder == os.path.join("app", "cli"):
        return os.path.join("tests", "cli", "test_cli_" + name[len("cmd_"):])
    return os.path.join("tests", folder, "test_" + name)


def covers(path):
    """The sources a test file's opening comment names on its `// Covers:` lines (with
    continuation lines `//   a.cpp, b.cpp`), as written (file names, relative to the folder)."""
    named, inside = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = COVERS.match(line.rstrip("\n"))
            if m:
                inside = True
                text = m.group(1)
            elif inside and re.match(r"^//\s{2,}\S", line):
                text = line[2:]
            else:
                inside = False
                continue
            named += [n.strip() for n in text.replace(";", ",").split(",") if n.strip().endswith(".cpp")]
    return named


def test_of(root):
    """{source: its test file} for every source found, and the problems."""
    problems, found = [], {}
    srcs = set(sources(root))
    for src in sorted(srcs):
        own = own_test(src)
        if os.path.exists(os.path.join(root, own)):
            found[src] = own
    tests_root = os.path.join(root, "tests")
    for folder, _, files in sorted(os.walk(tests_root)):
        for name in sorted(files):
            if not (name.startswith("test_") and name.endswith(".cpp")):
                continue
            test = os.path.relpath(os.path.join(folder, name), root)
            src_folder = os.path.relpath(folder, tests_root)
            for covered in covers(os.path.join(folder, name)):
                src = covered if "/" in covered else os.path.join(src_folder, covered)
                if src not in srcs:
                    problems.append(f"{test}: Covers {covered}, which is not an engine source ({src})")
                elif src not in found:
                    found[src] = test
    for src in sorted(srcs - set(found)):
        problems.append(f"{src}: no {own_test(src)}, and no test names it on a Covers line")
    return found, problems


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    found, problems = test_of(root)
    if "--list" in argv:
        for src, test in sorted(found.items()):
            print(f"{src}\t{test}")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
