#!/usr/bin/env bash
# Runs the end-to-end tests against the built app (target/debug/pagetree-app, with the
# UI embedded) in a private X server, with a real llama-server for the model.
# Needs: scripts/setup-desktop.sh, scripts/setup.sh, scripts/build-llama-server.sh,
# and `cargo build -p pagetree-app` (scripts/test.sh does all of it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
cache="${PAGETREE_CACHE:-$HOME/.cache/pagetree}"
target="${CARGO_TARGET_DIR:-$repo/target}"
app="$target/debug/pagetree-app"
driver="$cache/tools/bin/tauri-driver"
llama="${PAGETREE_LLAMA_SERVER:-$cache/bin/llama-server}"
assets="${PAGETREE_ASSETS:-${XDG_DATA_HOME:-$HOME/.local/share}/pagetree/assets}"
filings="$repo/../shared/bench/financebench-dev/pdfs"
filing="$filings/FOOTLOCKER_2022_8K_dated-2022-05-20.pdf"
long_filing="$filings/PFIZER_2018_10K.pdf"
shots="$target/e2e-screenshots"

for need in "$app" "$driver" "$llama" "$filing" "$long_filing" /usr/bin/WebKitWebDriver; do
  [ -e "$need" ] || { echo "e2e: $need is missing (see the header of $0)" >&2; exit 1; }
done

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=harness.sh
source "$here/harness.sh"

start_display

llm_port="$(free_port)"
"$llama" -m "$assets/llm/SmolLM2-135M-Instruct.Q4_1.gguf" --host 127.0.0.1 --port "$llm_port" \
  --ctx-size 4096 --parallel 1 --threads 2 --alias smollm2 >"$work/llama.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$llm_port/health" >/dev/null && break; sleep 0.2; done

# The app under test gets a library and a Downloads folder of its own, and a corrupt
# copy of a real filing.
export PAGETREE_LIBRARY="$work/library"
# Settings looks for local model servers on this port only (the llama-server above), and
# "Use a model file…" runs this llama-server.
export PAGETREE_LOCAL_LLM_PORTS="$llm_port"
export PAGETREE_LLAMA_SERVER="$llama"
mkdir -p "$work/config" "$work/downloads"
echo "XDG_DOWNLOAD_DIR=\"$work/downloads\"" >"$work/config/user-dirs.dirs"
export XDG_CONFIG_HOME="$work/config"
head -c 4000 "$filing" >"$work/truncated-filing.pdf"

start_driver

mkdir -p "$shots"
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
status=0
PAGETREE_E2E_APP="$app" PAGETREE_E2E_FILING="$filing" \
  PAGETREE_E2E_FIXTURE="$repo/tests/fixtures/multipage.pdf" \
  PAGETREE_E2E_CORRUPT="$work/truncated-filing.pdf" \
  PAGETREE_E2E_LONG_FILING="$long_filing" \
  PAGETREE_E2E_DOWNLOADS="$work/downloads" \
  PAGETREE_E2E_DIALOG_PICK="$repo/tests/fixtures/with-empty-page.pdf" \
  PAGETREE_E2E_LLM_URL="http://127.0.0.1:$llm_port/v1" \
  PAGETREE_E2E_GGUF="$assets/llm/SmolLM2-135M-Instruct.Q4_1.gguf" \
  PAGETREE_E2E_SCREENSHOTS="$shots" PAGETREE_E2E_DRIVER_PORT="$driver_port" \
  PAGETREE_E2E_QDRANT_URL="${PAGETREE_TEST_QDRANT_URL:-}" \
  PAGETREE_E2E_QDRANT_KEY="${PAGETREE_TEST_QDRANT_API_KEY:-}" \
  npm test || status=$?
if [ "$status" -ne 0 ]; then
  echo "e2e: failed; the driver's log (the app's output is in it):" >&2
  tail -n 60 "$work/driver.log" >&2
fi
echo "e2e: screenshots in $shots"
exit "$status"
