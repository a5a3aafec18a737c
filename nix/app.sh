# shellcheck shell=bash
# The apps' program (writeShellApplication's text, after its errexit/nounset/pipefail,
# the runtimeEnv exports and PATH=<pinned inputs>:$PATH): a script of scripts/ from
# the store (bench.sh, or $APP_SCRIPT), run by this wrapper's own shell, the pinned
# bash, never a bash from the caller's PATH.
exec "$BASH" "$BENCH_SCRIPTS/${APP_SCRIPT:-bench.sh}" "$@"
