#!/usr/bin/env bash
# RUSTC_WRAPPER of the wide-arithmetic build (with_wide in lib.sh): compiles the
# crates named in WIDE_CRATES (default: poseidon) for wasm32 with
# `-C target-feature=+wide-arithmetic`, so their u128 products become
# i64.mul_wide_u, and everything else as usual. Confined on purpose: LLVM 22
# miscompiles some 128-bit code with the feature (llvm-project#199910), and code
# that measures (criterion, Duration's u128 arithmetic, float formatting and
# parsing) must not be built with it. The permutations the bench times are
# non-generic functions of poseidon, so they are compiled there, with it.
set -euo pipefail
rustc=$1
shift
crate="" wasm=0 prev=""
for a in "$@"; do
    case "$prev" in
        --crate-name) crate=$a ;;
        --target) case "$a" in wasm32-*) wasm=1 ;; esac ;;
    esac
    case "$a" in --target=wasm32-*) wasm=1 ;; esac
    prev=$a
done
if [ "$wasm" = 1 ] && [ -n "$crate" ]; then
    for c in ${WIDE_CRATES:-poseidon}; do
        if [ "$c" = "$crate" ]; then
            exec "$rustc" "$@" -C target-feature=+wide-arithmetic
        fi
    done
fi
exec "$rustc" "$@"
