#!/usr/bin/env bash
# One-command set-up for a fresh Debian 12 machine: installs every Debian package that
# building, running and testing Octoscope need, configures and builds into build/.
#   installer/setup.sh          set up and build
#   installer/setup.sh --run    ... then launch (see README: for now the CLI on a test model)
#   installer/setup.sh --test   ... then run the whole test suite (fuzzing and the GPU bundle's
#                               dry run included)
# Stops on the first error. Re-running is cheap: installed packages are skipped.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${OCTOSCOPE_BUILD_DIR:-$root/build}"
mode="${1:-}"
case "$mode" in ""|--run|--test) ;; *) echo "usage: $0 [--run|--test]" >&2; exit 2 ;; esac

packages=(
  # toolchain and build
  build-essential cmake ninja-build pkg-config git python3
  # compiler cache: the GPU bundle's build reuses the application build's engine objects
  ccache
  # engine libraries
  nlohmann-json3-dev libpcre2-dev libspdlog-dev libcli11-dev libxxhash-dev libzstd-dev
  # the server (octoscope-cli serve) and its tests' client
  libcpp-httplib-dev libssl-dev
  # tests and fuzzing (clang with libFuzzer, ASan and UBSan runtimes)
  libgtest-dev libgmock-dev clang libclang-rt-14-dev
  # GUI (Qt 6 Widgets, QCustomPlot) and its headless screenshots
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-qpa-plugins libqcustomplot-dev libqcustomplot2.1-qt6
  # the server's API key in the system keyring (Model → Connect to Server…), and a private
  # Secret Service for its test (tests/ui/with_keyring.sh)
  qtkeychain-qt6-dev gnome-keyring dbus-daemon
  xvfb xauth imagemagick fonts-dejavu-core fonts-noto-cjk
  # UI translations: lupdate/lrelease and their CMake API (Qt6LinguistTools), Qt's own zh_CN strings
  qt6-l10n-tools qt6-tools-dev qt6-translations-l10n
  # code checks (tools/code/function_lengths.py)
  universal-ctags
  # the octet trainer's tests (tools/octet/test_groups.py: torch on the CPU, and the BPE's regex)
  python3-torch python3-regex
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs="$(nproc)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOCTOSCOPE_WERROR=ON
cmake --build "$build" -j "$jobs"

case "$mode" in
  --run)
    # The workbench on the built-in model; on a machine without a display, under Xvfb on a
    # sample prompt, saving the window as build/octoscope-run.png.
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      exec "$build/bin/octoscope"
    fi
    echo "setup: no display: running the workbench under xvfb-run on a sample prompt"
    xvfb-run -a -s "-screen 0 1280x800x24" "$build/bin/octoscope" --prompt "What is 20% of 300?" \
      --screenshot "$build/octoscope-run.png"
    echo "setup: the window after the run is in $build/octoscope-run.png"
    ;;
  --test)
    bash "$root/tests/fuzz/run_fuzz.sh"
    # The Qt-free GPU check bundle builds and checks itself without a GPU (tests/gpu/README.md).
    bash "$root/tests/gpu/gpu_check.sh" --dry-run
    # ctest last: its summary is the suite's closing line.
    ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
esac
