#!/usr/bin/env bash
# Runs the Criterion benchmark natively and as wasm32-wasip1 under wasmtime and under
# Node's built-in WASI (when Node >= 20 is on PATH), saving one baseline per runtime
# (native, wasmtime, node), then prints the side-by-side table and writes report.json
# and report.md (target/bench-report/).
#
# usage: scripts/bench.sh [CRITERION ARGS...]
#   scripts/bench.sh --quick                  quick run of everything
#   scripts/bench.sh permutation              only IDs matching a regex
#   scripts/bench.sh --measurement-time 10    longer samples
#
# Environment: CRITERION_HOME (results; default target/criterion), BENCH_RUNTIMES
# (default "native wasmtime node", node only if Node >= 20 is found), BENCH_REPORT_DIR
# (default: bench-report beside the results).
# The Nix apps set BENCH_NATIVE_BIN, BENCH_WASM_BIN, BENCH_REPORT_BIN (prebuilt
# binaries: nothing is built, results are relative to the working directory) and
# BENCH_ENV (extra KEY=VALUE lines for report.json). With node, the JavaScript
# package is then benchmarked against o1js (js-report.json; BENCH_JS=0 skips it).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1:-}" in -h | --help)
    sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

default_runtimes="native wasmtime"
if have_node; then
    default_runtimes+=" node"
elif [ -z "${BENCH_RUNTIMES:-}" ]; then
    say "no Node >= 20 on PATH: skipping the node runtime"
fi
read -ra runtimes <<<"${BENCH_RUNTIMES:-$default_runtimes}"
for rt in "${runtimes[@]}"; do
    case "$rt" in native | wasmtime | node) ;; *) die "unknown runtime '$rt' in BENCH_RUNTIMES (native, wasmtime, node)" ;; esac
done
prebuilt=${BENCH_NATIVE_BIN:-}${BENCH_WASM_BIN:-}
if [ -z "$prebuilt" ]; then
    cd "$ROOT" # building: results go to the repository's target/
    ensure_rust
fi
case " ${runtimes[*]} " in *" wasmtime "*) ensure_wasmtime ;; esac

results=${CRITERION_HOME:-$PWD/target/criterion}
mkdir -p "$results"
results=$(cd "$results" && pwd)
report_dir=${BENCH_REPORT_DIR:-$(dirname "$results")/bench-report}

native_bin=${BENCH_NATIVE_BIN:-}
wasm_bin=${BENCH_WASM_BIN:-}
report_bin=${BENCH_REPORT_BIN:-}
if [ -z "$prebuilt" ]; then
    say "building the benchmark for the host"
    native_bin=$(bench_binary)
    say "building the benchmark for $WASM_TARGET"
    wasm_bin=$(bench_binary --target "$WASM_TARGET")
    say "building bench-report"
    cargo build -q --release -p poseidon-benches --bin bench-report
    report_bin=$ROOT/target/release/bench-report
fi

start=$(date +%s)
for rt in "${runtimes[@]}"; do
    if [ "$rt" = native ]; then
        [ -x "$native_bin" ] || die "native bench binary not found: '$native_bin'"
        say "native: $native_bin --bench --save-baseline native $*"
        CRITERION_HOME=$results "$native_bin" --bench --save-baseline native "$@"
    elif [ "$rt" = wasmtime ]; then
        [ -f "$wasm_bin" ] || die "wasm bench binary not found: '$wasm_bin'"
        say "wasmtime: $(wasmtime --version): $(basename "$wasm_bin") --bench --save-baseline wasmtime $*"
        CRITERION_HOME=$results bash "$SCRIPTS/wasm-runner.sh" "$wasm_bin" --bench --save-baseline wasmtime "$@"
    else
        [ -f "$wasm_bin" ] || die "wasm bench binary not found: '$wasm_bin'"
        say "node $(node --version) (node:wasi): $(basename "$wasm_bin") --bench --save-baseline node $*"
        CRITERION_HOME=$results bash "$SCRIPTS/node-runner.sh" "$wasm_bin" --bench --save-baseline node "$@"
    fi
done

env_args=(
    --env "cpu=$(cpu_model)"
    --env "cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo unknown)"
    --env "os=$(uname -srm)"
    --env "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    --env "criterion_args=$*"
)
command -v rustc >/dev/null 2>&1 && env_args+=(--env "rustc=$(cd "$ROOT" && rustc --version)")
command -v wasmtime >/dev/null 2>&1 && env_args+=(--env "wasmtime=$(wasmtime --version)")
case " ${runtimes[*]} " in *" node "*) env_args+=(--env "node=$(node --version)") ;; esac
[ -z "$prebuilt" ] && env_args+=(--env "git_commit=$(git_commit)")
while IFS= read -r line; do
    [ -n "$line" ] && env_args+=(--env "$line")
done <<<"${BENCH_ENV:-}"

say "comparison (median per iteration; ratio = runtime / ${runtimes[0]})"
"$report_bin" --criterion "$results" --out "$report_dir" --since "$start" "${env_args[@]}" "${runtimes[@]}"

# The JavaScript package against o1js in one Node process (js/bench.mjs), beside
# report.json. Only when building here with node among the runtimes; BENCH_JS=0 skips it.
case " ${runtimes[*]} " in *" node "*)
    if [ -z "$prebuilt" ] && [ "${BENCH_JS:-1}" != 0 ]; then
        say "the JavaScript package against o1js (js/bench.mjs)"
        if ! { js_dir=$(js_package_copy 2>/dev/null) &&
            node "$js_dir/bench.mjs" --out "$report_dir/js-report.json"; }; then
            say "warning: the JavaScript benchmark failed (needs npm and network for o1js)"
        fi
    fi ;;
esac
