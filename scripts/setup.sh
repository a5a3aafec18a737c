#!/usr/bin/env bash
# Installs what the scripts need and a fresh machine with rustup lacks: the toolchain
# of rust-toolchain.toml with the wasm32-wasip1 target, and wasmtime (only when none
# is on PATH: building it takes 20+ minutes on 2 cores).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
need rustup "Install rustup: https://rustup.rs"
# Installs (or confirms) the toolchain, components and targets of rust-toolchain.toml.
rustup toolchain install
ensure_rust
ensure_wasmtime
say "ready: $(rustc --version), $(wasmtime --version)"
