//! The source a derivation sees, replayed: the checkout's files that a git flake
//! holds (`git ls-files`), filtered by the flake's own file sets (evaluated from
//! nix/packages.nix with the stand-ins of nix/offline/standins.nix, whose
//! `lib.fileset` and crane `commonCargoSources` compute real sets), laid out as a
//! tree of hard links; and a command run with the checkout seen as that tree.
//!
//! The view is a private mount namespace (`unshare --mount`, or `unshare -r
//! --mount` when not root) in which the tree is bind-mounted over the checkout,
//! and the checkout's `target/` over the tree's: the paths are the checkout's (so
//! cargo's fingerprints, keyed by path and mtime, hold and nothing is rebuilt that
//! need not be), but a file the derivation's source leaves out is not there, as in
//! the Nix sandbox. A build that `include_str!`s such a file, or a test that reads
//! one at run time, fails here as it would in `nix flake check`.
//!
//! The environment is a build's: cleared, `HOME=/homeless-shelter`, `TMPDIR` a
//! fresh directory, `PATH` only stdenv's tools, the C and Rust toolchains and the
//! check's own inputs (wasmtime for the wasm checks); cargo's and rustup's homes
//! are kept, standing in for crane's vendored dependencies and the pinned
//! toolchain.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::ab::sides::git;
use crate::lab::tools::{io, which};
use crate::sandbox::COREUTILS;

/// Where the trees and the view's tools are made.
pub fn work(root: &Path) -> PathBuf {
    root.join("target/nix-replay")
}

/// The files a git flake's source holds: tracked ones, and untracked ones that are
/// not ignored (a file not yet `git add`ed is taken as added), each still present.
pub fn tracked(root: &Path) -> Result<Vec<String>, String> {
    let out = git(
        root,
        &[
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ],
    )
    .map_err(|e| format!("{e} (the replay needs a git checkout, as a flake's source is one)"))?;
    let mut files: Vec<String> = out
        .split('\0')
        .filter(|f| !f.is_empty() && root.join(f).is_file())
        .map(str::to_owned)
        .collect();
    files.sort();
    files.dedup();
    Ok(files)
}

/// nix/offline/eval.nix with the checkout's files: the checks' attributes and the
/// file sets of `sources` (`src`, `scripts`, `vectors`: `root` and `files`).
pub fn evaluate(root: &Path, files: &[String]) -> Result<Value, String> {
    let dir = work(root);
    io(&dir, fs::create_dir_all(&dir))?;
    let list = dir.join("tracked.json");
    io(
        &list,
        fs::write(&list, serde_json::to_string(files).unwrap_or_default()),
    )?;
    let expr = format!(
        "import {}/nix/offline/eval.nix {{ standins = {{}}; tracked = builtins.fromJSON (builtins.readFile {}); }}",
        root.display(),
        list.display()
    );
    crate::nix_eval::eval_json(&expr, &[]).map_err(|e| {
        format!("evaluating nix/offline/eval.nix with the checkout's files failed:\n{e}")
    })
}

/// A source's files (relative to its root) from an evaluation.
pub fn files_of(ev: &Value, source: &str) -> Result<Vec<String>, String> {
    ev["sources"][source]["files"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|f| f.as_str().map(str::to_owned))
                .collect()
        })
        .ok_or_else(|| format!("the evaluation has no sources.{source}.files"))
}

/// Lays out `files` of `from` under `dest` (emptied first) as hard links, which keep
/// the files' mtimes (a copy where a link cannot be made, its mtime set alike).
pub fn lay_out(from: &Path, files: &[String], dest: &Path) -> Result<(), String> {
    if dest.exists() {
        io(dest, fs::remove_dir_all(dest))?;
    }
    for f in files {
        let (src, dst) = (from.join(f), dest.join(f));
        io(&dst, fs::create_dir_all(dst.parent().unwrap_or(dest)))?;
        if fs::hard_link(&src, &dst).is_err() {
            io(&src, fs::copy(&src, &dst))?;
            let modified = io(&src, fs::metadata(&src).and_then(|m| m.modified()))?;
            let file = io(&dst, fs::File::options().write(true).open(&dst))?;
            io(&dst, file.set_modified(modified))?;
        }
    }
    Ok(())
}

/// Beside coreutils (the sandbox's list): the rest of stdenv's initial PATH, the C
/// toolchain that rustc links with, and the Rust toolchain's commands; the ones
/// this machine has are linked into the view's PATH.
const STDENV: &[&str] = &[
    "bash",
    "sh",
    "grep",
    "egrep",
    "sed",
    "awk",
    "gawk",
    "find",
    "xargs",
    "diff",
    "cmp",
    "tar",
    "gzip",
    "bzip2",
    "xz",
    "make",
    "patch",
    "file",
    "cc",
    "gcc",
    "c++",
    "g++",
    "cpp",
    "ld",
    "as",
    "ar",
    "ranlib",
    "nm",
    "strip",
    "objcopy",
    "objdump",
    "cargo",
    "rustc",
    "rustdoc",
    "cargo-clippy",
    "clippy-driver",
    "rustfmt",
    "cargo-fmt",
];

/// A directory of links to stdenv's tools and `extra` (as found on this PATH).
fn tools_dir(dir: &Path, extra: &[String]) -> Result<PathBuf, String> {
    if dir.exists() {
        io(dir, fs::remove_dir_all(dir))?;
    }
    io(dir, fs::create_dir_all(dir))?;
    let stdenv = COREUTILS.iter().chain(STDENV).copied();
    for t in stdenv.chain(extra.iter().map(String::as_str)) {
        if let Some(p) = which(t) {
            let _ = std::os::unix::fs::symlink(&p, dir.join(t));
        }
    }
    Ok(dir.to_owned())
}

/// How to enter a private mount namespace here: `unshare --mount` as root, else a
/// user namespace as well; None when neither works (e.g. not Linux).
pub fn unshare() -> Option<Vec<String>> {
    let u = which("unshare")?.display().to_string();
    let mount = which("mount")?.display().to_string();
    [
        vec![
            u.clone(),
            "--mount".into(),
            "--propagation".into(),
            "private".into(),
        ],
        vec![
            u,
            "-r".into(),
            "--mount".into(),
            "--propagation".into(),
            "private".into(),
        ],
    ]
    .into_iter()
    .find(|a| {
        Command::new(&a[0])
            .args(&a[1..])
            .args(["sh", "-c", &format!("{mount} -t tmpfs none /mnt")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// What runs in a view.
pub struct Run<'a> {
    /// The checkout.
    pub root: &'a Path,
    /// The tree that stands in its place.
    pub tree: &'a Path,
    /// Variables of the derivation (e.g. its cargo runner).
    pub env: Vec<(String, String)>,
    /// Inputs of the derivation beyond stdenv and the toolchains (e.g. wasmtime).
    pub inputs: Vec<String>,
    /// The command.
    pub command: &'a [String],
    /// Its standard output to this file (else inherited).
    pub stdout: Option<PathBuf>,
}

/// Runs `run.command` with the checkout seen as `run.tree`; Ok(false) when it failed.
pub fn run_in_view(run: &Run) -> Result<bool, String> {
    let ns = unshare().ok_or(
        "no private mount namespace here (unshare --mount, or with -r, failed): the view needs Linux",
    )?;
    let mount = which("mount").ok_or("mount not found")?;
    let bash = which("bash").ok_or("bash not found")?;
    let dir = work(run.root);
    let bin = tools_dir(&dir.join("bin"), &run.inputs)?;
    let tmp = dir.join("tmp");
    let _ = fs::remove_dir_all(&tmp);
    io(&tmp, fs::create_dir_all(&tmp))?;
    let target = run.root.join("target");
    io(&target, fs::create_dir_all(run.tree.join("target")))?;
    let home = std::env::var("HOME").unwrap_or_default();
    let cargo_home = std::env::var("CARGO_HOME").unwrap_or_else(|_| format!("{home}/.cargo"));
    let rustup_home = std::env::var("RUSTUP_HOME").unwrap_or_else(|_| format!("{home}/.rustup"));
    // In the namespace: target/ onto the tree's, the tree onto the checkout, then
    // the command from the checkout's path (now the tree).
    let script = format!(
        "{m} --bind \"$1/target\" \"$2/target\" && {m} --rbind \"$2\" \"$1\" && cd \"$1\" && shift 2 && exec \"$@\"",
        m = mount.display()
    );
    let mut cmd = Command::new(&ns[0]);
    cmd.args(&ns[1..])
        .arg(&bash)
        .args(["-c", &script, "view"])
        .arg(run.root)
        .arg(run.tree)
        .args(run.command)
        .env_clear()
        .env("PATH", &bin)
        .env("HOME", "/homeless-shelter")
        .env("TMPDIR", &tmp)
        .env("CARGO_HOME", cargo_home)
        .env("RUSTUP_HOME", rustup_home)
        .envs(run.env.iter().map(|(k, v)| (k, v)))
        .current_dir(run.root);
    if let Some(f) = &run.stdout {
        cmd.stdout(io(f, fs::File::create(f))?);
    }
    let status = cmd.status().map_err(|e| format!("{}: {e}", ns.join(" ")))?;
    Ok(status.success())
}
