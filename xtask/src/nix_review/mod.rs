//! `cargo xtask nix-review`: what the reviews of the flake found, checked offline,
//! so that a defect put back fails `make test`. Without nixpkgs (which cannot be
//! fetched here), flake.nix is evaluated for every system it declares with
//! stand-in inputs (`nix/offline/flake-eval.nix`); the GitHub workflow is read as
//! YAML; the Nix files are linted for what deadnix misses.
//!
//! - `flake`: every declared system evaluates (the pinned nixpkgs dropped
//!   x86_64-darwin), README names the same systems, nixpkgs is imported once per
//!   system, every derivation has its own name, inputs without a `rev` evaluate,
//!   clippy and each app depend on what they run only, the counts' check exists on
//!   x86_64-linux and the wheel's build imports it, each cargo check runs make
//!   test's arguments;
//! - `fileset`: the stand-ins' `lib.fileset` and crane `commonCargoSources`, which
//!   `nix-replay view` builds the derivations' source from, compute as the rules
//!   they re-implement;
//! - `lint`: no `let` binds by `inherit (…)` a name that nothing uses;
//! - `workflow`: the cache's permission and key, restored and saved apart (saved
//!   on failure too), every package built and every app run, the machine matrix
//!   and the job that merges its reports (restoring the store), no checkout that
//!   keeps credentials, ab.yml's `lab-ref` required.
//!
//! The `nix fmt` fallback without `PRJ_ROOT` runs in `cargo xtask nix-sandbox`.
//! Prints `ok`/`FAIL` lines and `N passed, M failed`.

pub mod fileset;
pub mod flake;
pub mod lint;
pub mod workflow;

use std::path::Path;

use crate::checklist::Checklist;

/// `cargo xtask nix-review --help`.
pub const USAGE: &str = "usage: cargo xtask nix-review
Checks offline what the reviews of the flake found (needs nix-instantiate and git):
flake.nix evaluated for every system with stand-in inputs, the Nix files linted,
the GitHub workflow read.";

/// The `.nix` files of the flake (flake.nix and nix/, with the offline stand-ins).
fn nix_files(root: &Path) -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "nix") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root.join("flake.nix")];
    walk(&root.join("nix"), &mut out);
    out.sort();
    out
}

/// `cargo xtask nix-review`.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    if !args.is_empty() {
        return Err(if args.iter().any(|a| a == "-h" || a == "--help") {
            String::new()
        } else {
            format!("unexpected arguments {args:?}")
        });
    }
    let mut r = Checklist::default();
    let with_revs = flake::evaluate(root, true)?;
    let without = flake::evaluate(root, false)?;
    flake::checks(&mut r, root, &with_revs, &without);
    fileset::checks(&mut r, root);

    for file in nix_files(root) {
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let unused = lint::unused_let_inherits(&text);
        let name = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        r.check(
            unused.is_empty(),
            &format!("{name}: every name a let binds with inherit (…) is used"),
            || {
                unused
                    .iter()
                    .map(|(n, l)| format!("{n} (line {l})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        );
    }

    let packages = flake::outputs_of(&with_revs.json, "packages");
    let apps = flake::outputs_of(&with_revs.json, "apps");
    workflow::checks(&mut r, root, &packages, &apps)?;
    Ok(r.finish())
}
