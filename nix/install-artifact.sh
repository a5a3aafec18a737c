# shellcheck shell=bash
# The install phase of the bench binaries and the count program: crane's default
# install skips them (cargo marks bench targets as tests, examples are not
# installed), so take the executable of kind $artifactKind from the JSON build log
# crane keeps in $cargoBuildLog and install it as bin/$installName. Lines that are
# not JSON (a build script may print some) are skipped, as crane's own install
# does (fromjson?).
# shellcheck disable=SC2154 # cargoBuildLog, artifactKind, installName and out are the derivation's
exe=$(jq -rR --arg kind "$artifactKind" 'fromjson? | select(.reason == "compiler-artifact" and .target.kind == [$kind]
              and .executable != null) | .executable' "$cargoBuildLog" | tail -n 1)
test -n "$exe" || { echo "no $artifactKind executable in $cargoBuildLog" >&2; exit 1; }
install -Dm755 "$exe" "$out/bin/$installName"
