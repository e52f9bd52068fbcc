#!/usr/bin/env python3
"""Fails when an #include climbs a layer (docs/architecture.md).

Layers, lowest first: core (engine/core, gguf, tokenizer, grammar) < runtime (model, backend, inference,
sampling, chat, generation, kv, instrumentation) < analysis (router, advisor, capture,
evaluation, claims, conversation) < host (engine/host, engine/serve, engine/remote) < ui < app. kernels/ is a leaf: it includes nothing of
the project's but itself. A file may include its own layer and every layer below it. Prints each
offending include as path:line and exits 1; exits 0 when there is none.

Usage: check_layers.py [REPOSITORY_ROOT]   (default: two folders above this script)
"""
import os
import re
import sys

ENGINE_LAYERS = {
    "core": 0, "gguf": 0, "tokenizer": 0, "grammar": 0,
    "model": 1, "backend": 1, "inference": 1, "sampling": 1, "chat": 1, "generation": 1, "kv": 1,
    "instrumentation": 1,
    "router": 2, "advisor": 2, "capture": 2, "evaluation": 2, "claims": 2, "conversation": 2,
    "host": 3, "serve": 3, "remote": 3,
}
LAYER_NAMES = ["core", "runtime", "analysis", "host", "ui", "app"]
UI, APP = 4, 5
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    """The layer of a repository-relative path, or None for files outside the layered code."""
    parts = path.split("/")
    if parts[0] == "engine" and len(parts) > 2:
        return ENGINE_LAYERS.get(parts[1])
    if parts[0] == "ui":
        return UI
    if parts[0] == "app":
        return APP
    return None


def check(root):
    problems = []
    for top in ("engine", "ui", "app", "kernels"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".hpp", ".cpp", ".inc", ".cu", ".cuh")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                own = layer_of(path)
                if top == "engine" and own is None:
                    problems.append(f"{path}: engine/{path.split('/')[1]} is in no layer (add it to check_layers.py and engine/CMakeLists.txt)")
                    continue
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        if top == "kernels":
                            if target.split("/")[0] in ("engine", "ui", "app"):
                                problems.append(f"{path}:{number}: kernels/ includes {target}")
                            continue
                        wanted = layer_of(target)
                        if wanted is not None and wanted > own:
                            problems.append(f"{path}:{number}: {LAYER_NAMES[own]} includes {target} ({LAYER_NAMES[wanted]})")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    problems = check(os.path.abspath(root))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) climb a layer (docs/architecture.md)", file=sys.stderr)
        return 1
    print("no include climbs a layer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
