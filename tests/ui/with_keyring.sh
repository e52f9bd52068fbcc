#!/bin/sh
# Runs a command inside a private D-Bus session whose Secret Service (gnome-keyring) has a fresh,
# unlocked login keyring in a temporary data folder, so the workbench's keyring code (QtKeychain)
# can be tested on a headless machine without touching the user's keyrings.
# Usage: with_keyring.sh COMMAND [ARGS…]
set -e
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
XDG_DATA_HOME="$data" dbus-run-session -- sh -c '
  printf "octoscope-test" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  OCTOSCOPE_TEST_KEYRING=1 "$@"' sh "$@"
