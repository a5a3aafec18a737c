#!/usr/bin/env bash
# Installs what the scripts need and a fresh machine with rustup lacks: the toolchain
# of rust-toolchain.toml with the wasm32-wasip1 target, and wasmtime (only when none
# is on PATH: building it takes 20+ minutes on 2 cores), Debian's nix-bin for the
# offline flake checks, chromium for the JavaScript package's browser check, jq
# for the flake's sandbox check, valgrind for make counts and shellcheck for make
# test's lint of the scripts (as root, where apt-get exists), and deadnix (Nix lint).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
need rustup "Install rustup: https://rustup.rs"
# Installs (or confirms) the toolchain, components and targets of rust-toolchain.toml.
rustup toolchain install
ensure_rust
ensure_wasmtime
ensure_nix || say "warning: nix not available; make test will skip the offline flake checks"
ensure_chromium || say "warning: chromium not available; make test will skip the browser check"
ensure_apt jq jq || say "warning: jq not available; the flake's sandbox check needs it (the bench install step)"
ensure_apt valgrind valgrind || say "warning: valgrind not available; make counts and its check in make test need it"
ensure_apt shellcheck shellcheck || say "warning: shellcheck not available; make test will skip the lint of the scripts"
if ! command -v deadnix >/dev/null 2>&1; then
    say "installing deadnix 1.3.1 (Nix lint used by make test and nix flake check)"
    cargo install --locked deadnix@1.3.1 || say "warning: deadnix could not be installed"
fi
say "ready: $(rustc --version), $(wasmtime --version)"
