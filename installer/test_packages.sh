#!/usr/bin/env bash
# Builds the Debian packages with CPack, checks their dependencies, installs the main one and
# runs what it installed: octoscope-cli on the installed built-in model, and the installed
# workbench offscreen with --screenshot. CI runs it after the test suite (.ci/run).
#   installer/test_packages.sh [BUILD_DIR]    (default: build/; needs root or sudo)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
fail() { echo "packages: FAIL: $*" >&2; exit 1; }

rm -f "$build"/octoscope*.deb
(cd "$build" && cpack >/dev/null)
main_deb="$(ls "$build"/octoscope_*.deb)"
echo "packages: $(cd "$build" && ls octoscope*.deb | tr '\n' ' ')"

depends="$(dpkg-deb -f "$main_deb" Depends)"
echo "packages: octoscope Depends: $depends"
for dep in libqt6widgets6 libqcustomplot2.1-qt6 libspdlog1 qt6-qpa-plugins fonts-noto-cjk; do
  grep -q "$dep" <<<"$depends" || fail "octoscope does not depend on $dep"
done
contents="$(dpkg-deb -c "$main_deb")"
for f in usr/bin/octoscope usr/bin/octoscope-cli usr/share/octoscope/resources/octet/octet.gguf \
         usr/share/applications/octoscope.desktop usr/share/icons/hicolor/scalable/apps/octoscope.svg \
         usr/share/metainfo/io.github.octoscope.Octoscope.metainfo.xml usr/share/doc/octoscope/README.md; do
  grep -q " \./$f\$" <<<"$contents" || fail "octoscope lacks /$f"
done
if cuda_deb="$(ls "$build"/octoscope-cuda_*.deb 2>/dev/null)"; then
  cuda_depends="$(dpkg-deb -f "$cuda_deb" Depends)"
  echo "packages: octoscope-cuda Depends: $cuda_depends"
  grep -q "octoscope (= " <<<"$cuda_depends" || fail "octoscope-cuda does not depend on octoscope"
  grep -q "usr/lib/octoscope/liboctoscope-cuda.so" <<<"$(dpkg-deb -c "$cuda_deb")" || fail "octoscope-cuda lacks the module"
fi

DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --reinstall "$main_deb" >/dev/null
cd /
paths="$(/usr/bin/octoscope-cli paths --json)"
[ "$paths" = '{"resources":"/usr/share/octoscope/resources"}' ] || fail "installed octoscope-cli paths: $paths"
info="$(/usr/bin/octoscope-cli info --model /usr/share/octoscope/resources/octet/octet.gguf --json)"
grep -q '"architecture":"octet"' <<<"$info" || fail "installed model: $info"
# No --model: the built-in model, found through the installed resources.
out="$(/usr/bin/octoscope-cli generate --prompt "What is 12 + 30?" --max-tokens 8 --json 2>/dev/null)"
grep -q '"head_map":{"path":null,"source":"gguf"}' <<<"$out" || fail "installed octoscope-cli generate: $out"
echo "packages: installed octoscope-cli ran the installed built-in model: $(grep -o '"text":"[^"]*"' <<<"$out")"
shot="$(mktemp -d)/octoscope.png"
QT_QPA_PLATFORM=offscreen /usr/bin/octoscope --prompt "What is 20% of 300?" --screenshot "$shot"
[ -s "$shot" ] || fail "installed octoscope wrote no screenshot"
echo "packages: installed octoscope --screenshot wrote $(stat -c %s "$shot") bytes"
echo "packages: OK"
