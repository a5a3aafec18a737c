//! Checks of the `poseidon` tool on one runtime, and the permutation vector files
//! the native tool writes for the others to re-check (`make test`).
//!
//! ```text
//! cargo xtask tool-checks [--check FILE]... -- TOOL...
//! cargo xtask permutation-files DIR -- TOOL...
//! ```
//! TOOL is the command that runs the tool: the native binary, `wasmtime run
//! --dir=. poseidon.wasm`, or `node --no-warnings scripts/node-wasi.mjs poseidon.wasm`.
//! `tool-checks` runs `check` on the files, then each case of [`cases`]: the tool
//! must exit with the case's status and say its text (stdout and stderr together).

use std::process::Command;

/// The committed kimchi and legacy vector files, relative to the workspace root.
pub const VECTOR_FILES: [&str; 2] = [
    "poseidon/tests/data/kimchi.json",
    "poseidon/tests/data/legacy.json",
];

/// One invocation and what it must give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The exit status the tool must return.
    pub status: i32,
    /// Text its output must contain.
    pub text: String,
    /// Arguments after TOOL.
    pub args: Vec<String>,
}

fn case(status: i32, text: &str, args: &[&str]) -> Case {
    Case {
        status,
        text: text.to_owned(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
    }
}

/// Bad input of every kind the tool rejects (with its exit status and message), and
/// the vector files through each of `backends` (what `poseidon backends` lists).
pub fn cases(backends: &[String]) -> Vec<Case> {
    // p itself (little-endian hex): one past the largest canonical element of Fp.
    let p = "01000000ed302d991bf94c09fc98462200000000000000000000000000000040";
    let x = "f2eee8d8f6e5fb182c610cae6c5393fce69dc4d900e7b4923b074e54ad00fb36";
    let mut all = vec![
        case(2, "not a canonical element of fp", &["hash", p]),
        case(2, "odd number of hex digits", &["hash", "abc"]),
        case(2, "invalid hex digit", &["hash", "--field", "fq", "zz"]),
        case(
            2,
            "unknown parameter set \"sha\"",
            &["hash", "--params", "sha"],
        ),
        case(2, "exactly 3 elements", &["permute", x]),
        case(2, "unknown command", &["frobnicate"]),
        case(1, "cannot read", &["check", "no-such-file.json"]),
        case(
            1,
            "malformed vector 1",
            &["check", "poseidon/tests/data/bad/non-canonical.json"],
        ),
        case(
            1,
            "1 of 2 vectors failed",
            &["check", "poseidon/tests/data/bad/wrong-output.json"],
        ),
        case(
            2,
            "unknown backend",
            &["check", "--backend", "fast", VECTOR_FILES[0]],
        ),
    ];
    for backend in backends {
        let mut args = vec!["check", "--backend", backend.as_str()];
        args.extend(VECTOR_FILES);
        all.push(case(0, "12 passed, 0 failed", &args));
    }
    all
}

/// Runs TOOL with `args`: exit status (−1 when killed) and stdout then stderr.
fn run<S: AsRef<std::ffi::OsStr>>(tool: &[String], args: &[S]) -> Result<(i32, String), String> {
    let (program, pre) = tool.split_first().ok_or("no TOOL command given")?;
    let out = Command::new(program)
        .args(pre)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    Ok((out.status.code().unwrap_or(-1), text))
}

/// One case: `Ok(first line of output)` when the status and text are as required,
/// else `Err` with what the tool did.
pub fn check_case(tool: &[String], case: &Case) -> Result<String, String> {
    let (status, out) = run(tool, &case.args)?;
    if status == case.status && out.contains(&case.text) {
        Ok(out.lines().next().unwrap_or("").to_owned())
    } else {
        Err(format!(
            "exit {status} (want {}), output lacks \"{}\":\n{out}",
            case.status, case.text
        ))
    }
}

/// `check FILES` and every case; prints a line per check and `N passed, M failed`.
/// Returns whether all passed.
pub fn tool_checks(tool: &[String], files: &[String]) -> Result<bool, String> {
    let (mut passed, mut failed) = (0, 0);
    if !files.is_empty() {
        let args: Vec<&str> = std::iter::once("check")
            .chain(files.iter().map(String::as_str))
            .collect();
        // Its own "N passed, M failed" line counts the vectors.
        let (status, out) = run(tool, &args)?;
        print!("{out}");
        if status != 0 {
            failed += 1;
            println!("FAIL  check of {} files: exit {status}", files.len());
        }
    }
    // The backends, as the tool names them (the library's list).
    let (status, out) = run(tool, &["backends"])?;
    let backends: Vec<String> = out.lines().map(str::to_owned).collect();
    if status == 0 && !backends.is_empty() {
        passed += 1;
        println!("ok    poseidon backends -> {}", backends.join(" "));
    } else {
        failed += 1;
        println!("FAIL  poseidon backends: exit {status}: {out}");
    }
    for c in cases(&backends) {
        let shown = format!("poseidon {}", c.args.join(" "));
        match check_case(tool, &c) {
            Ok(line) => {
                passed += 1;
                println!("ok    {shown} -> exit {}: {line}", c.status);
            }
            Err(why) => {
                failed += 1;
                println!("FAIL  {shown}: {why}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// Permutation vectors from TOOL for both fields, into `DIR/kimchi-permutation.json`
/// and `DIR/kimchi-fq-permutation.json`: the inputs are three hashes (kimchi of
/// nothing, legacy of nothing, kimchi of zero), the outputs TOOL's permutation.
pub fn permutation_files(tool: &[String], dir: &std::path::Path) -> Result<(), String> {
    let zero = "0".repeat(64);
    // TOOL's output words; an error when it fails.
    let ask = |args: &[&str]| -> Result<Vec<String>, String> {
        match run(tool, args)? {
            (0, out) => Ok(out.split_whitespace().map(str::to_owned).collect()),
            (status, out) => Err(format!("poseidon {}: exit {status}: {out}", args.join(" "))),
        }
    };
    for (field, name) in [
        ("fp", "kimchi-permutation"),
        ("fq", "kimchi-fq-permutation"),
    ] {
        let mut input = ask(&["hash", "--field", field])?;
        input.extend(ask(&["hash", "--field", field, "--params", "legacy"])?);
        input.extend(ask(&["hash", "--field", field, &zero])?);
        let mut args = vec!["permute", "--field", field];
        args.extend(input.iter().map(String::as_str));
        let output = ask(&args)?;
        if input.len() != 3 || output.len() != 3 {
            return Err(format!(
                "{name}: want 3 inputs and 3 outputs, got {input:?} and {output:?}"
            ));
        }
        let json = serde_json::json!({
            "name": name,
            "test_vectors": [{ "input": input, "output": output }],
        });
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, json.to_string() + "\n")
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!(
        "wrote {}/kimchi-permutation.json and kimchi-fq-permutation.json",
        dir.display()
    );
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    // A stand-in tool: prints its arguments, exits with the status given as the first.
    fn fake() -> Vec<String> {
        [
            "sh",
            "-c",
            "echo \"said: $*\"; echo oops >&2; exit \"$1\"",
            "sh",
        ]
        .map(str::to_owned)
        .to_vec()
    }

    #[test]
    fn a_case_needs_both_the_status_and_the_text() {
        let tool = fake();
        assert_eq!(
            check_case(&tool, &case(2, "said: 2 x", &["2", "x"])).as_deref(),
            Ok("said: 2 x")
        );
        assert!(
            check_case(&tool, &case(2, "oops", &["2"])).is_ok(),
            "stderr counts"
        );
        let wrong_status = check_case(&tool, &case(1, "said", &["2"])).unwrap_err();
        assert!(wrong_status.contains("exit 2 (want 1)"), "{wrong_status}");
        assert!(check_case(&tool, &case(0, "absent", &["0"])).is_err());
        assert!(check_case(&["no-such-program-here".to_owned()], &case(0, "", &[])).is_err());
    }

    #[test]
    fn every_backend_checks_both_vector_files() {
        let names = ["reference", "u29", "scratch"].map(String::from);
        let all = cases(&names);
        for backend in names {
            let c = all
                .iter()
                .find(|c| c.args.get(2).is_some_and(|b| *b == backend))
                .unwrap_or_else(|| panic!("no case for {backend}"));
            assert_eq!(c.status, 0);
            assert!(VECTOR_FILES.iter().all(|f| c.args.iter().any(|a| a == f)));
        }
    }
}
