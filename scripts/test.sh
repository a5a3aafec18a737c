#!/usr/bin/env bash
# Runs every check on both targets: formatting, clippy (host and wasm32-wasip1),
# the tests natively, under wasmtime and under Node's node:wasi (Node >= 20), the
# bench binary as a smoke test on each, `poseidon check` on the vector files with
# the native and the wasm tool, and the offline flake checks (Debian's nix-bin is
# installed when nix is missing).
# Ends with the five slowest steps and one summary line: `tests: N passed, M failed`.
#
# usage: scripts/test.sh        (logs in target/test-logs/)
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT" || exit 1

case "${1:-}" in -h | --help)
    sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

ensure_rust
ensure_wasmtime

logs=$ROOT/target/test-logs
rm -rf "$logs" && mkdir -p "$logs"
passed=0 failed=0 n=0
failed_steps=() times=()

# step NAME CMD...: runs CMD, shows and logs its output, counts what it reports.
step() {
    local name=$1 log rc p f t0=$SECONDS
    shift
    n=$((n + 1))
    log=$(printf '%s/%02d-%s.log' "$logs" "$n" "${name//[^A-Za-z0-9._+-]/-}")
    say "[$n] $name"
    "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]} && [ -f "$log" ] || rc=97 # no log to count from: a failed step
    # libtest: "test result: ok. 12 passed; 0 failed; …"; criterion's test mode: "Success";
    # our checks: "N passed, M failed".
    p=$(sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed.*/\1/p; s/^\([0-9]*\) passed, [0-9]* failed$/\1/p
        s/^Success$/1/p' "$log" | awk '{s+=$1} END {print s+0}')
    f=$(sed -n 's/^test result: .* \([0-9]*\) failed;.*/\1/p; s/^[0-9]* passed, \([0-9]*\) failed$/\1/p' "$log" |
        awk '{s+=$1} END {print s+0}')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ]; then failed_steps+=("$name (exit $rc, log $log)"); fi
    times+=("$(printf '%5d s  [%d] %s' $((SECONDS - t0)) "$n" "$name")")
}

native_tool=$ROOT/target/release/poseidon
wasm_tool=$ROOT/target/$WASM_TARGET/release/poseidon.wasm
report=$ROOT/target/release/bench-report
shared=$ROOT/../shared/vectors

# The tool on one runtime (bench-report tool-checks: bad input and every backend):
# the vectors, ../shared's when present, and the permutation files that the native
# tool wrote (so the wasm tools re-check native results).
tool_checks() {
    local files=(poseidon/tests/data/kimchi.json poseidon/tests/data/legacy.json
        target/test-logs/kimchi-permutation.json target/test-logs/kimchi-fq-permutation.json)
    local tool=("$native_tool") extra=()
    case $1 in
    wasm)
        [ -d "$shared" ] && extra=(--dir="$shared::shared-vectors") &&
            files+=(shared-vectors/kimchi.json shared-vectors/legacy.json)
        tool=(wasmtime run --dir=. "${extra[@]}" "$wasm_tool") ;;
    nodewasi)
        # node:wasi preopens only the working directory: check copies of the shared files.
        [ -d "$shared" ] && mkdir -p target/test-logs/shared-vectors &&
            cp "$shared/kimchi.json" "$shared/legacy.json" target/test-logs/shared-vectors/ &&
            files+=(target/test-logs/shared-vectors/kimchi.json target/test-logs/shared-vectors/legacy.json)
        tool=(bash "$SCRIPTS/node-runner.sh" "$wasm_tool") ;;
    *) [ -d "$shared" ] && files+=("$shared/kimchi.json" "$shared/legacy.json") ;;
    esac
    local checks=()
    for f in "${files[@]}"; do checks+=(--check "$f"); done
    "$report" tool-checks "${checks[@]}" -- "${tool[@]}"
}

# The instructions the compiler chose, per function (bench-report hot-ops, its table
# in benches/src/wasm_ops.rs): no __multi3 in the u29 probe, extmul and never the
# 3-multiply i64x2.mul in the four-lane kernels, relaxed_madd only in the fma kernels,
# i64.mul_wide_u in the wide builds. On the wasip1 bench modules and the package's.
wasm_instructions() {
    local probe=target/$WASM_TARGET/release/examples/u29_probe.wasm bench wide pkg=$ROOT/target/js-package/dist
    cargo build -q --release -p poseidon --example u29_probe --target "$WASM_TARGET" &&
        bench=$(bench_binary --target "$WASM_TARGET") && wide=$(with_wide bench_binary --target "$WASM_TARGET") &&
        { [ -f "$pkg/poseidon-wide.wasm" ] || js_package_copy >/dev/null; } &&
        "$report" hot-ops "probe=$probe" "bench=$bench" "simd=$pkg/poseidon-simd.wasm" "fma=$pkg/poseidon-fma.wasm" \
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

# fma_kernel [chromium]: the generated FMA kernel module (benches/src/fma_kernel.rs)
# against o1js under Node 24 (Turboshaft, relaxed SIMD on), and in Chromium.
fma_kernel() {
    local dir=$ROOT/target/js-package
    bash "$SCRIPTS/nodes.sh" 24 >&2 && "$report" fma-kernel --out "$dir/fma/kimchi-fp.wasm" &&
        (cd "$dir" && "$ROOT/target/nodes/24/bin/node" fma-kernel.mjs fma/kimchi-fp.wasm --check) &&
        if [ "${1:-}" = chromium ]; then (cd "$dir" && node fma-kernel.mjs fma/kimchi-fp.wasm --check --chromium); fi
}

# The flake, offline: syntax of every .nix file, and flake.lock complete and
# consistent with flake.nix (the full `nix flake check` runs in the GitHub workflow).
nix_parse() {
    local f bad=0
    for f in flake.nix nix/*.nix nix/offline/*.nix; do
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
# with decoy tools, on this machine's stand-ins for the pinned packages (bench-report
# nix-sandbox, evaluating nix/offline/eval.nix); the stand-ins for nodejs_22 and
# nodejs_24 are the pinned Nodes of scripts/nodes.sh.
nix_sandbox() {
    local log=$logs/bench-build.json wasm
    bash "$SCRIPTS/nodes.sh" 22 24 >&2 || return 1
    cargo build -q --release -p poseidon-benches --bin bench-report || return 1
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
    target/release/bench-report nix-sandbox --root "$ROOT" --work "$ROOT/target/nix-sandbox" \
        --poseidon "$native_tool" --poseidon-wasm "$wasm_tool" --bench "$(bench_executable <"$log")" \
        --bench-wasm "$wasm" --cargo-log "$log" \
        --node22 target/nodes/22/bin/node --node24 target/nodes/24/bin/node ${counts[@]+"${counts[@]}"}
}

# make's ARGS reaches criterion as typed (bench-report make-args: regexes with ( | $ \,
# quoted spaces, an unclosed quote).
make_args_check() {
    cargo build -q --release -p poseidon-benches --bin bench-report && "$report" make-args --root "$ROOT"
}

step "fmt" cargo fmt --all -- --check
step "make bench ARGS reach criterion as typed" make_args_check
if command -v shellcheck >/dev/null 2>&1; then
    step "shellcheck" shellcheck -x scripts/*.sh nix/*.sh .ci/run
fi
step "clippy host" cargo clippy --workspace --all-targets -- -D warnings
step "clippy $WASM_TARGET" cargo clippy --workspace --all-targets --target "$WASM_TARGET" -- -D warnings
step "clippy wasm32-unknown-unknown, the package's fma module (relaxed-simd, cfg poseidon_fma)" \
    env CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128,+relaxed-simd --cfg poseidon_fma" \
    cargo clippy -p poseidon -p poseidon-js --target wasm32-unknown-unknown --target-dir target/js-fma -- -D warnings
step "tests host" cargo test --workspace --all-targets
step "doctests host" cargo test --workspace --doc
step "tests $WASM_TARGET (wasmtime)" cargo test --workspace --all-targets --target "$WASM_TARGET"
step "doctests $WASM_TARGET (wasmtime)" cargo test --workspace --doc --target "$WASM_TARGET"
# .cargo/config.toml builds wasm with +simd128; engines without SIMD get the plain-lane
# fallback of the two-lane code: test that build too (its own target dir).
step "backend tests $WASM_TARGET without simd128 (wasmtime)" \
    env CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="" cargo test -p poseidon --lib --test backends \
    --target "$WASM_TARGET" --target-dir target/wasm-no-simd
step "tests $WASM_TARGET with +wide-arithmetic (wasmtime -W wide-arithmetic=y)" \
    with_wide env WASMTIME_FLAGS="-W wide-arithmetic=y" cargo test -p poseidon --target "$WASM_TARGET"
step "build tool host" cargo build --release -p poseidon --bin poseidon
step "build bench-report host" cargo build --release -p poseidon-benches --bin bench-report
step "build tool $WASM_TARGET" cargo build --release -p poseidon --bin poseidon --target "$WASM_TARGET"
step "permutation files (native tool)" "$report" permutation-files target/test-logs -- "$native_tool"
step "poseidon check host" tool_checks native
step "poseidon check $WASM_TARGET (wasmtime)" tool_checks wasm
if have_node node; then
    # The same wasm tests, bench smoke test and tool, under V8 (Node's node:wasi).
    step "tests $WASM_TARGET (node $(node --version))" \
        env CARGO_TARGET_WASM32_WASIP1_RUNNER="$SCRIPTS/node-runner.sh" \
        cargo test --workspace --all-targets --target "$WASM_TARGET"
    step "poseidon check $WASM_TARGET (node)" tool_checks nodewasi
    step "js package: copy under target, npm install, build its four modules" js_package_copy
    for m in scalar simd fma; do
        step "js package, module $m: vectors, input checks, o1js cross-check (node --test)" js_package $m
    done
    step "js package, module fma on an unfused multiply-add (node 24 --no-enable-fma3): its fallback" \
        js_package fma --no-enable-fma3
    step "js package, every module under wasmtime against o1js (wide: no Node runs it)" node target/js-package/wasmtime-check.mjs
    if ensure_chromium; then
        step "js package: browser check (headless chromium)" \
            env POSEIDON_VECTORS="$ROOT/poseidon/tests/data" node target/js-package/browser-check.mjs
        step "js package as users get it: npm pack, offline install, ESM import, tsc --strict, esbuild bundle in chromium" \
            node target/js-package/pack-check.mjs
        step "FMA kernel: the generated module against o1js (node 24, chromium)" fma_kernel chromium
    elif [ "${CI:-}" = true ]; then
        step "js package: install chromium" false
    else
        say "chromium not found and not installable here: skipping the browser check"
    fi
else
    say "no Node >= 20 on PATH: skipping the tests under node:wasi"
fi
step "wasm instructions of the hot functions (bench modules, package modules)" wasm_instructions
step "lane probes of the README (f64x2; i32x4.dot_i16x8_s) against ark-ff and the permutation (wasmtime)" \
    bash -c "cargo build -q --release -p poseidon --example f64x2_probe --example dot_probe --target $WASM_TARGET &&
        wasmtime run target/$WASM_TARGET/release/examples/f64x2_probe.wasm 1000 &&
        wasmtime run target/$WASM_TARGET/release/examples/dot_probe.wasm 6400"
if ensure_apt valgrind valgrind; then
    step "counts: the same exact counts twice, native and Wasm digests agree (callgrind natively and of wasmtime's code, wasmtime fuel)" \
        bash "$SCRIPTS/counts.sh" --check
elif [ "${CI:-}" = true ]; then
    step "counts: install valgrind" false
else
    say "valgrind not found and not installable here: skipping the counts check (apt-get install valgrind)"
fi
step "bench smoke run $WASM_TARGET with +wide-arithmetic (wasmtime -W wide-arithmetic=y)" \
    env WASMTIME_FLAGS="-W wide-arithmetic=y" bash "$SCRIPTS/wasm-runner.sh" "$(with_wide bench_binary --target "$WASM_TARGET")"
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
    cargo build -q --release -p poseidon-benches --bin bench-report || return 1
    lab=$(upstream_lab "$PROOF_SYSTEMS" "$ROOT/target/release/bench-report") || return 1
    echo "upstream: $PROOF_SYSTEMS at $(upstream_commit "$PROOF_SYSTEMS")"
    upstream_binary "$lab" lab >"$lab/native.path" || return 1
    upstream_binary "$lab" lab --target "$WASM_TARGET" >"$lab/wasmtime.path" || return 1
    cp "$lab/wasmtime.path" "$lab/node.path"
    echo "1 passed, 0 failed"
}
if [ -n "${PROOF_SYSTEMS:-}" ]; then
    step "upstream: build the lab from PROOF_SYSTEMS" upstream_build
    step "upstream: bench smoke run native" upstream_smoke native
    step "upstream: bench smoke run $WASM_TARGET (wasmtime)" upstream_smoke wasmtime
    have_node node && step "upstream: bench smoke run $WASM_TARGET (node)" upstream_smoke node
else
    say "PROOF_SYSTEMS not set: skipping upstream (the bench smoke run with mina-poseidon as backend upstream)"
fi
if ensure_nix; then
    export_offline_nix_config
    step "nix: parse every .nix file" nix_parse
    step "nix: flake.lock matches flake.nix" nix_lock
    if command -v deadnix >/dev/null 2>&1; then
        step "nix: deadnix" deadnix --fail flake.nix nix
    else
        say "deadnix not on PATH: skipping the unused-binding lint (make setup installs it)"
    fi
    step "nix: the flake's shell steps in a sandbox, the apps among decoy tools" nix_sandbox
elif [ "${CI:-}" = true ]; then
    step "nix: install nix-bin" false
else
    say "nix not found and not installable here: skipping the offline flake checks (install nix-bin or Nix)"
fi

echo
say "the slowest steps of $((SECONDS / 60)) min:"
printf '%s\n' "${times[@]}" | sort -rn | head -5
if [ ${#failed_steps[@]} -gt 0 ]; then
    say "failed steps:"
    printf '  %s\n' "${failed_steps[@]}"
else
    say "all $n steps passed (logs in target/test-logs)"
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failed_steps[@]} -eq 0 ]
