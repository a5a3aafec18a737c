# shellcheck shell=bash
# packages.counts' build: the counts in the sandbox, counts.json under $out. The
# sandbox's HOME (/homeless-shelter) cannot be created: the tools get $TMPDIR.
# shellcheck disable=SC2154 # $out and $countFilter are the derivation's
export HOME=$TMPDIR COUNTS_OUT=$out/counts.json COUNTS_WORK=$TMPDIR/counts-work
"$BASH" "$BENCH_SCRIPTS/counts.sh" "$countFilter"
