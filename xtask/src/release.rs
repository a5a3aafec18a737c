//! `cargo xtask release-check`: what publishing would do, short of publishing:
//! `cargo publish --dry-run` of the library (packs it, builds the packed crate
//! against crates.io's dependencies) and `npm publish --dry-run` of the package
//! copy that `js/build.mjs` builds under target/. The release workflow
//! (`.github/workflows/release.yml`) runs it before publishing for real.

use std::path::Path;
use std::process::Command;

use crate::lab::js::package_copy;
use crate::lab::tools::{run, say};

/// The library's package name on crates.io (its import path is `poseidon`).
pub const CRATE: &str = "kimchi-poseidon";

/// `cargo xtask release-check --help`.
pub const USAGE: &str = "usage: cargo xtask release-check [--built]
  cargo publish --dry-run of the library (kimchi-poseidon) and npm publish --dry-run of
  the JavaScript package (kimchi-poseidon), built under target/js-package; needs the
  crates.io and npm registries, publishes nothing. Uncommitted changes are allowed
  (the publishing itself, on a tag, runs on a clean checkout). --built: the package
  copy as an earlier step left it (make test's), not built again.";

/// Ok(false) when a dry run failed.
pub fn task(root: &Path, args: &[String]) -> Result<bool, String> {
    let built = match args {
        [] => false,
        [a] if a == "--built" => true,
        _ => return Err(String::new()),
    };
    let mut passed = 0;
    let mut failed = 0;
    let mut count = |ok: Result<(), String>, what: &str| match ok {
        Ok(()) => {
            println!("ok    {what}");
            passed += 1;
        }
        Err(e) => {
            println!("FAIL  {what}: {e}");
            failed += 1;
        }
    };
    say(&format!("cargo publish --dry-run -p {CRATE}"));
    count(
        run(
            Command::new("cargo")
                .args([
                    "publish",
                    "--dry-run",
                    "--allow-dirty",
                    "--locked",
                    "-p",
                    CRATE,
                ])
                .current_dir(root),
            "cargo publish --dry-run",
        ),
        &format!("cargo publish --dry-run of the library ({CRATE})"),
    );
    say("the package copy, then npm publish --dry-run");
    let copy = if built {
        let dir = root.join("target/js-package");
        if dir.join("dist").is_dir() {
            Ok(dir)
        } else {
            Err(format!(
                "--built: no built package copy in {}",
                dir.display()
            ))
        }
    } else {
        package_copy(root)
    };
    count(
        copy.and_then(|dir| {
            run(
                Command::new("npm")
                    .args(["publish", "--dry-run"])
                    .current_dir(&dir),
                "npm publish --dry-run",
            )
        }),
        "npm publish --dry-run of the JavaScript package (kimchi-poseidon)",
    );
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}
