#!/usr/bin/env bash
# Tests the desktop package as a user gets it: installs the .deb with dpkg, starts the
# installed binary in a private X server with an empty home folder (no checkout, no
# assets from scripts/setup.sh, no settings), drops a PDF onto it and asks a question
# (package.test.mjs), then uninstalls the package and checks that the library is still
# there. Run as root (dpkg).
#
#   e2e/package.sh [PACKAGE.deb]    (default: the newest one scripts/package.sh made)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
cache="${PAGETREE_CACHE:-$HOME/.cache/pagetree}"
target="${CARGO_TARGET_DIR:-$repo/target}"
driver="$cache/tools/bin/tauri-driver"
filing="$repo/../shared/bench/financebench-dev/pdfs/FOOTLOCKER_2022_8K_dated-2022-05-20.pdf"
scan="$repo/tests/fixtures/scanned-english.pdf"
shots="$target/e2e-screenshots"

deb="${1:-$(ls -t "$target"/{release,debug}/bundle/deb/*.deb 2>/dev/null | head -n1 || true)}"
[ -n "$deb" ] && [ -f "$deb" ] || { echo "package-test: no .deb; run scripts/package.sh" >&2; exit 1; }
for need in "$driver" "$filing" "$scan" /usr/bin/WebKitWebDriver; do
  [ -e "$need" ] || { echo "package-test: $need is missing (run scripts/setup-desktop.sh)" >&2; exit 1; }
done
name="$(dpkg-deb -f "$deb" Package)"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
app=/usr/bin/pagetree-app

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  $sudo dpkg -r "$name" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "package-test: installing $(basename "$deb")"
# dpkg installs nothing the package depends on (Tesseract for scanned pages); apt does.
missing=()
while read -r dep; do
  [ -z "$dep" ] || dpkg-query -W -f='${Status}' "$dep" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$dep")
done < <(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/[ (].*//; s/^ *//')
if [ "${#missing[@]}" -gt 0 ]; then
  echo "package-test: installing what the package depends on: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; exit 1; }
fi
$sudo dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; exit 1; }
[ -x "$app" ] || { echo "package-test: the package did not install $app" >&2; exit 1; }

# shellcheck source=harness.sh
source "$here/harness.sh"

start_display

# A user who has never run PageTree: a home of their own, and nothing that points the
# app anywhere else.
home="$work/home"
mkdir -p "$home"
unset PAGETREE_ASSETS PAGETREE_LIBRARY PAGETREE_MODEL_DIR PAGETREE_LLM_URL XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME
export HOME="$home"

start_driver

mkdir -p "$shots"
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
status=0
PAGETREE_E2E_APP="$app" PAGETREE_E2E_FILING="$filing" PAGETREE_E2E_SCAN="$scan" PAGETREE_E2E_SCREENSHOTS="$shots" \
  PAGETREE_E2E_DRIVER_PORT="$driver_port" \
  node --test --test-concurrency=1 --test-reporter=spec package.test.mjs || status=$?
if [ "$status" -ne 0 ]; then
  echo "package-test: failed; the driver's log (the app's output is in it):" >&2
  tail -n 60 "$work/driver.log" >&2
  exit "$status"
fi
if ! grep -q "using the assets installed with the app" "$work/driver.log"; then
  echo "package-test: the app did not say it used the package's assets" >&2
  exit 1
fi

# The log file: written where About said, and without what was asked or read.
log="$(find "$home" -name 'pagetree.*.log' -print -quit)"
[ -n "$log" ] && grep -q "PageTree starting" "$log" \
  || { echo "package-test: no log file with the app's start in $home" >&2; exit 1; }
if grep -q -e "Richard A. Johnson" -e "Abstentions" "$log"; then
  echo "package-test: the log ($log) holds the question or the document's text" >&2
  exit 1
fi

for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
wait 2>/dev/null || true
pids=()
$sudo dpkg -r "$name" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; exit 1; }
[ ! -e "$app" ] || { echo "package-test: $app is still there after removal" >&2; exit 1; }
library="$home/.local/share/pagetree/library"
[ -f "$library/catalog.sqlite" ] || { echo "package-test: removing the package took the library ($library)" >&2; exit 1; }
echo "package-test: passed; the library outlived the package; screenshots in $shots"
