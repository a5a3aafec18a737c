#!/usr/bin/env bash
# The bootstrap: the toolchain of rust-toolchain.toml (rustup), so that Rust can
# run. Everything else is the xtask setup task, which make setup and .ci/run run after
# this one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v rustup >/dev/null 2>&1 || { echo "error: rustup not found. Install it: https://rustup.rs" >&2; exit 1; }
rustup toolchain install
