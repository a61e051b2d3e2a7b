#!/usr/bin/env bash
# Installs what the desktop app needs to build (WebKitGTK and friends, from Debian), what
# its tests need (Xvfb, WebKitWebDriver, xdotool, GTK for the drag source, tauri-driver
# from crates.io) and Tesseract with its English, Russian and Spanish models, which read
# scanned pages (the engine's OCR tests and the app). Idempotent; run as root or sudo.
#
#   scripts/setup-desktop.sh [--build-only]   (only what building the app needs)
set -euo pipefail

build_only=false
[ "${1:-}" = --build-only ] && build_only=true

packages=(libwebkit2gtk-4.1-dev libxdo-dev libssl-dev libayatana-appindicator3-dev librsvg2-dev)
$build_only || packages+=(
  webkit2gtk-driver xvfb xdotool python3-gi gir1.2-gtk-3.0 dbus-x11 at-spi2-core
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-rus tesseract-ocr-spa
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup-desktop: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if $build_only; then
  echo "setup-desktop: ready to build the app"
  exit 0
fi

cache="${PAGETREE_CACHE:-$HOME/.cache/pagetree}"
driver="$cache/tools/bin/tauri-driver"
if [ ! -x "$driver" ]; then
  echo "setup-desktop: building tauri-driver 2.1.0 into $cache/tools"
  cargo install tauri-driver --version 2.1.0 --locked --root "$cache/tools" --quiet
fi
echo "setup-desktop: ready (tauri-driver at $driver)"
