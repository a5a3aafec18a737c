# shellcheck shell=bash
# The apps' program (writeShellApplication's text, after its errexit/nounset/pipefail,
# the runtimeEnv exports and PATH=<pinned inputs>:$PATH): the orchestrator's task
# (`xtask bench`, or $APP_TASK), as `cargo xtask` runs it from a checkout, on the
# prebuilt programs the environment names; the app's arguments go to the program
# it measures, as typed.
exec xtask "${APP_TASK:-bench}" -- "$@"
