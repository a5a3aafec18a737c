//! `make test`'s check that `make bench ARGS='…'` and `cargo xtask bench -- ARGS`
//! hand criterion its arguments exactly as typed: regexes with `( | $ \`, quoted
//! spaces, shell metacharacters, nothing at all; and that an unclosed quote in
//! ARGS is an error rather than a silently different argument list.
//!
//! ```text
//! cargo xtask make-args [--root DIR]
//! ```
//! With `BENCH_PRINT_ARGS=1`, `scripts/bench.sh` prints the arguments it would pass
//! to criterion, each in brackets, and stops.

use std::path::Path;
use std::process::Command;

/// ARGS as typed, and what criterion must get (as `BENCH_PRINT_ARGS=1` prints it).
const MAKE_CASES: [(&str, &str); 5] = [
    (
        "Poseidon/poseidon_hash_kimchi/(reference|upstream)$",
        "[Poseidon/poseidon_hash_kimchi/(reference|upstream)$]",
    ),
    ("--quick permutation", "[--quick][permutation]"),
    (
        "--measurement-time 10 'hash/u29 x'",
        "[--measurement-time][10][hash/u29 x]",
    ),
    (r#"a$b "c d" $(x) `y` \d+"#, r"[a$b][c d][$(x)][`y`][\d+]"),
    ("", ""),
];

/// Arguments given to `cargo xtask bench --` (argv, no splitting), and what
/// criterion must get.
const SCRIPT_CASE: ([&str; 2], &str) = (["--quick", "a|b c$"], "[--quick][a|b c$]");

/// Counts the verdicts and prints one line for each.
#[derive(Default)]
struct Tally {
    ok: usize,
    bad: usize,
}

impl Tally {
    fn verdict(&mut self, pass: bool, line: &str) {
        if pass {
            self.ok += 1;
            println!("ok    {line}");
        } else {
            self.bad += 1;
            println!("FAIL  {line}");
        }
    }
}

/// Runs `cmd`: whether it succeeded, its stdout without newlines, and stdout and
/// stderr together.
fn run_cmd(cmd: &mut Command, what: &str) -> Result<(bool, String, String), String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let both = format!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    Ok((out.status.success(), stdout.replace('\n', ""), both))
}

fn make_bench(root: &Path, args: &str) -> Command {
    let mut cmd = Command::new("make");
    cmd.args(["-s", "--no-print-directory", "bench"])
        .arg(format!("ARGS={args}"))
        .arg("BENCH_PRINT_ARGS=1")
        .current_dir(root);
    cmd
}

/// Every case; Ok(false) when one failed. Prints `N passed, M failed` last.
pub fn run(root: &Path) -> Result<bool, String> {
    let mut t = Tally::default();
    for (args, want) in MAKE_CASES {
        let (_, got, both) = run_cmd(&mut make_bench(root, args), "make")?;
        let pass = got == want;
        let tail = if pass {
            String::new()
        } else {
            format!(", want {want}\n{both}")
        };
        t.verdict(pass, &format!("make bench ARGS='{args}' -> {got}{tail}"));
    }

    let (args, want) = SCRIPT_CASE;
    let xtask = std::env::current_exe().map_err(|e| format!("this program: {e}"))?;
    let mut cmd = Command::new(xtask);
    cmd.arg("bench")
        .arg("--")
        .args(args)
        .env("BENCH_PRINT_ARGS", "1")
        .current_dir(root);
    let (_, got, _) = run_cmd(&mut cmd, "cargo xtask bench")?;
    t.verdict(got == want, &format!("cargo xtask bench -- args -> {got}"));

    let (success, _, both) = run_cmd(&mut make_bench(root, "it's"), "make")?;
    let first = both.lines().next().unwrap_or("");
    match (success, both.contains("unclosed")) {
        (true, _) => t.verdict(false, &format!("an unclosed quote was accepted: {both}")),
        (false, true) => t.verdict(true, &format!("an unclosed quote is an error: {first}")),
        (false, false) => t.verdict(false, &format!("an unclosed quote is not reported: {both}")),
    }

    println!("{} passed, {} failed", t.ok, t.bad);
    Ok(t.bad == 0)
}
