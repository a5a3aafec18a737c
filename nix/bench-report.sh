# shellcheck shell=bash
# packages.bench-report's build: both benchmarks inside the sandbox, everything under
# $out. The sandbox's HOME (/homeless-shelter) cannot be created: the tools get $TMPDIR.
# shellcheck disable=SC2154 # $out is the derivation's
export HOME=$TMPDIR CRITERION_HOME=$out/criterion BENCH_REPORT_DIR=$out
BENCH_RUNTIMES="native wasmtime node" "$BASH" "$BENCH_SCRIPTS/bench.sh"
