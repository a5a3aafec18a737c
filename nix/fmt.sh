# shellcheck shell=bash
# `nix fmt`: since Nix 2.25 it passes no arguments when given none, and alejandra
# given none formats stdin. Then format the flake's own files, from the flake's root:
# PRJ_ROOT where nix fmt sets it (Nix 2.25 and later), else the nearest directory
# up from here that holds a flake.nix (older Nix sets nothing and runs this in the
# caller's directory).
if [ $# -eq 0 ]; then
    root=${PRJ_ROOT:-}
    if [ -z "$root" ]; then
        root=$PWD
        while [ ! -f "$root/flake.nix" ]; do
            [ "$root" != / ] || { echo "nix fmt: no flake.nix here or above $PWD" >&2; exit 1; }
            root=${root%/*}
            root=${root:-/}
        done
    fi
    cd "$root" || exit
    set -- flake.nix nix
fi
exec alejandra "$@"
