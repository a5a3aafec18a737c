#!/usr/bin/env bash
# Runs a wasm32-wasip1 module under Node's built-in WASI (scripts/node-wasi.mjs),
# the way wasm-runner.sh runs it under wasmtime. Needs Node >= 20: $POSEIDON_NODE,
# else the node on PATH.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
node=${POSEIDON_NODE:-node}
have_node "$node" || die "Node >= 20 not found as '$node' (node:wasi preview1 needs it; found: $("$node" --version 2>/dev/null || echo none))"
exec "$node" --no-warnings "$SCRIPTS/node-wasi.mjs" "$@"
