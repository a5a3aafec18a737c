//! The stand-ins' `lib.fileset` and crane `commonCargoSources`
//! (`nix/offline/standins.nix`), which `cargo xtask nix-replay view` trusts to
//! compute each derivation's source, checked on a made-up list of tracked files
//! against the rules they re-implement: nixpkgs' (a path is every file under it,
//! hidden ones too; `hasExt "rs"` is the suffix `.rs`; a set's files relative to
//! `toSource`'s root; a path holding no file is an error) and the pinned crane's
//! (`Cargo.toml`, `Cargo.lock`, `*.rs`, `*.toml`).

use std::path::Path;

use serde_json::Value;

use crate::checklist::Checklist;

/// The made-up checkout's files.
const TRACKED: &[&str] = &[
    ".cargo/config.toml",
    "Cargo.lock",
    "Cargo.toml",
    "README.md",
    "a/.rs",
    "a/b.rs",
    "a/rs",
    "a/x.rs.txt",
    "d/e/z.json",
    "d/x.json",
    "d/y.txt",
    "dd/w.json",
    "nix/p.nix",
];

/// What each expression must give (files, relative to the toSource root).
const CASES: &[(&str, &str, &[&str])] = &[
    (
        "crane's commonCargoSources: Cargo.toml, Cargo.lock, *.rs, *.toml, hidden ones too",
        "toSource { root = r; fileset = s.craneLib.fileset.commonCargoSources r; }",
        &[".cargo/config.toml", "Cargo.lock", "Cargo.toml", "a/.rs", "a/b.rs"],
    ),
    (
        "fileFilter hasExt \"json\" under d: not d's sibling dd",
        "toSource { root = r; fileset = f.fileFilter (x: x.hasExt \"json\") (r + \"/d\"); }",
        &["d/e/z.json", "d/x.json"],
    ),
    (
        "unions of a file and a directory, each once",
        "toSource { root = r; fileset = f.unions [ (r + \"/README.md\") (r + \"/d\") (r + \"/d/x.json\") ]; }",
        &["README.md", "d/e/z.json", "d/x.json", "d/y.txt"],
    ),
    (
        "toSource rooted below the checkout: paths relative to that root",
        "toSource { root = r + \"/d\"; fileset = r + \"/d\"; }",
        &["e/z.json", "x.json", "y.txt"],
    ),
];

fn eval(root: &Path, expr: &str) -> Result<Value, String> {
    let tracked = serde_json::to_string(TRACKED).unwrap_or_default();
    let full = format!(
        "let s = import {root}/nix/offline/standins.nix {{ standins = {{}}; tracked = builtins.fromJSON {tracked:?}; }}; \
         f = s.lib.fileset; toSource = a: (f.toSource a).files; r = {root}; in {expr}",
        root = root.display()
    );
    crate::nix_eval::eval_json(&full, &[])
}

/// The checks, into `r`.
pub fn checks(r: &mut Checklist, root: &Path) {
    for (what, expr, want) in CASES {
        let got = eval(root, expr);
        let want: Vec<Value> = want.iter().map(|w| Value::from(*w)).collect();
        r.check(
            got.as_ref().is_ok_and(|g| *g == Value::Array(want.clone())),
            &format!("stand-in lib.fileset: {what}"),
            || format!("{expr}: got {got:?}, want {want:?}"),
        );
    }
    let missing = eval(root, "toSource { root = r; fileset = r + \"/none\"; }");
    r.check(
        missing
            .as_ref()
            .is_err_and(|e| e.contains("does not exist")),
        "stand-in lib.fileset: a path that holds no file is an error, as in nixpkgs",
        || format!("{missing:?}"),
    );
}
