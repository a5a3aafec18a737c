# shellcheck shell=bash
# The bench binaries' install phase: crane's default install skips them (cargo marks
# bench targets as tests), so take the executable from the JSON build log crane keeps
# in $cargoBuildLog. Lines that are not JSON (a build script may print some) are
# skipped, as crane's own install does (fromjson?).
# shellcheck disable=SC2154 # cargoBuildLog, benchSuffix and out are the derivation's
exe=$(jq -rR 'fromjson? | select(.reason == "compiler-artifact" and .target.kind == ["bench"]
              and .executable != null) | .executable' "$cargoBuildLog" | tail -n 1)
test -n "$exe" || { echo "no bench executable in $cargoBuildLog" >&2; exit 1; }
install -Dm755 "$exe" "$out/bin/poseidon-bench$benchSuffix"
