# shellcheck shell=bash
# Shared helpers for the project's scripts. Source it; do not run it.
# The scripts run from any directory and write only under target/ (bench results:
# $CRITERION_HOME when set). The Nix apps run the same scripts from the store.

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SCRIPTS/.." && pwd)
WASM_TARGET=wasm32-wasip1
WASMTIME_VERSION=48.0.8
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

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
    exe=$(cargo bench --no-run --message-format=json -p poseidon-benches --bench poseidon "$@" |
        grep '"kind":\["bench"\]' | grep -o '"executable":"[^"]*"' | tail -n 1 | cut -d'"' -f4) || true
    [ -n "$exe" ] && [ -f "$exe" ] && { printf '%s\n' "$exe"; return; }
    die "could not find the built bench binary (cargo bench --no-run $*)"
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

# Nix for the offline flake checks: Debian's nix-bin when nix is missing and apt
# can install it (as root, as in CI); returns non-zero if there is still no nix.
ensure_nix() {
    command -v nix >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "nix not found: installing Debian's nix-bin (apt-get install -y nix-bin)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q nix-bin >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nix-bin >/dev/null 2>&1; }
    fi
    command -v nix >/dev/null 2>&1
}

# A copy of the JavaScript package in target/js-package, built (dist/) and with its
# npm dev dependencies installed, so that nothing is written into js/. Prints its path.
# npm ci rejects the lock file for o1js's per-platform optional packages; the versions
# are pinned by package.json (exact) and package-lock.json either way.
js_package_copy() {
    local dir=$ROOT/target/js-package
    mkdir -p "$dir" &&
        (cd "$ROOT/js" && cp -r index.js index.d.ts package.json package-lock.json test browser \
            build.mjs bench.mjs timing.mjs browser-check.mjs "$dir"/) &&
        node "$ROOT/js/build.mjs" --out "$dir" >&2 &&
        (cd "$dir" && npm install --no-audit --no-fund >&2) &&
        printf '%s\n' "$dir"
}

# Whether Node >= 20 (node:wasi preview1) is on PATH.
have_node() {
    command -v node >/dev/null 2>&1 && [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 20 ]
}

# Chromium for the JavaScript package's browser check: from PATH, else Debian's
# package (as root, where apt-get exists).
ensure_chromium() {
    command -v chromium >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "chromium not found: installing Debian's chromium (apt-get install -y chromium)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; }
    fi
    command -v chromium >/dev/null 2>&1
}

# Settings that let Nix 2.8 check a flake offline (no substituters, no registry).
export_offline_nix_config() {
    export NIX_CONFIG=$'experimental-features = nix-command flakes\nsubstituters =\nflake-registry = /dev/null'
}
