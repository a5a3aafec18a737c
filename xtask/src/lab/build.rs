//! How the lab's programs are built: cargo's JSON messages read for the
//! executable, the wide-arithmetic Wasm build's settings, and the crates that
//! build mina-poseidon from a proof-systems checkout.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::tools::{io, say};
use super::WASM;

/// The executable of target kind `kind` ("bench", "example", "bin") in cargo's
/// `--message-format=json` output (the last one; other lines are ignored).
pub fn executable(json: &str, kind: &str) -> Option<PathBuf> {
    json.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["kind"][0] == kind)
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .next_back()
}

/// The compiler's errors in cargo's JSON messages, as rustc renders them.
pub fn rendered_errors(json: &str) -> String {
    json.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-message" && m["message"]["level"] == "error")
        .filter_map(|m| m["message"]["rendered"].as_str().map(str::to_owned))
        .collect()
}

/// The settings of the wide-arithmetic Wasm build, in its own target directories:
/// crate poseidon is compiled with +wide-arithmetic (u128 products become
/// `i64.mul_wide_u`) by the wrapper `scripts/rustc-wide.sh`, every other crate as
/// usual (see there why), and without LTO (with it, code of other crates came out
/// wrong too: the bench's own float parsing failed); `--cfg poseidon_wide` makes
/// the bench binary check its float formatting and time the u64 permutation by the
/// wall clock. Its modules run under `wasmtime run -W wide-arithmetic=y`.
pub fn wide(cmd: &mut Command, root: &Path) {
    cmd.env("CARGO_TARGET_DIR", root.join("target/wasm-wide"))
        .env("RUSTC_WRAPPER", root.join(RUSTC_WIDE))
        .envs(WIDE_ENV);
}

/// The wide build's compiler wrapper, relative to the checkout.
pub const RUSTC_WIDE: &str = "scripts/rustc-wide.sh";

/// The wide build's variables besides its target directory and [`RUSTC_WIDE`]:
/// the flake's `bench-wide` sets the same (`cargo xtask nix-sandbox` compares).
pub const WIDE_ENV: [(&str, &str); 3] = [
    ("CARGO_PROFILE_BENCH_LTO", "false"),
    ("CARGO_PROFILE_RELEASE_LTO", "false"),
    (
        "CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS",
        "-C target-feature=+simd128 --cfg poseidon_wide",
    ),
];

/// The settings of the fma Wasm build, in its own target directory: relaxed SIMD
/// and `--cfg poseidon_fma`, which give the benchmark the JavaScript package's
/// backend `fma` (rows `fma`) importing the generated kernels that [`merge_fma`]
/// merges in.
fn fma(cmd: &mut Command, root: &Path) {
    cmd.env("CARGO_TARGET_DIR", root.join("target/wasm-fma"))
        .envs(FMA_ENV);
}

/// The fma build's variables besides its target directory: the flake's
/// `bench-fma` builds with the same (`cargo xtask nix-sandbox` compares).
pub const FMA_ENV: [(&str, &str); 1] = [(
    "CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS",
    "-C target-feature=+simd128,+relaxed-simd --cfg poseidon_fma",
)];

/// The benchmark's fma build with the kernels merged in (binaryen from
/// [`super::js::binaryen`]): `target/wasm-fma/bench-fma.wasm`.
pub fn fma_bench(root: &Path) -> Result<PathBuf, String> {
    let module = bench_binary(root, Flavor::Fma)?;
    let binaryen = super::js::binaryen(root)?;
    let out = root.join("target/wasm-fma/bench-fma.wasm");
    merge_fma(
        Command::new("cargo").current_dir(root),
        &module,
        &binaryen,
        &out,
    )?;
    Ok(out)
}

/// `fma-kernel --merge`: the generated kernels merged into `module`, written to
/// `out`; `cargo` is the command to start from (its directory, manifest and target
/// directory choose which tree's generator runs).
pub fn merge_fma(
    cargo: &mut Command,
    module: &Path,
    binaryen: &Path,
    out: &Path,
) -> Result<(), String> {
    super::tools::run(
        cargo
            .args(["run", "-q", "-p", "poseidon-fma-kernel", "--", "--merge"])
            .arg(module)
            .arg("--binaryen")
            .arg(binaryen)
            .arg("--out")
            .arg(out),
        "merging the FMA kernels into the benchmark (fma-kernel --merge)",
    )
}

/// How a program is built: for which target, with the wide-arithmetic settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// This machine.
    Host,
    /// wasm32-wasip1.
    Wasm,
    /// wasm32-wasip1 with +wide-arithmetic in crate poseidon.
    Wide,
    /// wasm32-wasip1 with relaxed SIMD and the package's backend `fma`.
    Fma,
}

impl Flavor {
    fn apply(self, cmd: &mut Command, root: &Path) {
        if self != Flavor::Host {
            cmd.args(["--target", WASM]);
        }
        match self {
            Flavor::Wide => wide(cmd, root),
            Flavor::Fma => fma(cmd, root),
            Flavor::Host | Flavor::Wasm => {}
        }
    }

    /// Where it runs, in a heading.
    pub fn describe(self) -> &'static str {
        match self {
            Flavor::Host => "the host",
            Flavor::Wasm => "wasm32-wasip1",
            Flavor::Wide => "wasm32-wasip1 with +wide-arithmetic",
            Flavor::Fma => "wasm32-wasip1 with relaxed SIMD and the FMA kernels",
        }
    }
}

/// Runs a cargo build with `--message-format=json` and returns the executable of
/// kind `kind`; cargo's progress goes to the terminal, the compiler's errors are
/// shown as rustc renders them.
pub fn build(mut cmd: Command, kind: &str, what: &str) -> Result<PathBuf, String> {
    let o = cmd
        .arg("--message-format=json")
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    let json = String::from_utf8_lossy(&o.stdout);
    eprint!("{}", rendered_errors(&json));
    executable(&json, kind)
        .filter(|p| o.status.success() && p.is_file())
        .ok_or(format!("building {what} failed"))
}

/// bench-report, built in release here (or `BENCH_REPORT_BIN`, when set: one
/// built already).
pub fn report_binary(root: &Path) -> Result<PathBuf, String> {
    if let Some(b) = super::var("BENCH_REPORT_BIN") {
        return Ok(b.into());
    }
    say("building bench-report");
    lab_programs(root, &["--bin", "bench-report"], None)?;
    Ok(root.join("target/release/bench-report"))
}

/// The cargo profile of every program the lab builds with `cargo build`: the
/// benchmark's (`cargo bench`). The release profile has the same settings in
/// Cargo.toml, but cargo keeps its artifacts apart by profile name: building the
/// count program or a probe in release would compile every dependency again, once
/// per target. Both profiles write to `target/[TRIPLE/]release/`.
pub const PROFILE: [&str; 2] = ["--profile", "bench"];

/// `cargo build -q --profile bench -p poseidon-benches TARGETS… [--target T]`: the
/// lab's programs by name (`--example NAME`, `--bin NAME`).
pub fn lab_programs(root: &Path, targets: &[&str], target: Option<&str>) -> Result<(), String> {
    let mut cmd = Command::new("cargo");
    cmd.args(["build", "-q", "-p", "poseidon-benches"])
        .args(PROFILE)
        .args(targets)
        .current_dir(root);
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    super::tools::run(&mut cmd, &format!("building {}", targets.join(" ")))
}

/// The workspace's benchmark (`cargo bench --no-run`), its executable.
pub fn bench_binary(root: &Path, flavor: Flavor) -> Result<PathBuf, String> {
    bench_binary_at(root, flavor, None)
}

/// [`bench_binary`] of the tree at `root` (its own scripts and configuration),
/// in `target_dir` instead of the flavor's directory under `root/target` when
/// given (`make ab` keeps each build's artifacts outside the side's tree).
pub fn bench_binary_at(
    root: &Path,
    flavor: Flavor,
    target_dir: Option<&Path>,
) -> Result<PathBuf, String> {
    let mut cmd = Command::new("cargo");
    cmd.args([
        "bench",
        "--no-run",
        "-p",
        "poseidon-benches",
        "--bench",
        "poseidon",
    ])
    .current_dir(root);
    flavor.apply(&mut cmd, root);
    if let Some(dir) = target_dir {
        // The flag outranks the flavor's CARGO_TARGET_DIR.
        cmd.arg("--target-dir").arg(dir);
    }
    build(
        cmd,
        "bench",
        &format!("the benchmark for {}", flavor.describe()),
    )
}

/// The workspace's count program (example `count`, [`PROFILE`]), its executable.
pub fn count_binary(root: &Path, flavor: Flavor) -> Result<PathBuf, String> {
    let mut cmd = Command::new("cargo");
    cmd.args(["build", "-p", "poseidon-benches", "--example", "count"])
        .args(PROFILE)
        .current_dir(root);
    flavor.apply(&mut cmd, root);
    build(
        cmd,
        "example",
        &format!("the count program for {}", flavor.describe()),
    )
}

/// The crates that build mina-poseidon and mina-curves from a proof-systems
/// checkout by path (the checkout is only read), under `target/upstream-lab/`
/// (`lab/`: our benchmark with backend upstream; `own/`: upstream's own
/// `poseidon_bench`).
pub fn upstream_lab(root: &Path, checkout: &Path) -> Result<PathBuf, String> {
    let dir = root.join("target/upstream-lab");
    super::upstream::write_lab(checkout, root, &dir)?;
    Ok(dir)
}

/// A checkout's commit, "-dirty" with uncommitted changes.
pub fn upstream_commit(checkout: &Path) -> String {
    super::tools::git_commit(checkout).unwrap_or_else(|| "unknown (not a git checkout)".into())
}

/// A generated crate's program (`lab` or `own`: the bench; `count`: the lab's
/// count program), built from `root` (this repository's cargo configuration);
/// a dependency the checkout needs that cannot be resolved stops the run with
/// what and how to fix it.
pub fn upstream_binary(
    root: &Path,
    lab: &Path,
    krate: &str,
    flavor: Flavor,
) -> Result<PathBuf, String> {
    let (dir, kind) = match krate {
        "count" => ("lab", "example"),
        d => (d, "bench"),
    };
    let mut cmd = Command::new("cargo");
    if kind == "bench" {
        cmd.args(["bench", "--no-run"]);
    } else {
        cmd.args(["build", "--example", "count"]).args(PROFILE);
    }
    let target_dir = if flavor == Flavor::Wide {
        lab.join("target-wide")
    } else {
        lab.join("target")
    };
    cmd.arg("--message-format=json")
        .arg("--manifest-path")
        .arg(lab.join(dir).join("Cargo.toml"))
        .current_dir(root);
    flavor.apply(&mut cmd, root);
    // After the flavor's settings: the lab's own target directory.
    cmd.arg("--target-dir").arg(&target_dir);
    let log = lab.join(format!("{krate}-build.log"));
    let o = cmd
        .stderr(io(&log, std::fs::File::create(&log))?)
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    let json = String::from_utf8_lossy(&o.stdout);
    let _ = std::fs::write(lab.join(format!("{krate}-build.json")), json.as_bytes());
    if let Some(exe) = executable(&json, kind).filter(|p| o.status.success() && p.is_file()) {
        return Ok(exe);
    }
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let cargo_errors: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.starts_with("error")
                || l.starts_with("warning: spurious")
                || l.starts_with("Caused by")
                || l.contains("failed to ")
        })
        .take(12)
        .collect();
    eprintln!("{}", cargo_errors.join("\n"));
    eprint!("{}", rendered_errors(&json));
    let has = |pats: &[&str]| pats.iter().any(|p| text.contains(p));
    let log = log.display();
    Err(
        if has(&[
            "failed to load source",
            "failed to get",
            "failed to fetch",
            "Unable to update",
            "could not fetch",
            "failed to clone",
            "git repository",
        ]) {
            format!("cargo could not resolve a dependency of the checkout (above; full log {log}). The lab builds mina-poseidon and mina-curves by path, and what they depend on must come from crates.io or be path dependencies: with a git dependency, give cargo network access to its host, or vendor it (cargo vendor) and point the checkout's Cargo.toml at the copy.")
        } else if has(&[
            "does not have that feature",
            "does not have the feature",
            "is not a feature",
            "feature not found",
        ]) {
            format!("the checkout lacks a feature the lab asks for (above; full log {log}): the lab is written against proof-systems 136c1df")
        } else {
            format!("building {krate} from the checkout for {} failed (above; full log {log}); the lab's adapter is written against proof-systems 136c1df (bench/benches/upstream/mod.rs)", flavor.describe())
        },
    )
}

/// Says what is built, then builds it.
pub fn announce<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    say(&format!("building {what}"));
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_executable_is_read_from_cargos_messages() {
        let json = "not json\n{\"reason\":\"compiler-artifact\",\"target\":{\"kind\":[\"lib\"]},\"executable\":null}\n{\"reason\":\"compiler-artifact\",\"target\":{\"kind\":[\"bench\"]},\"executable\":\"/t/poseidon-1\"}\n";
        assert_eq!(
            executable(json, "bench"),
            Some(PathBuf::from("/t/poseidon-1"))
        );
        assert_eq!(executable(json, "example"), None);
    }
}
