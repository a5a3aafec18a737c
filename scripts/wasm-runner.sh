#!/usr/bin/env bash
# cargo's runner for wasm32-wasip1 (see .cargo/config.toml), also of make test's wasm runs:
# runs a module under wasmtime with the working directory visible to it, and
# criterion's results directory ($CRITERION_HOME, default target/criterion of the
# repository) mapped in, so `cargo bench --target wasm32-wasip1` saves where the
# native run does. WASMTIME_FLAGS: more options for `wasmtime run` (split at blanks),
# e.g. "-W wide-arithmetic=y" for the wide-arithmetic build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v wasmtime >/dev/null 2>&1 || {
    echo "error: wasmtime not found on PATH; install it with: cargo install --locked wasmtime-cli@48.0.8 (or make setup)" >&2
    exit 127
}
results=${CRITERION_HOME:-$root/target/criterion}
mkdir -p "$results"
# wasmtime 48: arguments after the module go to the program.
read -ra flags <<<"${WASMTIME_FLAGS:-}"
exec wasmtime run ${flags[@]+"${flags[@]}"} --dir=. --dir="$results::/criterion" --env CRITERION_HOME=/criterion "$@"
