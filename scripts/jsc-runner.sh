#!/usr/bin/env bash
# A runner of wasm32-wasip1 programs in JavaScriptCore (like scripts/wasm-runner.sh
# for wasmtime): jsc-runner.sh [SHIM OPTIONS] MODULE [ARGS...] runs
# `jsc -m scripts/jsc-wasi.mjs` (SHIM OPTIONS: --dir HOST[::GUEST], --env KEY=VALUE)
# and exits with the program's exit code, which jsc itself cannot do (quit() exits
# 0, an uncaught exception 3): the shim writes it to a file. A program that traps
# writes none; then the runner exits with jsc's status, or 70 if that was 0.
# JSC: the shell to run (default: jsc on PATH, Debian's libjavascriptcoregtk-4.0-bin).
# jsc takes its options from the environment too (JSC_<option>=value, e.g.
# JSC_useWasmRelaxedSIMD=true), so no variable of this script starts with JSC_.
# JSC_useConcurrentJIT defaults to false here: with JavaScriptCore 2.50's concurrent
# tier-up, about 1 run in 75 of the poseidon tool trapped at random (unreachable, or
# an out-of-bounds access: 8 of 600), never under wasmtime or Node; with it off, 0 of
# 900. JSC_useConcurrentJIT=true in the environment restores the default.
set -euo pipefail
export JSC_useConcurrentJIT="${JSC_useConcurrentJIT:-false}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jsc=${JSC:-jsc}
command -v "$jsc" >/dev/null 2>&1 || {
    echo "error: $jsc not found; on Debian: apt-get install libjavascriptcoregtk-4.0-bin (or make setup)" >&2
    exit 127
}
# The exit code's file under the checkout's target/ (runs may be concurrent).
mkdir -p "$root/target/jsc-runner"
code_file=$(mktemp "$root/target/jsc-runner/exit.XXXXXX")
trap 'rm -f "$code_file"' EXIT
status=0
"$jsc" -m "$root/scripts/jsc-wasi.mjs" -- --exit-code-file "$code_file" "$@" || status=$?
code=$(cat "$code_file")
if [[ -n $code ]]; then
    exit "$code"
fi
echo "jsc-runner: the program ended without an exit code (a trap or an exception in the shim)" >&2
exit $((status == 0 ? 70 : status))
