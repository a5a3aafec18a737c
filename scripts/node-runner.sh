#!/usr/bin/env bash
# Runs a wasm32-wasip1 module under Node's built-in WASI (scripts/node-wasi.mjs),
# the way wasm-runner.sh runs it under wasmtime. Needs Node >= 20.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v node >/dev/null 2>&1 || {
    echo "error: node not found on PATH (Node >= 20 runs wasm32-wasip1 through node:wasi)" >&2
    exit 127
}
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || {
    echo "error: Node $(node --version) is too old; node:wasi preview1 needs Node >= 20" >&2
    exit 127
}
exec node --no-warnings "$root/scripts/node-wasi.mjs" "$@"
