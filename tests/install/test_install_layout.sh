#!/usr/bin/env bash
# An installed octoscope-cli finds its resources (and the CUDA module, when built) relative
# to itself, from any working directory. Usage: test_install_layout.sh BUILD_DIR
set -euo pipefail
build="$1"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cd /
paths="$("$prefix/bin/octoscope-cli" paths --json)"
expected="{\"resources\":\"$prefix/share/octoscope/resources\"}"
if [ "$paths" != "$expected" ]; then
  echo "FAIL: paths printed $paths, expected $expected"; exit 1
fi
[ -f "$prefix/share/octoscope/resources/README.md" ] || { echo "FAIL: resources not installed"; exit 1; }
[ -f "$prefix/share/doc/octoscope/README.md" ] || { echo "FAIL: documentation not installed (Help → Documentation opens its README.md)"; exit 1; }
[ ! -e "$prefix/share/octoscope/resources/translations" ] || { echo "FAIL: translation sources installed (the GUI embeds them)"; exit 1; }
if [ -f "$build/lib/octoscope/liboctoscope-cuda.so" ]; then
  "$prefix/bin/octoscope-cli" devices --json | grep -q "\"module\":\"$prefix/lib/octoscope/liboctoscope-cuda.so\"" ||
    { echo "FAIL: installed CLI does not look for the installed CUDA module"; exit 1; }
fi
echo "install layout OK"
