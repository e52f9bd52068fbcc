#!/usr/bin/env bash
# Builds the fuzz targets with clang (ASan + UBSan + libFuzzer) in build-fuzz/ and runs them.
#
#   run_fuzz.sh               CI's short runs: each target in turn, deterministically (fixed seed,
#                             bounded runs and time), starting from its seeds and from the corpus
#                             kept in tests/fuzz/corpus/<target>/. Exits non-zero on any finding.
#   run_fuzz.sh --long MIN    a session's long campaign: every target at once for MIN minutes,
#                             then each target's corpus minimised (-merge=1) back into
#                             tests/fuzz/corpus/<target>/, so CI starts from what it found. Prints
#                             executions per target; exits non-zero on any finding (the crashing
#                             inputs are kept under build-fuzz/long/<target>/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${OCTOSCOPE_FUZZ_BUILD_DIR:-$root/build-fuzz}"
long_minutes=""
if [ "${1:-}" = "--long" ]; then
  long_minutes="${2:?--long needs a number of minutes}"
fi

# target  CI runs  CI seconds (a safety cap; the run count decides)  max input length  seed files…
targets=(fuzz_model_load fuzz_capture_read fuzz_openai_request fuzz_tokenizer fuzz_chat_template fuzz_remote_stream
  fuzz_resource_files fuzz_run_spec fuzz_coherence fuzz_grammar fuzz_json_schema fuzz_conversation_file fuzz_workbench_files)
declare -A runs=(
  [fuzz_model_load]="${OCTOSCOPE_FUZZ_RUNS:-500000}" [fuzz_capture_read]="${OCTOSCOPE_FUZZ_CAPTURE_RUNS:-200000}"
  [fuzz_openai_request]="${OCTOSCOPE_FUZZ_REQUEST_RUNS:-200000}" [fuzz_tokenizer]=50000 [fuzz_chat_template]=100000
  [fuzz_remote_stream]=50000 [fuzz_resource_files]=30000 [fuzz_run_spec]=100000 [fuzz_coherence]=100000 [fuzz_grammar]=100000
  [fuzz_json_schema]=100000 [fuzz_conversation_file]=100000 [fuzz_workbench_files]=50000)
declare -A seconds=(
  [fuzz_model_load]="${OCTOSCOPE_FUZZ_SECONDS:-90}" [fuzz_capture_read]="${OCTOSCOPE_FUZZ_CAPTURE_SECONDS:-60}"
  [fuzz_openai_request]="${OCTOSCOPE_FUZZ_REQUEST_SECONDS:-60}" [fuzz_tokenizer]=45 [fuzz_chat_template]=30
  [fuzz_remote_stream]=30 [fuzz_resource_files]=45 [fuzz_run_spec]=30 [fuzz_coherence]=30 [fuzz_grammar]=30 [fuzz_json_schema]=30
  [fuzz_conversation_file]=30 [fuzz_workbench_files]=30)
declare -A max_len=([fuzz_model_load]=8192 [fuzz_capture_read]=16384 [fuzz_openai_request]=4096 [fuzz_tokenizer]=1024
  [fuzz_chat_template]=2048 [fuzz_remote_stream]=8192 [fuzz_resource_files]=32768 [fuzz_run_spec]=4096 [fuzz_coherence]=2048 [fuzz_grammar]=2048
  [fuzz_json_schema]=4096 [fuzz_conversation_file]=4096 [fuzz_workbench_files]=16384)
seeds() {
  case "$1" in
    fuzz_model_load) ls "$root"/tests/fuzz/seeds/*.gguf "$root"/tests/data/malformed/*.gguf ;;
    fuzz_capture_read) ls "$root"/tests/fuzz/seeds/*.octo "$root"/tests/data/captures/*.octo ;;
    fuzz_openai_request) ls "$root"/tests/fuzz/seeds/*.json ;;
    fuzz_run_spec) ls "$root"/tests/fuzz/seeds/run_spec_*.bin ;;
    fuzz_grammar) ls "$root"/tests/fuzz/seeds/*.gbnf ;;
    fuzz_json_schema) ls "$root"/tests/fuzz/seeds/*.schema ;;
    fuzz_conversation_file) ls "$root"/tests/fuzz/seeds/conversation_*.json ;;
    fuzz_workbench_files) ls "$root"/tests/fuzz/seeds/workbench_*.bin ;;
  esac
}
# The corpus kept in the repository for a target (what earlier long runs found).
kept_corpus() {
  if [ -d "$root/tests/fuzz/corpus/$1" ]; then find "$root/tests/fuzz/corpus/$1" -type f; fi
}

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DOCTOSCOPE_FUZZ=ON -DOCTOSCOPE_CUDA=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
limits=(-rss_limit_mb=2048 -malloc_limit_mb=1024)

# A target's folders under $1: corpus (the kept corpus; the fuzzer adds to it) and seeds (the
# tests' own files, kept clean).
lay_out() {
  local dir="$1" target="$2"
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/seeds"
  seeds "$target" | while read -r f; do cp "$f" "$dir/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"; done
  kept_corpus "$target" | while read -r f; do cp "$f" "$dir/corpus/"; done
}

report_finding() {
  local dir="$1" target="$2" status="$3"
  tail -40 "$dir/log" >&2
  echo "fuzz: $target: FINDING (exit $status); crashing inputs:" >&2
  ls "$dir"/crash-* "$dir"/leak-* "$dir"/oom-* "$dir"/timeout-* 2>/dev/null >&2 || true
}

if [ -z "$long_minutes" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  for target in "${targets[@]}"; do
    dir="$work/$target"
    lay_out "$dir" "$target"
    echo "fuzz: $target, seed 1, at most ${runs[$target]} runs / ${seconds[$target]}s"
    status=0
    "$build/bin/$target" -seed=1 -runs="${runs[$target]}" -max_total_time="${seconds[$target]}" \
      -max_len="${max_len[$target]}" "${limits[@]}" -artifact_prefix="$dir/" -print_final_stats=1 \
      "$dir/corpus" "$dir/seeds" >"$dir/log" 2>&1 || status=$?
    grep -E "^(#[0-9]+ +DONE|Done|==|SUMMARY|stat::number_of_executed_units|INFO: Seed)|ERROR" "$dir/log" || true
    if [ "$status" -ne 0 ]; then
      report_finding "$dir" "$target" "$status"
      exit 1
    fi
  done
  echo "fuzz: no finding"
  exit 0
fi

# --long: every target at once, then the corpora minimised back into the repository.
long="$build/long"
seconds_long=$((long_minutes * 60))
for target in "${targets[@]}"; do
  lay_out "$long/$target" "$target"
  # each target's exit status goes to a file: `wait PID` can answer 127 for a child reaped while
  # the merges below ran in the foreground
  ( status=0
    "$build/bin/$target" -max_total_time="$seconds_long" -max_len="${max_len[$target]}" "${limits[@]}" \
      -artifact_prefix="$long/$target/" -print_final_stats=1 "$long/$target/corpus" "$long/$target/seeds" \
      >"$long/$target/log" 2>&1 || status=$?
    echo "$status" >"$long/$target/status" ) &
done
wait
findings=0
for target in "${targets[@]}"; do
  status="$(cat "$long/$target/status" 2>/dev/null || echo 1)"
  executed="$(grep -oE "stat::number_of_executed_units: [0-9]+" "$long/$target/log" | grep -oE "[0-9]+$" || echo "?")"
  if [ "$status" -ne 0 ]; then
    findings=$((findings + 1))
    report_finding "$long/$target" "$target" "$status"
    echo "fuzz --long: $target: $executed executions, FINDING"
    continue
  fi
  merged="$long/$target/merged"
  mkdir -p "$merged"
  "$build/bin/$target" -merge=1 -max_len="${max_len[$target]}" "${limits[@]}" "$merged" \
    "$long/$target/seeds" "$long/$target/corpus" >"$long/$target/merge.log" 2>&1
  # The kept corpus becomes the minimised one (merged inputs are named by their SHA-1; what the
  # seeds already hold stays out of it).
  rm -rf "$root/tests/fuzz/corpus/$target"
  mkdir -p "$root/tests/fuzz/corpus/$target"
  known="$(sha1sum "$long/$target/seeds"/* 2>/dev/null | cut -d' ' -f1 || true)" # some targets have no seeds
  for f in "$merged"/*; do
    [ -e "$f" ] || continue
    grep -qx "$(basename "$f")" <<<"$known" && continue
    cp "$f" "$root/tests/fuzz/corpus/$target/"
  done
  echo "fuzz --long: $target: $executed executions, no finding, corpus $(ls "$root/tests/fuzz/corpus/$target" | wc -l) files"
done
[ "$findings" -eq 0 ] || exit 1
echo "fuzz --long: no finding"
