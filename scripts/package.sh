#!/usr/bin/env bash
# Builds the desktop app's Linux packages with everything it needs at run time inside:
# PDFium, ONNX Runtime, all-MiniLM-L6-v2 and multilingual-e5-small (the hash-pinned
# files scripts/assets.txt lists, installed by scripts/setup.sh), so that the installed
# app runs with no set-up, no network and no checkout.
#
#   scripts/package.sh [--debug] [--bundles deb[,appimage]]
#
# Packages land in $CARGO_TARGET_DIR/{release,debug}/bundle/. The default is a release
# build of the .deb; --debug reuses the debug build the tests make (CI's package test).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

profile=release
bundles=deb
while [ $# -gt 0 ]; do
  case "$1" in
    --debug) profile=debug ;;
    --bundles) bundles="$2"; shift ;;
    *) echo "package: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
  shift
done

export PAGETREE_CACHE="${PAGETREE_CACHE:-$HOME/.cache/pagetree}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PAGETREE_CACHE/target}"
assets="${PAGETREE_ASSETS:-${XDG_DATA_HOME:-$HOME/.local/share}/pagetree/assets}"

bash scripts/setup.sh
bash scripts/setup-desktop.sh
# The llama-server "Use a model file (.gguf)…" runs (src/local_llm/server.rs).
bash scripts/build-llama-server.sh
[ -x ui/node_modules/.bin/tauri ] || (cd ui && npm ci --no-audit --no-fund --loglevel=error)

# The bundle's assets: a copy of what the app reads (llama-server too), never the test LLM.
stage="$CARGO_TARGET_DIR/package-assets"
rm -rf "$stage"
mkdir -p "$stage/pdfium" "$stage/onnxruntime" "$stage/models"
cp "$assets/pdfium/libpdfium.so" "$stage/pdfium/"
cp "$assets/onnxruntime/libonnxruntime.so.1.32.0" "$stage/onnxruntime/"
mkdir -p "$stage/bin"
cp "$PAGETREE_CACHE/bin/llama-server" "$stage/bin/"
cp -r "$assets/models/all-MiniLM-L6-v2" "$stage/models/"
e5_source="$assets/models/multilingual-e5-small/src/e5.c"
e5="$stage/models/multilingual-e5-small"
mkdir -p "$e5"
cp "$assets/models/multilingual-e5-small/e5-small-q4.bin" "$e5/"
# The machine that installs the package may lack AVX2: a portable build, and the AVX2
# one the engine picks where the processor has it (src/assets.rs).
bash scripts/build-e5-engine.sh "$e5_source" "$e5/libe5.so"
bash scripts/build-e5-engine.sh "$e5_source" "$e5/libe5-avx2.so" -mavx2 -mfma -mf16c

config="$CARGO_TARGET_DIR/package-config.json"
cat >"$config" <<JSON
{
  "bundle": {
    "active": true,
    "resources": { "$stage/": "assets/" },
    "category": "Productivity",
    "shortDescription": "Ask questions of your PDFs and get answers that cite their pages",
    "longDescription": "PageTree indexes each PDF as a tree of pages and section summaries and finds the pages that answer a question, with citations you can click. Search runs offline; answers can use a local or remote LLM.",
    "linux": { "deb": { "depends": ["libgomp1", "tesseract-ocr", "tesseract-ocr-eng", "tesseract-ocr-rus", "tesseract-ocr-spa"] } }
  }
}
JSON

flags=()
[ "$profile" = debug ] && flags+=(--debug)
echo "package: building the app ($profile) and its $bundles package"
(cd src-tauri && ../ui/node_modules/.bin/tauri build "${flags[@]}" --bundles "$bundles" --config "$config")

out="$CARGO_TARGET_DIR/$profile/bundle"
find "$out" -maxdepth 2 \( -name '*.deb' -o -name '*.AppImage' \) -newer "$config" -print0 \
  | while IFS= read -r -d '' package; do
      echo "package: $package ($(du -h "$package" | cut -f1))"
    done
