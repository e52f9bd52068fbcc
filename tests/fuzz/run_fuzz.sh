#!/usr/bin/env bash
# Builds the fuzz targets with clang (ASan + UBSan + libFuzzer) in build-fuzz/ and runs each
# deterministically: fixed seed, bounded runs and time. Exits non-zero on any finding.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${OCTOSCOPE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
runs="${OCTOSCOPE_FUZZ_RUNS:-500000}"
seconds="${OCTOSCOPE_FUZZ_SECONDS:-90}"  # a safety cap; the run count decides

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DOCTOSCOPE_FUZZ=ON -DOCTOSCOPE_CUDA=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_model_load

# The fuzzer adds new inputs to its first corpus folder: use a scratch copy, keep seeds clean.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/seeds"
cp "$root"/tests/fuzz/seeds/*.gguf "$root"/tests/data/malformed/*.gguf "$work/seeds/"
echo "fuzz: fuzz_model_load, seed 1, at most $runs runs / ${seconds}s"
status=0
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  "$build/bin/fuzz_model_load" -seed=1 -runs="$runs" -max_total_time="$seconds" -max_len=8192 \
  -rss_limit_mb=2048 -malloc_limit_mb=1024 -artifact_prefix="$work/" -print_final_stats=1 \
  "$work/corpus" "$work/seeds" >"$work/log" 2>&1 || status=$?
grep -E "^(#[0-9]+ +DONE|Done|==|SUMMARY|stat::number_of_executed_units|INFO: Seed)|ERROR" "$work/log" || true
if [ "$status" -ne 0 ]; then
  tail -40 "$work/log" >&2
  echo "fuzz: FINDING (exit $status); crashing inputs:" >&2
  ls "$work"/crash-* "$work"/leak-* "$work"/oom-* "$work"/timeout-* 2>/dev/null >&2 || true
  exit 1
fi
echo "fuzz: no finding"
