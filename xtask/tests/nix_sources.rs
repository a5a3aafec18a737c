//! Every file that the workspace's sources `include_str!` is in the flake's source
//! fileset (`src` in nix/packages.nix): crane's `commonCargoSources` holds only the
//! Rust and Cargo files, so a file left out breaks every Nix build, which this
//! machine cannot run. Host only: it reads the source tree.
#![cfg(not(target_os = "wasi"))]

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `.rs` files of the workspace's members (not target/, not node_modules/).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// `(file, its include_str!/include_bytes! paths, resolved from the repository root)`.
fn includes() -> Vec<(PathBuf, String)> {
    let root = root().canonicalize().unwrap();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for macro_name in ["include_str!(\"", "include_bytes!(\""] {
            for (at, _) in text.match_indices(macro_name) {
                let rest = &text[at + macro_name.len()..];
                let rel = &rest[..rest.find('"').unwrap()];
                let target = f.parent().unwrap().join(rel).canonicalize().unwrap();
                let from_root = target
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((f.clone(), from_root));
            }
        }
    }
    out
}

/// The fileset of `src` in nix/packages.nix: its explicit paths (from the root) and
/// the folders whose JSON files it takes.
fn fileset() -> (Vec<String>, Vec<String>) {
    let nix = std::fs::read_to_string(root().join("nix/packages.nix")).unwrap();
    let start = nix
        .find("src = lib.fileset.toSource")
        .expect("src's fileset");
    let body = &nix[start..start + nix[start..].find("};").unwrap()];
    let (mut paths, mut json_dirs) = (Vec::new(), Vec::new());
    for line in body.lines().map(str::trim) {
        if let Some(p) = line.strip_prefix("../") {
            paths.push(p.to_string());
        } else if line.contains("hasExt \"json\"") {
            let dir = line.rsplit("../").next().unwrap().trim_end_matches(')');
            json_dirs.push(dir.to_string());
        }
    }
    (paths, json_dirs)
}

#[test]
fn every_included_file_is_in_the_flake_source() {
    let (paths, json_dirs) = fileset();
    assert!(paths.iter().any(|p| p == "flake.lock"), "read {paths:?}");
    let found = includes();
    assert!(found.iter().any(|(_, p)| p == "README.md"), "{found:?}");
    for (file, target) in found {
        let cargo_source = target.ends_with(".rs") || target.ends_with(".toml");
        let json =
            target.ends_with(".json") && json_dirs.iter().any(|d| target.starts_with(d.as_str()));
        assert!(
            cargo_source || json || paths.contains(&target),
            "{} includes {target}, which nix/packages.nix's src fileset leaves out",
            file.display()
        );
    }
}
