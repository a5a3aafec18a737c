# Shared helpers for the project's scripts. Source it; do not run it.
# Every script runs from the repository root and writes only under target/
# (and, for bench results, $CRITERION_HOME when set).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
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
        if ! (cd "$ROOT" && rustup target list --installed 2>/dev/null) | grep -qx "$WASM_TARGET"; then
            say "adding the $WASM_TARGET target (rustup target add)"
            (cd "$ROOT" && rustup target add "$WASM_TARGET") || die "rustup could not add $WASM_TARGET"
        fi
    elif ! rustc --print target-libdir --target "$WASM_TARGET" >/dev/null 2>&1; then
        die "the $WASM_TARGET standard library is missing and rustup is not available to add it"
    fi
}

# wasmtime from PATH; installed from crates.io only when missing (20+ minutes on 2 cores).
ensure_wasmtime() {
    if ! command -v wasmtime >/dev/null 2>&1; then
        if [ "${POSEIDON_NO_INSTALL:-}" = 1 ]; then
            die "wasmtime not found on PATH. Install it: cargo install --locked wasmtime-cli@$WASMTIME_VERSION"
        fi
        say "wasmtime not found: installing wasmtime-cli $WASMTIME_VERSION from crates.io (20+ minutes on 2 cores)"
        cargo install --locked "wasmtime-cli@$WASMTIME_VERSION" ||
            die "installing wasmtime failed. Install it yourself: cargo install --locked wasmtime-cli@$WASMTIME_VERSION"
    fi
    local v
    v=$(wasmtime --version)
    case "$v" in
        "wasmtime $WASMTIME_VERSION"* | "wasmtime 4"[6-9].*) ;;
        *) say "warning: $v; the project is tested with wasmtime $WASMTIME_VERSION" ;;
    esac
}

# bench_binary [CARGO ARGS...]: builds the bench target and prints its executable.
bench_binary() {
    local exe
    exe=$(cargo bench --no-run --message-format=json -p poseidon-benches --bench poseidon "$@" |
        grep '"kind":\["bench"\]' | grep -o '"executable":"[^"]*"' | tail -n 1 | cut -d'"' -f4) || true
    [ -n "$exe" ] && [ -f "$exe" ] || die "could not find the built bench binary (cargo bench --no-run $*)"
    printf '%s\n' "$exe"
}

cpu_model() {
    if [ -r /proc/cpuinfo ]; then
        grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'
    elif command -v sysctl >/dev/null 2>&1; then
        sysctl -n machdep.cpu.brand_string 2>/dev/null || uname -m
    else
        uname -m
    fi
}

git_commit() {
    local c
    c=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null) || { echo unknown; return; }
    git -C "$ROOT" diff --quiet HEAD 2>/dev/null || c="$c-dirty"
    echo "$c"
}
