# shellcheck shell=bash
# packages.bench-report's build: the benchmarks inside the sandbox (`xtask bench`,
# as the apps run it, on the runtimes of the derivation's BENCH_RUNTIMES),
# everything under $out. The sandbox's HOME (/homeless-shelter) cannot be
# created: the tools get $TMPDIR. BENCH_ARGS, when set, are criterion's
# arguments, split at blanks (make test's replay keeps the run short with them).
# shellcheck disable=SC2154 # $out is the derivation's
export HOME=$TMPDIR CRITERION_HOME=$out/criterion BENCH_REPORT_DIR=$out
read -ra args <<<"${BENCH_ARGS:-}"
xtask bench -- ${args[@]+"${args[@]}"}
