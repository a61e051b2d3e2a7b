#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what the tests need (idempotently,
# caching slow builds outside the clone), then formatting, lints and every test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export PAGETREE_CACHE="${PAGETREE_CACHE:-$HOME/.cache/pagetree}"
# Cargo's build cache lives outside the clone so that a fresh clone builds incrementally.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PAGETREE_CACHE/target}"

bash scripts/setup.sh
bash scripts/setup-desktop.sh
bash scripts/build-llama-server.sh

echo "== ui: unit tests, then typecheck and build (the app embeds ui/dist)"
(cd ui && npm ci --no-audit --no-fund --loglevel=error && npm test --silent && npm run --silent build)

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo doc (warnings denied: a broken link in a doc comment fails)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --locked
echo "== ui/src/bindings.ts is what the Rust payload types make (else: PAGETREE_WRITE_BINDINGS=1 cargo test -p pagetree-app bindings)"
cargo test -p pagetree-app --locked bindings
echo "== cargo test"
cargo test --workspace --locked

echo "== desktop app: build, then end-to-end in the real window"
cargo build -p pagetree-app --locked
bash e2e/run.sh

echo "== desktop package: the .deb (debug build), installed and used as a user would"
bash scripts/package.sh --debug
bash e2e/package.sh
