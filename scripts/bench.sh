#!/usr/bin/env bash
# Runs the Criterion benchmark natively and as wasm32-wasip1 under wasmtime, saving
# one baseline per runtime (native, wasmtime), then prints the side-by-side table and
# writes target/bench-report/report.{json,md}.
#
# usage: scripts/bench.sh [CRITERION ARGS...]
#   scripts/bench.sh --quick                  quick run of everything
#   scripts/bench.sh permutation              only IDs matching a regex
#   scripts/bench.sh --measurement-time 10    longer samples
# Results go to $CRITERION_HOME (default target/criterion).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

case "${1:-}" in -h | --help)
    sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

ensure_rust
ensure_wasmtime

results=${CRITERION_HOME:-$ROOT/target/criterion}
mkdir -p "$results"
results=$(cd "$results" && pwd)
report_dir=$ROOT/target/bench-report

say "building the benchmark for the host"
native_bin=$(bench_binary)
say "building the benchmark for $WASM_TARGET"
wasm_bin=$(bench_binary --target "$WASM_TARGET")
say "building bench-report"
cargo build -q --release -p poseidon-benches --bin bench-report

start=$(date +%s)
say "native: $native_bin --bench --save-baseline native $*"
CRITERION_HOME=$results "$native_bin" --bench --save-baseline native "$@"
say "wasmtime: $(wasmtime --version): $(basename "$wasm_bin") --bench --save-baseline wasmtime $*"
CRITERION_HOME=$results "$ROOT/scripts/wasm-runner.sh" "$wasm_bin" --bench --save-baseline wasmtime "$@"

say "comparison (median per iteration; ratio = wasmtime / native)"
"$ROOT/target/release/bench-report" --criterion "$results" --out "$report_dir" --since "$start" \
    --env "rustc=$(rustc --version)" \
    --env "wasmtime=$(wasmtime --version)" \
    --env "cpu=$(cpu_model)" \
    --env "cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo unknown)" \
    --env "os=$(uname -srm)" \
    --env "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    --env "git_commit=$(git_commit)" \
    --env "criterion_args=$*" \
    native wasmtime
