#!/usr/bin/env bash
# Runs the Criterion benchmark natively, as wasm32-wasip1 under wasmtime, and under
# each Node's built-in WASI (one runtime per Node: node20, node24, …), saving one
# baseline per runtime, then prints the side-by-side table and writes report.json
# and report.md (target/bench-report/).
#
# usage: scripts/bench.sh [CRITERION ARGS...]
#   scripts/bench.sh --quick                  quick run of everything
#   scripts/bench.sh permutation              only IDs matching a regex
#   scripts/bench.sh --measurement-time 10    longer samples
#
# Environment:
#   PROOF_SYSTEMS    a proof-systems checkout: adds backend `upstream` (mina-poseidon
#                    built from it by path, only read) and runs upstream's own
#                    poseidon_bench beside it; without it upstream is skipped
#   BENCH_RUNTIMES   default "native wasmtime wasmtime-wide node"; "node" stands
#                    for every Node runtime, node24 for one; wasmtime-wide is the
#                    module built with +wide-arithmetic (u128 products become
#                    i64.mul_wide_u), run with -W wide-arithmetic=y
#   BENCH_NODES      Nodes to run: major versions ("20 24 26", from make nodes or
#                    PATH) or paths to node binaries; default: the Node on PATH and
#                    every one under target/nodes/
#   BENCH_ROUNDS     run every runtime N times, in turn (default 1); the table
#                    gives the median of the rounds' medians (baselines rt@1 …)
#   BENCH_ARGS       more criterion arguments, split at blanks outside quotes
#                    (how make's ARGS arrives)
#   BENCH_JS=0       skip the JavaScript package against o1js (per Node, Chromium)
#   CRITERION_HOME   results (default target/criterion); BENCH_REPORT_DIR the report
# The Nix apps set BENCH_NATIVE_BIN, BENCH_WASM_BIN, BENCH_REPORT_BIN (prebuilt
# binaries: nothing is built, results are relative to the working directory) and
# BENCH_ENV (extra KEY=VALUE lines for report.json); BENCH_WIDE_BIN adds the
# wide-arithmetic module.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1:-}" in -h | --help)
    sed -n '2,32p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

split_args "${BENCH_ARGS:-}"
set -- "$@" ${SPLIT_ARGS[@]+"${SPLIT_ARGS[@]}"}
if [ "${BENCH_PRINT_ARGS:-}" = 1 ]; then # for the test of make's ARGS
    for a in "$@"; do printf '[%s]\n' "$a"; done
    exit 0
fi

prebuilt=${BENCH_NATIVE_BIN:-}${BENCH_WASM_BIN:-}
# Prebuilt (the Nix apps): the wide module only when given (BENCH_WIDE_BIN).
have_wide=1
[ -z "$prebuilt" ] || [ -n "${BENCH_WIDE_BIN:-}" ] || have_wide=0
default_runtimes="native wasmtime wasmtime-wide node"
[ "$have_wide" = 1 ] || default_runtimes="native wasmtime node"
read -ra requested <<<"${BENCH_RUNTIMES:-$default_runtimes}"

# The Nodes, looked for only when a Node runtime is asked for (bench-native has none).
nodes=""
case " ${requested[*]} " in *" node"*) nodes=$(node_runtimes) || exit 1 ;; esac
node_names=() node_bins=() # parallel arrays (bash 3.2, as on macOS, has no associative ones)
while read -r name bin; do
    [ -n "$name" ] && { node_names+=("$name"); node_bins+=("$bin"); }
done <<<"$nodes"
# node_bin RUNTIME: the node binary of a Node runtime (empty if none).
node_bin() {
    local i
    for i in "${!node_names[@]}"; do
        [ "${node_names[$i]}" = "$1" ] && { printf '%s\n' "${node_bins[$i]}"; return 0; }
    done
    return 1
}

runtimes=()
for rt in "${requested[@]}"; do
    case "$rt" in
        native | wasmtime) runtimes+=("$rt") ;;
        wasmtime-wide)
            [ "$have_wide" = 1 ] ||
                die "runtime wasmtime-wide: no prebuilt wide-arithmetic module (BENCH_WIDE_BIN); build here with make bench"
            runtimes+=("$rt") ;;
        node)
            [ ${#node_names[@]} -gt 0 ] || say "no Node >= 20 found: skipping the Node runtimes (make nodes installs pinned ones)"
            runtimes+=(${node_names[@]+"${node_names[@]}"}) ;;
        node[0-9]*)
            node_bin "$rt" >/dev/null || die "runtime $rt: no such Node among: ${node_names[*]:-none} (BENCH_NODES, make nodes)"
            runtimes+=("$rt") ;;
        *) die "unknown runtime '$rt' in BENCH_RUNTIMES (native, wasmtime, wasmtime-wide, node, node<major>)" ;;
    esac
done
[ ${#runtimes[@]} -gt 0 ] || die "no runtime to run"
wide=0
case " ${runtimes[*]} " in *" wasmtime-wide "*) wide=1 ;; esac
if [ -n "$prebuilt" ] && [ -n "${PROOF_SYSTEMS:-}" ]; then
    die "PROOF_SYSTEMS needs a build from the checkout, which the prebuilt Nix apps do not do: run nix develop, then PROOF_SYSTEMS=$PROOF_SYSTEMS make bench"
fi
if [ -z "$prebuilt" ]; then
    cd "$ROOT" # building: results go to the repository's target/
    ensure_rust
fi
case " ${runtimes[*]} " in *" wasmtime "* | *" wasmtime-wide "*) ensure_wasmtime ;; esac

results=${CRITERION_HOME:-$PWD/target/criterion}
mkdir -p "$results"
results=$(cd "$results" && pwd)
report_dir=${BENCH_REPORT_DIR:-$(dirname "$results")/bench-report}
own_results=$results-upstream-own

native_bin=${BENCH_NATIVE_BIN:-}
wasm_bin=${BENCH_WASM_BIN:-}
wide_bin=${BENCH_WIDE_BIN:-}
report_bin=${BENCH_REPORT_BIN:-}
own_native="" own_wasm="" upstream=""
if [ -z "$prebuilt" ]; then
    say "building bench-report"
    cargo build -q --release -p poseidon-benches --bin bench-report
    report_bin=$ROOT/target/release/bench-report
    if [ -n "${PROOF_SYSTEMS:-}" ]; then
        lab=$(upstream_lab "$PROOF_SYSTEMS") || exit 1
        upstream=$(upstream_commit "$PROOF_SYSTEMS")
        say "upstream: mina-poseidon from $PROOF_SYSTEMS ($upstream), built by path in $lab"
        say "building the benchmark with backend upstream for the host"
        native_bin=$(upstream_binary "$lab" lab)
        say "building the benchmark with backend upstream for $WASM_TARGET"
        wasm_bin=$(upstream_binary "$lab" lab --target "$WASM_TARGET")
        if [ "$wide" = 1 ]; then
            say "building the benchmark with backend upstream for $WASM_TARGET with +wide-arithmetic"
            wide_bin=$(with_wide upstream_binary "$lab" lab --target "$WASM_TARGET")
        fi
        if [ -f "$lab/own/Cargo.toml" ]; then
            say "building upstream's own poseidon_bench for the host and for $WASM_TARGET"
            own_native=$(upstream_binary "$lab" own)
            own_wasm=$(upstream_binary "$lab" own --target "$WASM_TARGET")
        else
            say "no poseidon/benches/poseidon_bench.rs in $PROOF_SYSTEMS: upstream's own benchmark skipped"
        fi
        rm -rf "$own_results"
    else
        say "PROOF_SYSTEMS not set: skipping upstream (set it to a proof-systems checkout to add mina-poseidon as backend upstream)"
        say "building the benchmark for the host"
        native_bin=$(bench_binary)
        say "building the benchmark for $WASM_TARGET"
        wasm_bin=$(bench_binary --target "$WASM_TARGET")
        if [ "$wide" = 1 ]; then
            say "building the benchmark for $WASM_TARGET with +wide-arithmetic"
            wide_bin=$(with_wide bench_binary --target "$WASM_TARGET")
        fi
    fi
fi

# run RUNTIME BINARY ARGS...: one bench binary on one runtime.
run() {
    local rt=$1 bin=$2
    shift 2
    case "$rt" in
        native)
            [ -x "$bin" ] || die "native bench binary not found: '$bin'"
            "$bin" "$@" ;;
        wasmtime)
            [ -f "$bin" ] || die "wasm bench binary not found: '$bin'"
            "$BASH" "$SCRIPTS/wasm-runner.sh" "$bin" "$@" ;;
        wasmtime-wide)
            [ -f "$bin" ] || die "wide-arithmetic bench binary not found: '$bin'"
            WASMTIME_FLAGS="-W wide-arithmetic=y" "$BASH" "$SCRIPTS/wasm-runner.sh" "$bin" "$@" ;;
        *)
            [ -f "$bin" ] || die "wasm bench binary not found: '$bin'"
            POSEIDON_NODE=$(node_bin "$rt") "$BASH" "$SCRIPTS/node-runner.sh" "$bin" "$@" ;;
    esac
}

# shellcheck disable=SC2016 # the Node branch's argument is a JavaScript template literal
describe() {
    case "$1" in
        native) echo "native" ;;
        wasmtime) wasmtime --version ;;
        wasmtime-wide) echo "$(wasmtime --version), wide arithmetic" ;;
        *) "$(node_bin "$1")" -p '`node ${process.version} (V8 ${process.versions.v8}, node:wasi)`' ;;
    esac
}

# Upstream's own poseidon_bench has one benchmark: it gets the run's timing options
# only, whatever the filter, so the check beside the lab's upstream row always runs.
own_opts=()
set_own_opts() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --quick | --noplot) own_opts+=("$1") ;;
            --warm-up-time | --measurement-time | --sample-size | --nresamples)
                [ $# -ge 2 ] && own_opts+=("$1" "$2") && shift ;;
        esac
        shift
    done
}
set_own_opts "$@"

rounds=${BENCH_ROUNDS:-1}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive number, not '$rounds'"
start=$(date +%s)
for ((round = 1; round <= rounds; round++)); do
    for rt in "${runtimes[@]}"; do
        bin=$native_bin own=$own_native
        [ "$rt" = native ] || bin=$wasm_bin own=$own_wasm
        [ "$rt" != wasmtime-wide ] || bin=$wide_bin own=""
        baseline=$rt
        [ "$rounds" = 1 ] || { baseline=$rt@$round; say "round $round of $rounds"; }
        say "$(describe "$rt"): $(basename "$bin") --bench --save-baseline $baseline $*"
        CRITERION_HOME=$results run "$rt" "$bin" --bench --save-baseline "$baseline" "$@"
        if [ -n "$own" ]; then
            say "$(describe "$rt"): upstream's own poseidon_bench --bench --save-baseline $baseline ${own_opts[*]:-}"
            CRITERION_HOME=$own_results run "$rt" "$own" --bench --save-baseline "$baseline" ${own_opts[@]+"${own_opts[@]}"}
        fi
    done
done

# The environment: tool versions are read without the caller's rustc when prebuilt.
# The cores from coreutils' nproc, a runtime input of the flake's apps (getconf,
# from the caller's PATH, only where there is no nproc: macOS without Nix).
env_args=(
    --env "cpu=$(cpu_model)"
    --env "cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo unknown)"
    --env "os=$(uname -srm)"
    --env "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    --env "criterion_args=$*"
    --env "rounds=$rounds"
)
if [ -z "$prebuilt" ]; then
    env_args+=(--env "rustc=$(rustc --version 2>/dev/null || echo unknown)" --env "git_commit=$(git_commit)"
        --env "rustflags=$(native_rustflags)")
fi
case " ${runtimes[*]} " in *" wasmtime "* | *" wasmtime-wide "*) env_args+=(--env "wasmtime=$(wasmtime --version)") ;; esac
for rt in "${runtimes[@]}"; do
    case "$rt" in node*) env_args+=(--env "$rt=$(describe "$rt")") ;; esac
done
[ -n "$upstream" ] && env_args+=(--env "upstream=$upstream" --env "upstream_checkout=$PROOF_SYSTEMS")
while IFS= read -r line; do
    [ -n "$line" ] && env_args+=(--env "$line")
done <<<"${BENCH_ENV:-}"
own_args=()
[ -n "$upstream" ] && [ -n "$own_native" ] && own_args=(--upstream-own "$own_results")
# The counts of make counts beside the times (when they count these sources).
if [ -n "$prebuilt" ]; then counts_file=$PWD/target/counts/counts.json; else counts_file=$ROOT/target/counts/counts.json; fi
counts_file=${BENCH_COUNTS:-$counts_file}
if [ -f "$counts_file" ]; then
    own_args+=(--counts "$counts_file")
    [ -n "$prebuilt" ] || own_args+=(--root "$ROOT")
fi

# report.svg draws js-report.json when there: not the last run's.
rm -f "$report_dir/js-report.json"
say "comparison (median per iteration; ratio = runtime / ${runtimes[0]})"
"$report_bin" --criterion "$results" --out "$report_dir" --since "$start" ${own_args[@]+"${own_args[@]}"} "${env_args[@]}" "${runtimes[@]}"

# The JavaScript package against o1js (js/bench/bench.mjs) under each Node runtime, then
# in headless Chromium, beside report.json. Only when building here; BENCH_JS=0 skips it.
js_runtimes=()
for rt in "${runtimes[@]}"; do case "$rt" in node*) js_runtimes+=("$rt") ;; esac; done
if [ ${#js_runtimes[@]} -gt 0 ] && [ -z "$prebuilt" ] && [ "${BENCH_JS:-1}" != 0 ]; then
    if js_dir=$(js_package_copy 2>/dev/null); then
        parts=()
        for rt in "${js_runtimes[@]}"; do
            say "the JavaScript package against o1js under node $("$(node_bin "$rt")" --version)"
            if "$(node_bin "$rt")" "$js_dir/bench/bench.mjs" --runtime "$rt" --out "$report_dir/js-$rt.json"; then
                parts+=("$report_dir/js-$rt.json")
            else
                say "warning: the JavaScript benchmark failed under $rt"
            fi
        done
        if ensure_chromium; then
            say "the JavaScript package against o1js in headless $(chromium --version 2>/dev/null || echo chromium)"
            if node "$js_dir/bench/bench-browser.mjs" --out "$report_dir/js-chromium.json"; then
                parts+=("$report_dir/js-chromium.json")
            else
                say "warning: the JavaScript benchmark failed in Chromium"
            fi
            say "the same with --js-flags=--wasm-wide-arithmetic (the package's wide module)"
            if node "$js_dir/bench/bench-browser.mjs" --wide --out "$report_dir/js-chromium-wide.json"; then
                parts+=("$report_dir/js-chromium-wide.json")
            else
                say "warning: the JavaScript benchmark with wide arithmetic failed in Chromium"
            fi
        else
            say "chromium not found: skipping the browser column of the JavaScript comparison"
        fi
        if [ ${#parts[@]} -gt 0 ] && node "$js_dir/bench/js-report.mjs" --out "$report_dir/js-report.json" "${parts[@]}"; then
            "$report_bin" chart "$report_dir" || say "warning: could not draw the JavaScript comparison into report.svg"
        fi
    else
        say "warning: could not prepare the JavaScript package (needs npm and the registry for o1js)"
    fi
fi
