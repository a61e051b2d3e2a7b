#!/usr/bin/env bash
# Build llama.cpp's `llama-server` (OpenAI-compatible HTTP server) for tests and
# demos, from the llama.cpp sources vendored in the PyPI sdist of
# llama-cpp-python, and cache the binary outside the repository.
#
#   Output:  ${PAGETREE_CACHE:-$HOME/.cache/pagetree}/bin/llama-server
#
# Idempotent: if the cached binary exists, runs (`--version`) and was built
# from the pinned inputs below, the script exits 0 at once. Otherwise it
#   1. creates a venv ($CACHE/buildenv) with cmake + ninja from PyPI
#      (apt-get is only a fallback if pip fails),
#   2. fetches the pinned sdist with `pip download` and checks its sha256,
#   3. configures a static, CPU-only, portable (GGML_NATIVE=OFF, AVX2 on) build,
#   4. builds only the `llama-server` target and atomically moves it into place.
# An interrupted run never leaves a broken cached binary; re-running resumes the
# (ninja) build where it stopped.
#
# Only package registries are used (PyPI via pip, Debian via apt-get as a
# fallback); the llama.cpp build itself is configured never to download.
#
# Environment knobs:
#   PAGETREE_CACHE        cache root (default: $HOME/.cache/pagetree)
#   LLAMA_BUILD_JOBS      parallel compile jobs (default: 2)
#   LLAMA_KEEP_BUILD=1    keep the build tree after a successful build
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION="0.3.36"
SDIST_NAME="llama_cpp_python-${LLAMA_CPP_PYTHON_VERSION}.tar.gz"
SDIST_SHA256="832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
CMAKE_PIP_VERSION="3.31.10"
NINJA_PIP_VERSION="1.13.2"

CMAKE_FLAGS=(
  -G Ninja
  -DCMAKE_BUILD_TYPE=Release
  -DBUILD_SHARED_LIBS=OFF
  # portable x86_64 build: no -march=native, but keep AVX2-era instructions
  -DGGML_NATIVE=OFF
  -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
  -DGGML_AVX512=OFF
  # ggml's own thread pool instead of OpenMP: no libgomp needed at run time
  -DGGML_OPENMP=OFF
  -DGGML_CCACHE=OFF
  # server only; no web UI (npm build or download), no TLS
  -DLLAMA_BUILD_COMMON=ON
  -DLLAMA_BUILD_TOOLS=ON
  -DLLAMA_BUILD_SERVER=ON
  -DLLAMA_BUILD_APP=OFF
  -DLLAMA_BUILD_TESTS=OFF
  -DLLAMA_BUILD_EXAMPLES=OFF
  -DLLAMA_BUILD_UI=OFF
  -DLLAMA_USE_PREBUILT_UI=OFF
  -DLLAMA_OPENSSL=OFF
)

log() { printf '[build-llama-server] %s\n' "$*"; }
die() { printf '[build-llama-server] ERROR: %s\n' "$*" >&2; exit 1; }

CACHE="${PAGETREE_CACHE:-$HOME/.cache/pagetree}"
BIN_DIR="$CACHE/bin"
TARGET="$BIN_DIR/llama-server"
STAMP="$BIN_DIR/llama-server.stamp"
VENV="$CACHE/buildenv"
DL_DIR="$CACHE/downloads"
WORK="$CACHE/build/llama-server-${LLAMA_CPP_PYTHON_VERSION}"
JOBS="${LLAMA_BUILD_JOBS:-2}"

# Identifies the inputs of the cached binary; a change forces a rebuild.
STAMP_CONTENT="llama-cpp-python==${LLAMA_CPP_PYTHON_VERSION} sha256=${SDIST_SHA256} flags=${CMAKE_FLAGS[*]}"

is_cached() {
  [[ -x "$TARGET" && -f "$STAMP" ]] || return 1
  [[ "$(cat "$STAMP")" == "$STAMP_CONTENT" ]] || return 1
  "$TARGET" --version >/dev/null 2>&1
}

if is_cached; then
  log "llama-server is cached: $TARGET"
  exit 0
fi

mkdir -p "$CACHE" "$BIN_DIR" "$DL_DIR" "$CACHE/build"

# Serialize concurrent runs (e.g. two test processes) on the same cache.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE/.build-llama-server.lock"
  if ! flock -n 9; then
    log "another build holds $CACHE/.build-llama-server.lock; waiting for it"
    flock 9
  fi
  if is_cached; then
    log "llama-server is cached: $TARGET (built by a concurrent run)"
    exit 0
  fi
fi

START_TS=$(date +%s)
log "building llama-server from llama-cpp-python==${LLAMA_CPP_PYTHON_VERSION} into $CACHE"

for tool in gcc g++ tar sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found on PATH"
done

PYTHON="${PYTHON:-}"
if [[ -z "$PYTHON" ]]; then
  PYTHON="$(command -v python3 || command -v python || true)"
fi
[[ -n "$PYTHON" ]] || die "python3 not found (needed for pip)"

# --- 1. build tools: cmake + ninja from PyPI in a venv -----------------------
tools_ok() {
  [[ -x "$VENV/bin/cmake" && -x "$VENV/bin/ninja" ]] &&
    "$VENV/bin/cmake" --version >/dev/null 2>&1 &&
    "$VENV/bin/ninja" --version >/dev/null 2>&1
}

CMAKE_BIN=""
NINJA_BIN=""
if tools_ok; then
  log "using cached cmake/ninja from $VENV"
else
  if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    log "creating venv $VENV"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV" || die "could not create a venv with $PYTHON (is python3-venv installed?)"
  fi
  log "installing cmake==${CMAKE_PIP_VERSION} ninja==${NINJA_PIP_VERSION} from PyPI"
  if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
        "cmake==${CMAKE_PIP_VERSION}" "ninja==${NINJA_PIP_VERSION}"; then
    log "WARNING: pip install of cmake/ninja failed; falling back to apt-get"
  fi
fi
if tools_ok; then
  CMAKE_BIN="$VENV/bin/cmake"
  NINJA_BIN="$VENV/bin/ninja"
else
  if ! command -v cmake >/dev/null 2>&1 || ! command -v ninja >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "cmake/ninja unavailable from pip and apt-get is missing"
    [[ "$(id -u)" == 0 ]] || die "cmake/ninja unavailable from pip; apt-get fallback needs root"
    log "installing cmake and ninja-build with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake ninja-build
  fi
  CMAKE_BIN="$(command -v cmake)"
  NINJA_BIN="$(command -v ninja)"
fi
log "cmake: $("$CMAKE_BIN" --version | head -n1), ninja: $("$NINJA_BIN" --version)"

# --- 2. the pinned sdist -------------------------------------------------------
SDIST="$DL_DIR/$SDIST_NAME"
sha_ok() { [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$SDIST_SHA256" ]]; }

if [[ -f "$SDIST" ]] && sha_ok "$SDIST"; then
  log "using cached sdist $SDIST"
else
  rm -f "$SDIST"
  PIP_TMP="$(mktemp -d "$DL_DIR/.pip.XXXXXX")"
  trap 'rm -rf "$PIP_TMP"' EXIT
  log "downloading $SDIST_NAME with pip"
  # --no-binary for this one package forces the sdist; its build backend
  # (scikit-build-core) may come as wheels, which keeps the metadata step fast.
  "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-input \
      --no-deps --no-binary llama-cpp-python --dest "$PIP_TMP" \
      "llama-cpp-python==${LLAMA_CPP_PYTHON_VERSION}" \
    || die "pip download of llama-cpp-python==${LLAMA_CPP_PYTHON_VERSION} failed"
  [[ -f "$PIP_TMP/$SDIST_NAME" ]] || die "pip did not produce $SDIST_NAME (got: $(ls "$PIP_TMP"))"
  if ! sha_ok "$PIP_TMP/$SDIST_NAME"; then
    die "sha256 mismatch for $SDIST_NAME: got $(sha256sum "$PIP_TMP/$SDIST_NAME" | cut -d' ' -f1), want $SDIST_SHA256"
  fi
  mv -f "$PIP_TMP/$SDIST_NAME" "$SDIST"
  rm -rf "$PIP_TMP"
  trap - EXIT
fi
log "sdist sha256 OK ($SDIST_SHA256)"

# --- 3. sources ----------------------------------------------------------------
mkdir -p "$WORK"
SRC_ROOT="$WORK/src"
LLAMA_SRC="$SRC_ROOT/llama_cpp_python-${LLAMA_CPP_PYTHON_VERSION}/vendor/llama.cpp"
if [[ ! -f "$SRC_ROOT/.complete" ]]; then
  log "extracting sources into $SRC_ROOT"
  rm -rf "$SRC_ROOT" "$WORK/build"
  EXTRACT_TMP="$(mktemp -d "$WORK/.src.XXXXXX")"
  chmod 755 "$EXTRACT_TMP"
  tar -xzf "$SDIST" -C "$EXTRACT_TMP" \
    "llama_cpp_python-${LLAMA_CPP_PYTHON_VERSION}/vendor/llama.cpp"
  touch "$EXTRACT_TMP/.complete"
  mv "$EXTRACT_TMP" "$SRC_ROOT"
fi
[[ -f "$LLAMA_SRC/CMakeLists.txt" ]] || die "vendored llama.cpp not found at $LLAMA_SRC"

# --- 4. configure + build --------------------------------------------------------
BUILD_DIR="$WORK/build"
log "configuring ($BUILD_DIR)"
# Keep unrelated settings of the caller's environment out of the build.
unset CMAKE_ARGS CMAKE_GENERATOR CMAKE_TOOLCHAIN_FILE || true
"$CMAKE_BIN" -S "$LLAMA_SRC" -B "$BUILD_DIR" \
  -DCMAKE_MAKE_PROGRAM="$NINJA_BIN" \
  -DCMAKE_C_COMPILER="$(command -v gcc)" -DCMAKE_CXX_COMPILER="$(command -v g++)" \
  "${CMAKE_FLAGS[@]}" >"$WORK/configure.log" 2>&1 \
  || { tail -n 40 "$WORK/configure.log" >&2; die "cmake configure failed (full log: $WORK/configure.log)"; }

log "building target llama-server with $JOBS jobs (takes ~15 min on 2 cores)"
"$CMAKE_BIN" --build "$BUILD_DIR" --target llama-server -j "$JOBS" \
  || die "build failed (re-run to resume; build tree: $BUILD_DIR)"

BUILT="$BUILD_DIR/bin/llama-server"
[[ -x "$BUILT" ]] || die "build finished but $BUILT is missing"

# --- 5. install atomically -----------------------------------------------------
TMP_BIN="$(mktemp "$BIN_DIR/.llama-server.XXXXXX")"
trap 'rm -f "$TMP_BIN"' EXIT
cp "$BUILT" "$TMP_BIN"
chmod 755 "$TMP_BIN"
if command -v strip >/dev/null 2>&1; then strip "$TMP_BIN" || true; fi
if command -v ldd >/dev/null 2>&1 && ldd "$TMP_BIN" | grep -q 'not found'; then
  ldd "$TMP_BIN" >&2
  die "the built binary has unresolved shared libraries"
fi
"$TMP_BIN" --version >/dev/null 2>&1 || die "the built binary does not run: $TMP_BIN --version failed"

rm -f "$STAMP"
mv -f "$TMP_BIN" "$TARGET"
trap - EXIT
printf '%s\n' "$STAMP_CONTENT" >"$STAMP.tmp"
mv -f "$STAMP.tmp" "$STAMP"

if [[ "${LLAMA_KEEP_BUILD:-0}" != 1 ]]; then
  rm -rf "$WORK"
fi

log "done in $(( $(date +%s) - START_TS ))s: $TARGET"
"$TARGET" --version 2>&1 | sed 's/^/[build-llama-server]   /'
