#!/usr/bin/env bash
# The bootstrap: the toolchain of rust-toolchain.toml (rustup), so that Rust can
# run; then `cargo xtask setup` installs the rest (wasm targets, wasmtime, Debian
# packages as root, deadnix).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v rustup >/dev/null 2>&1 || { echo "error: rustup not found. Install it: https://rustup.rs" >&2; exit 1; }
rustup toolchain install
exec cargo xtask setup
