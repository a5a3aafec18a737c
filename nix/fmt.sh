# shellcheck shell=bash
# `nix fmt`: since Nix 2.25 it passes no arguments when given none, and alejandra
# given none formats stdin. Then format the flake's own files, from the flake's root
# (PRJ_ROOT, which nix fmt sets).
if [ $# -eq 0 ]; then
    cd "${PRJ_ROOT:-.}" || exit
    set -- flake.nix nix
fi
exec alejandra "$@"
