#!/usr/bin/env bash
# Counted work per benchmark iteration, exact and the same on every machine for the
# same binaries: x86 instructions natively (valgrind's callgrind), Wasm operators
# executed (wasmtime fuel) and x86 instructions of wasmtime's compiled code (a module
# precompiled for pinned Cranelift flags, under callgrind), both through the PyPI
# package wasmtime, for the IDs of the count program (bench/examples/count.rs).
# bench-report counts does the measuring (bench/src/counts.rs); this script
# installs what it needs and builds the program. Writes target/counts/counts.json,
# which make bench shows beside the times. With PROOF_SYSTEMS (a proof-systems
# checkout), the lab's count program, which also counts backend upstream.
#   scripts/counts.sh [--check] [ID_REGEX]
#   --check: a small subset, twice: the counts must be equal, and the native and
#   Wasm digests must agree (make test runs this).
# Prebuilt (the Nix app and package): COUNT_NATIVE_BIN, COUNT_WASM_BIN,
# BENCH_REPORT_BIN (also alone: a built bench-report), COUNT_PYTHON (with wasmtime installed); COUNTS_OUT (default
# ./target/counts/counts.json), COUNTS_WORK; the key from COUNT_ROOT (the sources),
# COUNT_RUSTC (its --version) and COUNT_KEY (KEY=VALUE lines).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

check=0
[ "${1:-}" = --check ] && { check=1; shift; }
filter=${1:-.}
[ "$check" = 1 ] && filter='^(Poseidon/permutation/u29|Field/mul/u64|Field/square/reference)$'
native=${COUNT_NATIVE_BIN:-}
keys=()
if [ -z "$native" ]; then
    cd "$ROOT"
    out=${COUNTS_OUT:-$ROOT/target/counts/counts.json}
    work=$ROOT/target/counts/work
    ensure_apt valgrind valgrind || die "valgrind not found: install it (Debian: apt-get install valgrind; scripts/setup.sh does)"
    python=$(ensure_wasmtime_py) || exit 1
    # BENCH_REPORT_BIN, when set, is used here too (make test passes the one its
    # tests built); the count program is always built here, in release.
    report=${BENCH_REPORT_BIN:-}
    if [ -z "$report" ]; then
        say "building bench-report"
        cargo build -q --release -p poseidon-benches --bin bench-report
        report=$ROOT/target/release/bench-report
    fi
    if [ -n "${PROOF_SYSTEMS:-}" ]; then
        # The lab's count program: ours and backend upstream, from the checkout.
        lab=$(upstream_lab "$PROOF_SYSTEMS") || exit 1
        say "building the count program with backend upstream ($PROOF_SYSTEMS) natively and for $WASM_TARGET"
        native=$(upstream_count "$lab") || exit 1
        wasm=$(upstream_count "$lab" --target "$WASM_TARGET") || exit 1
        keys+=(--key "upstream=$(upstream_commit "$PROOF_SYSTEMS")")
    else
        say "building the count program natively and for $WASM_TARGET"
        cargo build -q --release -p poseidon-benches --example count
        cargo build -q --release -p poseidon-benches --example count --target "$WASM_TARGET"
        native=$ROOT/target/release/examples/count
        wasm=$ROOT/target/$WASM_TARGET/release/examples/count.wasm
    fi
    keys+=(--root "$ROOT" --key "rustc=$(rustc --version)" --key "profile=release"
        --key "rustflags=$(native_rustflags)"
        --key "wasm_rustflags=${RUSTFLAGS:-${CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS:-.cargo/config.toml}}")
else
    need valgrind "valgrind must be on PATH"
    wasm=$COUNT_WASM_BIN report=$BENCH_REPORT_BIN python=$COUNT_PYTHON
    out=${COUNTS_OUT:-$PWD/target/counts/counts.json}
    work=${COUNTS_WORK:-$(dirname "$out")/work}
    [ -z "${COUNT_ROOT:-}" ] || keys+=(--root "$COUNT_ROOT")
    [ -z "${COUNT_RUSTC:-}" ] || keys+=(--key "rustc=$("$COUNT_RUSTC" --version)")
fi
while IFS= read -r line; do
    [ -n "$line" ] && keys+=(--key "$line")
done <<<"${COUNT_KEY:-}"

mapfile -t ids < <("$native" --list | grep -E -- "$filter")
[ ${#ids[@]} -gt 0 ] || die "no benchmark ID matches $filter ($("$native" --list | tr '\n' ' '))"
rounds=1
[ "$check" = 1 ] && rounds=2
say "counting ${#ids[@]} IDs, K and 2K iterations each (about 25 s per ID: callgrind runs wasmtime)"
"$report" counts --native "$native" --wasm "$wasm" --python "$python" \
    --script "$SCRIPTS/wasm-count.py" --work "$work" --out "$out" --rounds "$rounds" \
    "${keys[@]}" "${ids[@]}"
