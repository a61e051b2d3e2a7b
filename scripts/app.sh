#!/usr/bin/env bash
# Starts the PageTree desktop app from this checkout on the default library, installing
# first whatever is missing (each step is skipped when done): the assets
# (scripts/setup.sh), the Debian packages the app builds against, the UI's packages and
# build. Arguments go to the app; PAGETREE_LIBRARY picks another library.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

export PAGETREE_CACHE="${PAGETREE_CACHE:-$HOME/.cache/pagetree}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PAGETREE_CACHE/target}"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "app: there is no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset);" >&2
  echo "app: run this from a desktop session, or use the command line: cargo run --release -- --help" >&2
  exit 1
fi

bash scripts/setup.sh
bash scripts/setup-desktop.sh --build-only

# The app embeds ui/dist when it is compiled: build the UI whenever its sources changed.
if [ ! -d ui/node_modules ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  (cd ui && npm ci --no-audit --no-fund --loglevel=error)
fi
if [ ! -f ui/dist/index.html ] \
  || [ -n "$(find ui/src ui/index.html ui/package.json -newer ui/dist/index.html -print -quit)" ]; then
  (cd ui && npm run --silent build)
fi

app="$CARGO_TARGET_DIR/release/pagetree-app"
if [ ! -x "$app" ]; then
  cat <<'SAY'
app: building PageTree for the first time. This compiles the app and about 600 Rust
app: packages: about 30-40 minutes on 2 cores (less with more), once. Later starts
app: rebuild only what changed, about a minute. Cargo's progress follows.
SAY
else
  echo "app: building what changed (about a minute when the sources changed, seconds otherwise)"
fi
# In the open, so that a long build shows what it is doing.
cargo build --release -p pagetree-app
# The app sets what its window needs itself (GSETTINGS_BACKEND, and
# WEBKIT_DISABLE_DMABUF_RENDERER under Wayland or NVIDIA's driver; src-tauri/src/startup_env.rs).
exec "$app" "$@"
