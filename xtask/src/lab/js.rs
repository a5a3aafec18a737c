//! The JavaScript package as the lab uses it: a copy of `js/` (without its Rust
//! crate) under `target/js-package`, its npm dev dependencies installed
//! (binaryen's wasm-opt, which the build runs, and o1js among them) and built
//! (`dist/`), so that nothing is written into `js/`; and o1js's Merkle structures
//! and salted hashes against the package's (`cargo xtask bench-structures`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::tools::{io, run};

/// What of `js/` the copy holds, beside every `*.js`, `*.mjs` and `*.d.ts` at its top.
const COPIED: [&str; 7] = [
    "package.json",
    "package-lock.json",
    "README.md",
    "test",
    "bench",
    "check",
    "dev",
];

fn copy_tree(src: &Path, dst: &Path) -> Result<(), String> {
    if src.is_dir() {
        io(dst, std::fs::create_dir_all(dst))?;
        for e in io(src, std::fs::read_dir(src))? {
            let p = io(src, e)?.path();
            copy_tree(&p, &dst.join(p.file_name().expect("an entry has a name")))?;
        }
        Ok(())
    } else {
        io(src, std::fs::copy(src, dst)).map(|_| ())
    }
}

/// The copy, installed and built (`js/build.mjs --out`); its path.
pub fn package_copy(root: &Path) -> Result<PathBuf, String> {
    let dir = package_install(root)?;
    run(
        Command::new("node")
            .arg(root.join("js/build.mjs"))
            .arg("--out")
            .arg(&dir),
        "building the package's modules (js/build.mjs)",
    )?;
    Ok(dir)
}

/// binaryen's bin directory (wasm-opt, wasm-merge): `WASM_OPT`'s, as
/// `js/build.mjs` takes it, else the package copy's npm install (made here
/// when it has none).
pub fn binaryen(root: &Path) -> Result<PathBuf, String> {
    if let Some(opt) = std::env::var_os("WASM_OPT").filter(|o| !o.is_empty()) {
        let opt = PathBuf::from(opt);
        return Ok(opt.parent().map(Path::to_path_buf).unwrap_or_default());
    }
    let bin = root.join("target/js-package/node_modules/.bin");
    if !bin.join("wasm-merge").is_file() {
        package_install(root)?;
    }
    Ok(bin)
}

/// The copy, exact (what an earlier layout left is removed; its npm install is
/// kept), its dev dependencies installed; its path. npm ci rejects the lock file
/// for o1js's per-platform optional packages; the versions are pinned by
/// package.json (exact) and package-lock.json either way.
fn package_install(root: &Path) -> Result<PathBuf, String> {
    let (js, dir) = (root.join("js"), root.join("target/js-package"));
    io(&dir, std::fs::create_dir_all(&dir))?;
    for e in io(&dir, std::fs::read_dir(&dir))? {
        let p = io(&dir, e)?.path();
        if p.file_name().is_some_and(|n| n != "node_modules") {
            let r = if p.is_dir() {
                std::fs::remove_dir_all(&p)
            } else {
                std::fs::remove_file(&p)
            };
            io(&p, r)?;
        }
    }
    for e in io(&js, std::fs::read_dir(&js))? {
        let p = io(&js, e)?.path();
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let top_file = p.is_file()
            && (name.ends_with(".js") || name.ends_with(".mjs") || name.ends_with(".d.ts"));
        if top_file || COPIED.contains(&name.as_str()) {
            copy_tree(&p, &dir.join(&name))?;
        }
    }
    run(
        Command::new("npm")
            .args(["install", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .stdout(Stdio::inherit()),
        "npm install in target/js-package (needs npm and the registry for o1js)",
    )?;
    Ok(dir)
}

/// `cargo xtask bench-structures --help`.
pub const STRUCTURES_USAGE: &str =
    "usage: cargo xtask bench-structures [-- SCRIPT ARGS...]   (--scale S, --rounds N, --module M)
o1js's own Merkle trees, maps and salted hashes against the JavaScript package's
(js/bench/bench-structures.mjs), in one Node process: Node 24 (cargo xtask nodes), or
NODE=path. Writes target/bench-report/js-structures.json.";

/// `cargo xtask bench-structures [-- ARGS...]`.
pub fn structures(root: &Path, args: &[String]) -> Result<bool, String> {
    let args = super::criterion_args(args)?;
    let node = match std::env::var_os("NODE").filter(|n| !n.is_empty()) {
        Some(n) => PathBuf::from(n),
        None => {
            super::nodes::install(root, &[24])?;
            super::nodes::installed(root, 24)
        }
    };
    let dir = package_copy(root)?;
    run(
        Command::new(node)
            .arg(dir.join("bench/bench-structures.mjs"))
            .arg("--out")
            .arg(root.join("target/bench-report/js-structures.json"))
            .args(args),
        "bench-structures.mjs",
    )
    .map(|()| true)
}
