//! Test executables built once, run on several runtimes: `cargo test --no-run
//! --message-format=json` names them, and `cargo xtask run-tests` runs each the way
//! cargo would (from its package's directory, through a runner such as wasmtime
//! or Node), so that runs on different runtimes can go side by side without
//! waiting for cargo's build-directory lock.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One test executable: the package directory it runs in, and the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestBinary {
    /// The package's directory (cargo runs tests from there).
    pub dir: PathBuf,
    /// The executable (or Wasm module).
    pub executable: PathBuf,
}

/// The test executables in cargo's JSON messages (test-profile artifacts with an
/// executable, in build order, each once); other lines are skipped.
pub fn test_binaries(messages: &str) -> Vec<TestBinary> {
    let mut out: Vec<TestBinary> = Vec::new();
    for line in messages.lines().filter(|l| l.starts_with('{')) {
        let Ok(m) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if m["reason"] != "compiler-artifact" || m["profile"]["test"] != true {
            continue;
        }
        let (Some(exe), Some(manifest)) = (m["executable"].as_str(), m["manifest_path"].as_str())
        else {
            continue;
        };
        let b = TestBinary {
            dir: Path::new(manifest)
                .parent()
                .unwrap_or(Path::new("."))
                .to_owned(),
            executable: PathBuf::from(exe),
        };
        if !out.contains(&b) {
            out.push(b);
        }
    }
    out
}

/// Runs every test executable of `messages` through `runner` (its first word the
/// program, the executable appended), one after the other, output as it comes.
/// Ok(false) when one failed.
pub fn run_tests(messages: &str, runner: &[String]) -> Result<bool, String> {
    let (program, args) = runner.split_first().ok_or("no RUNNER given after --")?;
    let binaries = test_binaries(messages);
    if binaries.is_empty() {
        return Err("no test executables in the build messages".into());
    }
    let mut ok = true;
    for b in binaries {
        println!("     Running {}", b.executable.display());
        let status = Command::new(program)
            .args(args)
            .arg(&b.executable)
            .current_dir(&b.dir)
            .status()
            .map_err(|e| format!("{program}: {e}"))?;
        if !status.success() {
            println!("FAILED: {} ({status})", b.executable.display());
            ok = false;
        }
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_test_executables_once() {
        let messages = r#"not json: a build script's line
{"reason":"compiler-artifact","manifest_path":"/w/poseidon/Cargo.toml","profile":{"test":true},"executable":"/w/target/t/backends.wasm"}
{"reason":"compiler-artifact","manifest_path":"/w/poseidon/Cargo.toml","profile":{"test":false},"executable":"/w/target/t/poseidon.wasm"}
{"reason":"compiler-artifact","manifest_path":"/w/poseidon/Cargo.toml","profile":{"test":true},"executable":null}
{"reason":"build-finished","success":true}
{"reason":"compiler-artifact","manifest_path":"/w/bench/Cargo.toml","profile":{"test":true},"executable":"/w/target/t/poseidon-bench.wasm"}
{"reason":"compiler-artifact","manifest_path":"/w/poseidon/Cargo.toml","profile":{"test":true},"executable":"/w/target/t/backends.wasm"}
"#;
        let got = test_binaries(messages);
        assert_eq!(
            got,
            vec![
                TestBinary {
                    dir: "/w/poseidon".into(),
                    executable: "/w/target/t/backends.wasm".into()
                },
                TestBinary {
                    dir: "/w/bench".into(),
                    executable: "/w/target/t/poseidon-bench.wasm".into()
                },
            ]
        );
    }

    #[test]
    fn no_executables_is_an_error() {
        assert!(run_tests("{}", &["true".into()]).is_err());
        assert!(run_tests("", &[]).is_err());
    }
}
