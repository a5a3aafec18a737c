//! `cargo xtask setup`: what the tasks need and a machine with rustup lacks,
//! installed after the bootstrap (`scripts/setup.sh`, which installs the toolchain
//! of rust-toolchain.toml so that this can run): the wasm targets, wasmtime (only
//! when none is on PATH: building it takes 20+ minutes on 2 cores), and, as root
//! where apt-get exists, Debian's nix-bin (the offline flake checks), chromium and
//! firefox-esr (the package's browser check in V8 and in SpiderMonkey),
//! webkit2gtk-driver and xvfb (WebKitGTK's MiniBrowser, the check in WebKit),
//! libjavascriptcoregtk-4.0-bin (`jsc`: the tests, the package and the lab in
//! JavaScriptCore), jq (the
//! flake's sandbox check), valgrind (the counts) and shellcheck (the lint of the
//! scripts); deadnix (Nix lint) from crates.io.

use std::path::Path;
use std::process::Command;

use super::tools::{
    cargo_bin_on_path, ensure_apt, ensure_chromium, ensure_firefox, ensure_jsc, ensure_nix,
    ensure_rust, ensure_wasmtime, ensure_webkit, on_path, run, say, version_line,
};

/// `cargo xtask setup --help`.
pub const USAGE: &str = "usage: cargo xtask setup   (after scripts/setup.sh installed the toolchain; make setup and .ci/run run both)";

/// `cargo xtask setup`: Ok(false) never; a tool that cannot be had is a warning,
/// except Rust's targets and wasmtime, which every tier needs.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    if !args.is_empty() {
        return Err(String::new());
    }
    cargo_bin_on_path();
    ensure_rust(root)?;
    ensure_wasmtime()?;
    let warn = |ok: bool, what: &str| {
        if !ok {
            say(&format!("warning: {what}"));
        }
    };
    warn(
        ensure_nix(),
        "nix not available; make test will skip the offline flake checks",
    );
    warn(
        ensure_chromium(),
        "chromium not available; make test will skip the browser check",
    );
    warn(
        ensure_firefox(),
        "firefox-esr not available; make test will skip the browser check in Firefox",
    );
    warn(
        ensure_webkit(),
        "webkit2gtk-driver or xvfb not available; make test will skip the browser check in WebKit",
    );
    warn(
        ensure_jsc(),
        "jsc (libjavascriptcoregtk-4.0-bin) not available; make test will skip JavaScriptCore",
    );
    warn(
        ensure_apt("jq", "jq"),
        "jq not available; the flake's sandbox check needs it (the bench install step)",
    );
    warn(
        ensure_apt("valgrind", "valgrind"),
        "valgrind not available; make counts and its check in make test need it",
    );
    warn(
        ensure_apt("shellcheck", "shellcheck"),
        "shellcheck not available; make test will skip the lint of the scripts",
    );
    if !on_path("deadnix") {
        say("installing deadnix 1.3.1 (Nix lint used by make test and nix flake check)");
        let got = run(
            Command::new("cargo").args(["install", "--locked", "deadnix@1.3.1"]),
            "cargo install deadnix",
        );
        warn(got.is_ok(), "deadnix could not be installed");
    }
    say(&format!(
        "ready: {}, {}",
        version_line("rustc", &["--version"], "rustc ?"),
        version_line("wasmtime", &["--version"], "wasmtime ?")
    ));
    Ok(true)
}
