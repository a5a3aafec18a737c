# shellcheck shell=bash
# The apps' program (writeShellApplication's text, after its errexit/nounset/pipefail,
# the runtimeEnv exports and PATH=<pinned inputs>:$PATH): bench.sh from the store,
# run by this wrapper's own shell, the pinned bash, never a bash from the caller's PATH.
exec "$BASH" "$BENCH_SCRIPTS/bench.sh" "$@"
