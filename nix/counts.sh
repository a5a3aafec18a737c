# shellcheck shell=bash
# packages.counts' build (`xtask counts`, as apps.counts runs it): the counts in the
# sandbox, counts.json under $out; countFilter is an ID regex, or --check (the check's
# small subset, counted twice). The sandbox's HOME (/homeless-shelter) cannot be
# created: the tools get $TMPDIR.
# shellcheck disable=SC2154 # $out and $countFilter are the derivation's
export HOME=$TMPDIR COUNTS_OUT=$out/counts.json COUNTS_WORK=$TMPDIR/counts-work
if [ "$countFilter" = --check ]; then
    xtask counts --check
else
    xtask counts -- "$countFilter"
fi
