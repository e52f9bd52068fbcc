#!/usr/bin/env bash
# The GPU check (tests/gpu/README.md), in two places:
#   In the source tree:   tests/gpu/gpu_check.sh --dry-run
#     builds the Qt-free bundle (build-gpu-bundle/octoscope-gpu-bundle, target gpu-bundle), then
#     runs the bundled copy of this script with --dry-run. CI does this.
#   In the bundle:        octoscope-gpu-bundle/gpu_check.sh [--dry-run]
#     on the GPU machine (CUDA toolkit, nothing else; at most 4 minutes): the device, the
#     parity suites, compute-sanitizer on one parity suite, the benchmark, and a short results
#     table last. --dry-run checks the bundle without a GPU: layout, no library outside the
#     system's, and the parity suites' plumbing against the fake host module.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dry_run=0
case "${1:-}" in
  --dry-run) dry_run=1 ;;
  "") ;;
  *) echo "usage: $0 [--dry-run]" >&2; exit 2 ;;
esac

# --- in the source tree: build the bundle, then check it ----------------------------------------
if [ ! -x "$here/bin/gpu_tests" ]; then
  root="$(cd "$here/../.." && pwd)"
  build="${OCTOSCOPE_GPU_BUNDLE_BUILD:-$root/build-gpu-bundle}"
  set -e
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOCTOSCOPE_GPU_BUNDLE=ON \
    -DOCTOSCOPE_WERROR=ON >/dev/null
  cmake --build "$build" -j "$(nproc)" --target gpu-bundle
  set +e
  exec bash "$build/octoscope-gpu-bundle/gpu_check.sh" "$@"
fi

# --- in the bundle ------------------------------------------------------------------------------
export OCTOSCOPE_SHARED_DIR="$here/shared"
export OCTOSCOPE_RESOURCES="$here/share/octoscope/resources"
log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT
rows=()
failed=0
row() { rows+=("$(printf '%-34s %-6s %s' "$1" "$2" "$3")"); [ "$2" = FAIL ] && failed=1; return 0; }

# One step under a time limit; its output goes to $log/<name>.log and the end of it to stdout.
step() {
  local name="$1" limit="$2"; shift 2
  echo "=== $name"
  timeout "$limit" "$@" >"$log/$name.log" 2>&1
  local rc=$?
  tail -n 25 "$log/$name.log"
  return $rc
}

# gtest's summary line "[  PASSED  ] N tests." and skips, as "N passed, M skipped, K failed".
gtest_counts() {
  local f="$1" p s k
  p=$(grep -oE '\[  PASSED  \] [0-9]+' "$f" | grep -oE '[0-9]+$' || echo 0)
  s=$(grep -oE '\[  SKIPPED \] [0-9]+ test' "$f" | grep -oE '[0-9]+' || echo 0)
  k=$(grep -oE '\[  FAILED  \] [0-9]+ test' "$f" | grep -oE '[0-9]+' || echo 0)
  echo "${p:-0} passed, ${s:-0} skipped, ${k:-0} failed"
}

# Only the C library, libgcc_s, the dynamic loader and (for the module) NVIDIA's libraries may
# be needed: every Linux system has the first three.
check_libraries() {
  local bad=0 f
  for f in "$here"/bin/* "$here"/lib/octoscope/*.so; do
    [ -e "$f" ] || continue
    if ldd "$f" | grep -vE 'linux-vdso|ld-linux|/libc\.so|/libm\.so|/libdl\.so|/libpthread\.so|/librt\.so|/libgcc_s\.so|libcublas|libcublasLt|libcuda\.so' \
         | grep -qE '=>|not found'; then
      echo "$f needs:"; ldd "$f" | grep -vE 'linux-vdso|ld-linux|/libc\.so|/libm\.so|/libdl\.so|/libpthread\.so|/librt\.so|/libgcc_s\.so'
      bad=1
    fi
  done
  return $bad
}

echo "octoscope GPU check — $(date -u +%FT%TZ) on $(uname -srm)"
size_mib=$(( $(du -sk "$here" | cut -f1) / 1024 ))
[ -d "$here/shared/refdata" ] && refdata="with ../shared/refdata" || refdata="WITHOUT refdata (model parity skips)"
[ -f "$here/lib/octoscope/liboctoscope-cuda.so" ] && module="with the CUDA module" || module="WITHOUT the CUDA module"
echo "bundle: ${size_mib} MiB, $module, $refdata"

if [ "$dry_run" -eq 1 ]; then
  if check_libraries; then row "bundle libraries" ok "libc and libgcc_s only (+ cuBLAS for the module)"
  else row "bundle libraries" FAIL "a library outside the system's is needed"; fi
  [ "$size_mib" -lt 64 ] && row "bundle size" ok "${size_mib} MiB (< 64)" || row "bundle size" FAIL "${size_mib} MiB"
  bash -n "$here/gpu_check.sh" && row "script parses" ok "bash -n" || row "script parses" FAIL "bash -n"
  step devices 60 "$here/bin/octoscope-cli" devices --json
  grep -q '"cuda"' "$log/devices.log" && row "octoscope-cli devices" ok "CUDA reported unusable with a reason, no crash" \
    || row "octoscope-cli devices" FAIL "see above"
  OCTOSCOPE_CUDA_MODULE="$(ls "$here"/lib/fake/*.so)" step parity-harness 600 "$here/bin/gpu_tests"
  rc=$?
  [ $rc -eq 0 ] && row "parity suites on the fake module" ok "$(gtest_counts "$log/parity-harness.log") (plumbing only)" \
    || row "parity suites on the fake module" FAIL "$(gtest_counts "$log/parity-harness.log")"
else
  command -v nvidia-smi >/dev/null && step nvidia-smi 30 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  step devices 60 "$here/bin/octoscope-cli" devices --json
  grep -q '"available": *true\|"available":true' "$log/devices.log" && row "CUDA device" ok "$(grep -oE '"name": *"[^"]*"' "$log/devices.log" | head -1)" \
    || row "CUDA device" FAIL "not usable: see devices above"
  step parity 150 "$here/bin/gpu_tests"
  rc=$?
  [ $rc -eq 0 ] && row "parity suites" ok "$(gtest_counts "$log/parity.log")" || row "parity suites" FAIL "exit $rc: $(gtest_counts "$log/parity.log")"
  grep -E '^\[ parity \]' "$log/parity.log" | sed 's/^/  /'
  if command -v compute-sanitizer >/dev/null; then
    step sanitizer 90 compute-sanitizer --tool memcheck --error-exitcode 3 "$here/bin/gpu_tests" \
      --gtest_filter='GpuOpParity.PagedAttentionPrefillDecodeAndCellCopy'
    rc=$?
    [ $rc -eq 0 ] && row "compute-sanitizer memcheck" ok "attention parity: $(grep -oE 'ERROR SUMMARY: [0-9]+ errors' "$log/sanitizer.log" | head -1)" \
      || row "compute-sanitizer memcheck" FAIL "exit $rc: $(grep -oE 'ERROR SUMMARY: [0-9]+ errors' "$log/sanitizer.log" | head -1)"
  else
    row "compute-sanitizer memcheck" FAIL "compute-sanitizer not found"
  fi
  step bench 90 "$here/bin/octoscope-cli" bench --backend cuda --synthetic 1024x16x16:f16 --prompt-tokens 512 \
    --gen-tokens 64 --edit-tokens 1000
  rc=$?
  if [ $rc -eq 0 ]; then
    row "bench 1024x16x16 f16 (prefill 512)" ok "$(grep -E 'instrumentation off' "$log/bench.log" | tr -s ' ')"
    row "decode bandwidth (target >= 60%)" info "$(grep -E '^decode:' "$log/bench.log" | cut -c10-)"
    row "prefill vs cuBLAS (target >= 50%)" info "$(grep -E '^prefill:' "$log/bench.log" | cut -c10-)"
  else
    row "bench 1024x16x16 f16" FAIL "exit $rc"
  fi
fi

echo
echo "================ results ($( [ $dry_run -eq 1 ] && echo "dry run, no GPU used" || echo "GPU run"))"
printf '%s\n' "${rows[@]}"
exit $failed
