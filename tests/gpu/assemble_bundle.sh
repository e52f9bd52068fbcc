#!/usr/bin/env bash
# Packs the GPU check bundle (tests/gpu/README.md); run by the gpu-bundle build target.
#   assemble_bundle.sh OUT_DIR SOURCE_DIR CLI GPU_TESTS FAKE_MODULE [CUDA_MODULE]
# Layout: bin/ (octoscope-cli, gpu_tests), lib/octoscope/liboctoscope-cuda.so (where the CLI
# looks for it), lib/fake/ (the host module, for --dry-run), share/octoscope/resources/ (the
# built-in model and rule files; not octet's variants), shared/refdata/ (../shared/refdata's models and reference
# outputs, when present),
# gpu_check.sh. Fails when the bundle reaches 64 MiB (what a device run may carry).
set -euo pipefail
out="$1" src="$2" cli="$3" gpu_tests="$4" fake="$5" cuda="${6:-}"
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib/octoscope" "$out/lib/fake" "$out/share/octoscope"
cp "$cli" "$gpu_tests" "$out/bin/"
cp "$fake" "$out/lib/fake/"
if [ -n "$cuda" ]; then cp "$cuda" "$out/lib/octoscope/liboctoscope-cuda.so"; fi
cp -r "$src/resources" "$out/share/octoscope/resources"
# octet's 4- and 16-group variants serve only the claims lab's "why 8" claims, which no GPU check runs.
rm -rf "$out/share/octoscope/resources/octet/variants"
# The reference models and llama.cpp's outputs the parity suites read (not the tokenizer vocabularies).
if [ -d "$src/../shared/refdata" ]; then
  mkdir -p "$out/shared/refdata"
  cp "$src"/../shared/refdata/*.gguf "$src"/../shared/refdata/*_ref.json "$out/shared/refdata/"
  # the architectures the engine runs besides llama / qwen2 (the parity suite reads phi3's)
  if [ -d "$src/../shared/refdata/archs" ]; then
    mkdir -p "$out/shared/refdata/archs"
    cp "$src"/../shared/refdata/archs/phi3-tiny-*.gguf "$src"/../shared/refdata/archs/phi3_tiny_ref.json \
      "$out/shared/refdata/archs/"
  fi
  chmod -R u+w "$out/shared"
fi
strip "$out"/bin/*
cp "$src/tests/gpu/gpu_check.sh" "$out/"
size_kib=$(du -sk "$out" | cut -f1)
if [ "$size_kib" -ge $((64 * 1024)) ]; then
  echo "assemble_bundle: the bundle is ${size_kib} KiB, over the 64 MiB a device run carries" >&2
  exit 1
fi
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")"
module_note="with the CUDA module"
[ -n "$cuda" ] || module_note="WITHOUT a CUDA module (no nvcc)"
echo "assemble_bundle: $out ($((size_kib / 1024)) MiB, $module_note)"
