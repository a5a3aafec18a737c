#!/usr/bin/env bash
# o1js's own Merkle structures and salted hashes against the JavaScript package's
# (js/bench/bench-structures.mjs), in one Node process: Node 24 from scripts/nodes.sh, or
# NODE=path. Arguments go to the script (--scale S, --rounds N, --module M).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
node_bin=${NODE:-}
if [ -z "$node_bin" ]; then
    bash "$SCRIPTS/nodes.sh" 24 >&2
    node_bin=$ROOT/target/nodes/24/bin/node
fi
dir=$(js_package_copy) || die "could not prepare the JavaScript package (needs npm and the registry for o1js)"
"$node_bin" "$dir/bench/bench-structures.mjs" --out "$ROOT/target/bench-report/js-structures.json" "$@"
