#!/usr/bin/env bash
# Counted work per benchmark iteration, exact and the same on every machine for the
# same binaries: x86 instructions natively (valgrind's callgrind) and Wasm operators
# executed (wasmtime fuel, through the PyPI package), for the IDs of the count
# program (benches/examples/count.rs). Each ID runs K and 2K times between two
# markers; the count per iteration is the difference over K, and must divide
# exactly. Writes target/counts/counts.json and prints a table.
#   scripts/counts.sh [--check] [ID_REGEX]
#   --check: a small subset, twice: the counts must be equal, and the native and
#   Wasm digests must agree (make test runs this).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

check=0
[ "${1:-}" = --check ] && { check=1; shift; }
filter=${1:-.}
[ "$check" = 1 ] && filter='^(Poseidon/permutation/u29|Field/mul/u64|Field/square/reference)$'
out=$ROOT/target/counts
work=$out/work
venv=$out/venv
WASMTIME_PY=48.0.0
mkdir -p "$work"

ensure_apt valgrind valgrind || die "valgrind not found: install it (Debian: apt-get install valgrind; scripts/setup.sh does)"
ensure_apt python3 python3 || die "python3 not found: install it (Debian: apt-get install python3 python3-venv)"
if ! "$venv/bin/python" -c "import wasmtime, importlib.metadata as m; assert m.version('wasmtime') == '$WASMTIME_PY'" 2>/dev/null; then
    say "installing the PyPI package wasmtime==$WASMTIME_PY into $venv (for the fuel counts)"
    python3 -m venv "$venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$venv/bin/pip" install -q "wasmtime==$WASMTIME_PY" || die "pip install wasmtime==$WASMTIME_PY failed (needs PyPI)"
fi

say "building the count program natively and for $WASM_TARGET"
cargo build -q --release -p poseidon-benches --example count
cargo build -q --release -p poseidon-benches --example count --target "$WASM_TARGET"
native=$ROOT/target/release/examples/count
wasm=$ROOT/target/$WASM_TARGET/release/examples/count.wasm

# Iterations: K and 2K (field operations are short, so more of them).
iterations() { case "$1" in Field/*) echo 2000 ;; *) echo 20 ;; esac; }

# count_native ID K: callgrind's Ir of dump part 2 (between the markers), or exit 3.
count_native() {
    local f rc=0
    rm -f "$work"/cg.*
    valgrind --tool=callgrind --dump-before=sched_yield --callgrind-out-file="$work/cg.%p" \
        "$native" "$1" "$2" >"$work/native.out" 2>"$work/native.err" || rc=$?
    [ "$rc" = 0 ] || { grep -v '^==' "$work/native.err" >&2; return "$rc"; }
    f=$(grep -l '^part: 2$' "$work"/cg.*) || { echo "no window dump for $1" >&2; return 1; }
    sed -n 's/^totals: //p' "$f"
}
count_wasm() {
    "$venv/bin/python" "$SCRIPTS/fuel.py" "$wasm" "$1" "$2" >"$work/wasm.out" 2>"$work/wasm.err" ||
        { local rc=$?; cat "$work/wasm.err" >&2; return $rc; }
    sed -n 's/^fuel //p' "$work/wasm.out"
}
# per_iteration KIND ID: the exact count per iteration, "missing" (exit 3 of the
# count program: a path that does not run here), or an error.
per_iteration() {
    local k c1 c2 rc=0
    k=$(iterations "$2")
    c1=$("count_$1" "$2" "$k" 2>"$work/err") || rc=$?
    if [ "$rc" = 3 ]; then echo missing; return 0; fi
    [ "$rc" = 0 ] || { cat "$work/err" >&2; return 1; }
    cp "$work/$1.out" "$work/$1.digest1"
    c2=$("count_$1" "$2" $((2 * k))) || return 1
    # Branch-free code divides exactly; data-dependent code (ark-ff's final
    # subtraction) gives the exact mean over these iterations.
    if [ $(((c2 - c1) % k)) = 0 ]; then
        echo $(((c2 - c1) / k))
    else
        awk -v d=$((c2 - c1)) -v k="$k" 'BEGIN { printf "%.3f", d / k }'
    fi
}

mapfile -t ids < <("$native" --list | grep -E -- "$filter")
[ ${#ids[@]} -gt 0 ] || die "no benchmark ID matches $filter ($("$native" --list | tr '\n' ' '))"
rounds=1
[ "$check" = 1 ] && rounds=2
bad=0
declare -A first
rows=()
for round in $(seq "$rounds"); do
    for id in "${ids[@]}"; do
        n=$(per_iteration native "$id") || { bad=$((bad + 1)); continue; }
        w=$(per_iteration wasm "$id") || { bad=$((bad + 1)); continue; }
        if [ "$n" != missing ] && [ "$w" != missing ] &&
            [ "$(head -1 "$work/native.digest1")" != "$(head -1 "$work/wasm.digest1")" ]; then
            echo "FAIL  $id: native and Wasm digests differ: $(head -1 "$work/native.digest1") / $(head -1 "$work/wasm.digest1")"
            bad=$((bad + 1))
        fi
        if [ "$round" = 1 ]; then
            first[$id]="$n $w"
            rows+=("$id $n $w")
        elif [ "${first[$id]}" = "$n $w" ]; then
            echo "ok    $id: $n instructions, $w operators per iteration, twice; native and Wasm digests agree"
        else
            echo "FAIL  $id: ${first[$id]} then $n $w"
            bad=$((bad + 1))
        fi
    done
done

key=$(printf '{"rustc": "%s", "cargo_lock_sha256": "%s", "wasm_rustflags": "-C target-feature=+simd128", "profile": "release", "valgrind": "%s", "wasmtime_py": "%s"}' \
    "$(rustc --version)" "$(sha256sum Cargo.lock | cut -d' ' -f1)" "$(valgrind --version)" "$WASMTIME_PY")
{
    printf '{\n  "key": %s,\n  "counts": [\n' "$key"
    sep=""
    for r in "${rows[@]}"; do
        read -r id n w <<<"$r"
        num() { [ "$1" = missing ] && echo null || echo "$1"; }
        printf '%s    {"id": "%s", "native_instructions": %s, "wasm_operators": %s}' "$sep" "$id" "$(num "$n")" "$(num "$w")"
        sep=$',\n'
    done
    printf '\n  ]\n}\n'
} >"$out/counts.json"
printf '%-40s %16s %16s %8s\n' "benchmark (per iteration)" "x86 instructions" "wasm operators" "ratio"
for r in "${rows[@]}"; do
    read -r id n w <<<"$r"
    ratio=-
    [ "$n" != missing ] && [ "$w" != missing ] && ratio=$(awk -v a="$w" -v b="$n" 'BEGIN { printf "%.2f", a / b }')
    printf '%-40s %16s %16s %8s\n' "$id" "$n" "$w" "$ratio"
done
echo "wrote $out/counts.json (missing: a path that does not run under that tool, e.g. u52's AVX-512 IFMA under valgrind)"
if [ "$check" = 1 ]; then
    echo "$(( ${#ids[@]} - bad < 0 ? 0 : ${#ids[@]} - bad )) passed, $bad failed"
fi
[ "$bad" = 0 ]
