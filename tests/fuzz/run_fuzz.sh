#!/usr/bin/env bash
# Builds the fuzz targets with clang (ASan + UBSan + libFuzzer) in build-fuzz/ and runs each
# deterministically: fixed seed, bounded runs and time. Exits non-zero on any finding.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${OCTOSCOPE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
runs="${OCTOSCOPE_FUZZ_RUNS:-500000}"
seconds="${OCTOSCOPE_FUZZ_SECONDS:-90}"  # a safety cap; the run count decides
capture_runs="${OCTOSCOPE_FUZZ_CAPTURE_RUNS:-200000}"
capture_seconds="${OCTOSCOPE_FUZZ_CAPTURE_SECONDS:-60}"
request_runs="${OCTOSCOPE_FUZZ_REQUEST_RUNS:-200000}"
request_seconds="${OCTOSCOPE_FUZZ_REQUEST_SECONDS:-60}"

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DOCTOSCOPE_FUZZ=ON -DOCTOSCOPE_CUDA=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_model_load fuzz_capture_read fuzz_openai_request

# The fuzzer adds new inputs to its first corpus folder: use a scratch copy, keep seeds clean.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# fuzz TARGET RUNS SECONDS MAX_LEN SEED_FILE…
fuzz() {
  local target="$1" target_runs="$2" target_seconds="$3" max_len="$4"
  shift 4
  local dir="$work/$target"
  mkdir -p "$dir/corpus" "$dir/seeds"
  cp "$@" "$dir/seeds/"
  echo "fuzz: $target, seed 1, at most $target_runs runs / ${target_seconds}s"
  local status=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$build/bin/$target" -seed=1 -runs="$target_runs" -max_total_time="$target_seconds" -max_len="$max_len" \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -artifact_prefix="$dir/" -print_final_stats=1 \
    "$dir/corpus" "$dir/seeds" >"$dir/log" 2>&1 || status=$?
  grep -E "^(#[0-9]+ +DONE|Done|==|SUMMARY|stat::number_of_executed_units|INFO: Seed)|ERROR" "$dir/log" || true
  if [ "$status" -ne 0 ]; then
    tail -40 "$dir/log" >&2
    echo "fuzz: $target: FINDING (exit $status); crashing inputs:" >&2
    ls "$dir"/crash-* "$dir"/leak-* "$dir"/oom-* "$dir"/timeout-* 2>/dev/null >&2 || true
    exit 1
  fi
}

fuzz fuzz_model_load "$runs" "$seconds" 8192 "$root"/tests/fuzz/seeds/*.gguf "$root"/tests/data/malformed/*.gguf
fuzz fuzz_capture_read "$capture_runs" "$capture_seconds" 16384 "$root"/tests/fuzz/seeds/*.octo "$root"/tests/data/captures/*.octo
fuzz fuzz_openai_request "$request_runs" "$request_seconds" 4096 "$root"/tests/fuzz/seeds/*.json
echo "fuzz: no finding"
