//! What is tested where, from one list (`[workspace.metadata.tests] host-only` in
//! Cargo.toml, which nix/checks.nix reads too): the cargo arguments of make test's
//! test, doctest and clippy steps, and those each of `nix flake check`'s cargo
//! checks must have (`cargo xtask nix-review` compares them).

use std::path::Path;
use std::process::Command;

/// The host's tools (`[workspace.metadata.tests] host-only` in Cargo.toml, which
/// nix/checks.nix reads too): natively only.
pub fn host_only(root: &Path) -> Result<Vec<String>, String> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata's JSON: {e}"))?;
    json["metadata"]["tests"]["host-only"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|p| p.as_str().map(str::to_owned))
                .collect()
        })
        .ok_or_else(|| "Cargo.toml has no [workspace.metadata.tests] host-only list".into())
}

/// Where a cargo run goes: the host, or wasm32-wasip1 (under a runner).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// This machine.
    Host,
    /// wasm32-wasip1.
    Wasm,
}

/// `--exclude P` for each host-only package, for wasm runs.
pub fn excludes(target: Target, host_only: &[String]) -> Vec<String> {
    match target {
        Target::Host => Vec::new(),
        Target::Wasm => host_only
            .iter()
            .flat_map(|p| ["--exclude".to_owned(), p.clone()])
            .collect(),
    }
}

/// `cargo test`'s arguments for the workspace's tests (without `--target`):
/// make test's and checks.poseidon-test(-wasm)'s `cargoTestExtraArgs`.
pub fn test_args(target: Target, host_only: &[String]) -> Vec<String> {
    let mut a = vec!["--workspace".to_owned()];
    a.extend(excludes(target, host_only));
    a.push("--all-targets".into());
    a
}

/// `cargo test --doc`'s arguments (without `--doc` and `--target`): make test's
/// and checks.poseidon-doctest(-wasm)'s `cargoTestExtraArgs`.
pub fn doctest_args(target: Target, host_only: &[String]) -> Vec<String> {
    let mut a = vec!["--workspace".to_owned()];
    a.extend(excludes(target, host_only));
    a
}

/// `cargo clippy`'s arguments (without `--target`), for both targets: make
/// test's and checks.poseidon-clippy(-wasm)'s `cargoClippyExtraArgs`.
pub fn clippy_args() -> Vec<String> {
    ["--workspace", "--all-targets", "--", "-D", "warnings"]
        .map(str::to_owned)
        .to_vec()
}

/// The cargo arguments each of `nix flake check`'s cargo checks must have, as make
/// test runs them: (check, attribute, arguments).
pub fn flake_check_args(host_only: &[String]) -> Vec<(&'static str, &'static str, String)> {
    use Target::{Host, Wasm};
    vec![
        (
            "poseidon-clippy",
            "cargoClippyExtraArgs",
            clippy_args().join(" "),
        ),
        (
            "poseidon-clippy-wasm",
            "cargoClippyExtraArgs",
            clippy_args().join(" "),
        ),
        (
            "poseidon-test",
            "cargoTestExtraArgs",
            test_args(Host, host_only).join(" "),
        ),
        (
            "poseidon-test-wasm",
            "cargoTestExtraArgs",
            test_args(Wasm, host_only).join(" "),
        ),
        (
            "poseidon-doctest",
            "cargoTestExtraArgs",
            doctest_args(Host, host_only).join(" "),
        ),
        (
            "poseidon-doctest-wasm",
            "cargoTestExtraArgs",
            doctest_args(Wasm, host_only).join(" "),
        ),
    ]
}
