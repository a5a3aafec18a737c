//! The lab: the tasks that build the benchmark and the count program, run them on
//! every runtime and hand the results to `bench-report` (`cargo xtask bench`,
//! `counts`, `nodes`, `bench-structures`, `setup`), and what they share: the
//! tools, the builds, the runtimes.
//!
//! Every task here runs from a checkout, building what it runs, or, in the
//! flake's apps, on prebuilt programs that the environment names (`BENCH_*_BIN`,
//! `COUNT_*_BIN`): then nothing is built and results go under the working
//! directory.

pub mod bench;
pub mod build;
pub mod counts;
pub mod js;
pub mod nodes;
pub mod per_id;
pub mod runtime;
pub mod setup;
pub mod tools;
pub mod upstream;

use std::path::{Path, PathBuf};

/// The Wasm target the lab measures.
pub const WASM: &str = "wasm32-wasip1";

/// A task's arguments for the program it runs: everything after `--` as typed;
/// without `--`, all of them. `-h`/`--help` before `--` asks for the usage.
pub fn criterion_args(args: &[String]) -> Result<Vec<String>, String> {
    match args.iter().position(|a| a == "--") {
        Some(i) if args[..i].iter().any(|a| a == "-h" || a == "--help") => Err(String::new()),
        Some(i) if i > 0 => Err(format!(
            "unexpected {} before --: the program's arguments go after it",
            args[0]
        )),
        Some(i) => Ok(args[i + 1..].to_vec()),
        None if args.iter().any(|a| a == "-h" || a == "--help") => Err(String::new()),
        None => Ok(args.to_vec()),
    }
}

/// An environment variable, when set and not empty.
pub fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The project's scripts that run as processes of their own (the Node WASI shim,
/// the Wasm count runner): `scripts/` of the checkout, or `BENCH_SCRIPTS` (the
/// flake's copy in the store).
pub fn scripts(root: &Path) -> PathBuf {
    var("BENCH_SCRIPTS").map_or_else(|| root.join("scripts"), PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_after_the_separator_pass_as_typed() {
        let a = |s: &[&str]| s.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        let regex = "Poseidon/permutation/(u29|u64)$";
        assert_eq!(
            criterion_args(&a(&["--", regex, "--help"])),
            Ok(a(&[regex, "--help"]))
        );
        assert_eq!(criterion_args(&a(&["--quick"])), Ok(a(&["--quick"])));
        assert_eq!(criterion_args(&a(&["--help"])), Err(String::new()));
        assert_eq!(criterion_args(&a(&["-h", "--", "x"])), Err(String::new()));
        assert!(criterion_args(&a(&["x", "--", "y"])).is_err());
        assert_eq!(criterion_args(&[]), Ok(vec![]));
    }
}
