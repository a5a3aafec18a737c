//! The tasks behind make test's tool checks and the lab's upstream build: each
//! parses its arguments (an empty error asks for its usage) and returns whether
//! its checks passed.

/// The usage of `upstream-lab`.
pub const UPSTREAM_LAB_USAGE: &str = "usage: cargo xtask upstream-lab CHECKOUT ROOT OUT   (the crates that build mina-poseidon from a proof-systems CHECKOUT, written under OUT)";

/// `upstream-lab CHECKOUT ROOT OUT`.
pub fn upstream_lab(args: &[String]) -> Result<bool, String> {
    match args {
        [h] if h == "-h" || h == "--help" => Err(String::new()),
        [ps, root, out] => {
            crate::lab::upstream::write_lab(ps.as_ref(), root.as_ref(), out.as_ref()).map(|()| true)
        }
        _ => Err("CHECKOUT ROOT OUT expected".into()),
    }
}

/// The usage of `sandbox`.
pub const SANDBOX_USAGE: &str = "usage: cargo xtask nix-sandbox --root ROOT --work DIR --poseidon BIN --poseidon-wasm WASM --bench BIN --bench-wasm WASM --bench-wide WASM --fma-unmerged WASM --fma-kernel BIN --binaryen DIR --cargo-log JSON --bench-report BIN --xtask BIN --node22 NODE --node24 NODE [--bench-args ARGS] [--count BIN --count-wasm WASM --site-packages DIR]";

/// `nix-sandbox --root ROOT …`: Ok(false) when a check failed.
#[cfg(unix)]
pub fn nix_sandbox(args: &[String]) -> Result<bool, String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Err(String::new());
    }
    let mut opts = std::collections::BTreeMap::new();
    let mut it = args.iter();
    while let Some(k) = it.next() {
        let key = k
            .strip_prefix("--")
            .ok_or_else(|| format!("unexpected argument {k}"))?;
        let v = it.next().ok_or_else(|| format!("{k} needs a value"))?;
        opts.insert(key.to_owned(), v.clone());
    }
    let mut take = |k: &str| {
        opts.remove(k)
            .map(std::path::PathBuf::from)
            .ok_or_else(|| format!("--{k} is required"))
    };
    let inputs = crate::sandbox::Inputs {
        root: take("root")?,
        work: take("work")?,
        poseidon: take("poseidon")?,
        poseidon_wasm: take("poseidon-wasm")?,
        bench: take("bench")?,
        bench_wasm: take("bench-wasm")?,
        bench_wide: take("bench-wide")?,
        fma_unmerged: take("fma-unmerged")?,
        fma_kernel: take("fma-kernel")?,
        binaryen: take("binaryen")?,
        cargo_log: take("cargo-log")?,
        bench_report: take("bench-report")?,
        xtask: take("xtask")?,
        node22: take("node22")?,
        node24: take("node24")?,
        bench_args: opts
            .remove("bench-args")
            .unwrap_or_else(|| "--quick --noplot Poseidon/permutation/(u29|fma)$".into()),
        counts: None,
    };
    let counts = ["count", "count-wasm", "site-packages"]
        .map(|k| opts.remove(k).map(std::path::PathBuf::from));
    let mut inputs = inputs;
    match counts {
        [Some(native), Some(wasm), Some(site_packages)] => {
            inputs.counts = Some(crate::sandbox::CountInputs {
                native,
                wasm,
                site_packages,
            });
        }
        [None, None, None] => {}
        _ => return Err("--count, --count-wasm and --site-packages go together".into()),
    }
    if let Some(k) = opts.keys().next() {
        return Err(format!("unknown option --{k}"));
    }
    crate::sandbox::run(inputs)
}

/// `nix-sandbox`: needs a Unix host.
#[cfg(not(unix))]
pub fn nix_sandbox(_: &[String]) -> Result<bool, String> {
    Err("nix-sandbox runs the Nix sandbox's rules with Unix tools; it needs a Unix host".into())
}

/// The usage of `nix-replay`.
pub const NIX_REPLAY_USAGE: &str =
    "usage: cargo xtask nix-replay view [--check NAME] [--stdout FILE] -- COMMAND...
       cargo xtask nix-replay artifacts --bench-report BIN --report JSON [--counts JSON]
       cargo xtask nix-replay refs
view: COMMAND with the checkout seen as the flake's cargo source (nix/packages.nix's
  src: crane's commonCargoSources and the flake's own files, of the files git
  holds), in a build's environment; --check NAME adds that check's cargo runner and
  inputs (e.g. poseidon-test-wasm: wasmtime, its CARGO_TARGET_WASM32_WASIP1_RUNNER).
artifacts: ci.yml's report uploads and the merge job's download replayed, then its
  `bench-report merge` step run on them (BIN stands in for `nix run .#bench-report-tool`).
refs: ab.yml's revision step in a detached clone, for a branch, a tag and a commit.";

/// `nix-replay`: what Nix and GitHub will do, done with this machine's tools
/// (mount namespaces, symlinks): needs a Unix host.
#[cfg(unix)]
pub fn nix_replay(root: &std::path::Path, args: &[String]) -> Result<bool, String> {
    crate::replay::task(root, args)
}

/// `nix-replay`: needs a Unix host.
#[cfg(not(unix))]
pub fn nix_replay(_: &std::path::Path, _: &[String]) -> Result<bool, String> {
    Err("nix-replay runs commands in mount namespaces and git clones; it needs a Unix host".into())
}

/// The usage of `wasm-ops`.
pub const WASM_OPS_USAGE: &str = "usage: cargo xtask wasm-ops MODULE [--function SUBSTRING]... [--expect 'SUBSTRING: OP=N' | 'SUBSTRING: OP>N']...";

/// The usage of `tool-checks` and `permutation-files`.
pub const TOOL_USAGE: &str = "usage: cargo xtask tool-checks [--check FILE]... -- TOOL...\n       cargo xtask permutation-files DIR -- TOOL...\n(TOOL: the command that runs the poseidon tool, e.g. wasmtime run --dir=. poseidon.wasm)";

/// `tool-checks` and `permutation-files`: the words before `--` and TOOL after it.
fn tool_args(args: &[String]) -> Result<(&[String], &[String]), String> {
    let at = args.iter().position(|a| a == "--");
    match at {
        _ if args.iter().any(|a| a == "-h" || a == "--help") && at.is_none() => Err(String::new()),
        Some(at) if at + 1 < args.len() => Ok((&args[..at], &args[at + 1..])),
        _ => Err("TOOL is missing: give it after --".into()),
    }
}

/// `tool-checks`: Ok(false) when a check failed.
pub fn tool_checks(args: &[String]) -> Result<bool, String> {
    let (own, tool) = tool_args(args)?;
    let mut files = Vec::new();
    let mut it = own.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--check" => files.push(it.next().ok_or("--check needs a file")?.clone()),
            s => return Err(format!("unknown argument {s}")),
        }
    }
    crate::tool_checks::tool_checks(tool, &files)
}

/// `permutation-files DIR -- TOOL...`.
pub fn permutation_files(args: &[String]) -> Result<bool, String> {
    let (own, tool) = tool_args(args)?;
    let [dir] = own else {
        return Err("permutation-files takes one DIR".into());
    };
    crate::tool_checks::permutation_files(tool, std::path::Path::new(dir))?;
    Ok(true)
}

/// `wasm-ops`: the table, or the expectations' verdict (Ok(false): one failed).
pub fn wasm_ops(args: &[String]) -> Result<bool, String> {
    use crate::wasm_ops::{table, Expectation};
    let (mut module, mut functions, mut expect) = (None, Vec::new(), Vec::new());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--function" => functions.push(value()?.clone()),
            "--expect" => expect.push(Expectation::parse(value()?)?),
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ if module.is_none() => module = Some(arg.clone()),
            _ => return Err(format!("one module only, got a second: {arg}")),
        }
    }
    let module = module.ok_or("no MODULE given")?;
    if expect.is_empty() {
        let all = read_ops(&module)?;
        let shown: Vec<_> = all
            .iter()
            .filter(|f| functions.is_empty() || functions.iter().any(|s| f.name.contains(s)))
            .collect();
        print!("{}", table(&shown));
        return Ok(true);
    }
    check_ops(&module, &expect)
}

fn read_ops(module: &str) -> Result<Vec<crate::wasm_ops::FunctionOps>, String> {
    let bytes = std::fs::read(module).map_err(|e| format!("{module}: {e}"))?;
    crate::wasm_ops::function_ops(&bytes).map_err(|e| format!("{module}: {e}"))
}

/// Prints each expectation's verdict for `module`, then `N passed, M failed`.
fn check_ops(module: &str, expect: &[crate::wasm_ops::Expectation]) -> Result<bool, String> {
    let all = read_ops(module)?;
    let (mut passed, mut failed) = (0, 0);
    for e in expect {
        let failures = e.check(&all);
        let n = all.iter().filter(|f| e.matches(f)).count();
        if failures.is_empty() {
            passed += 1;
            println!("ok: {} ({n} functions): {}", e.function, e.condition());
        } else {
            failed += 1;
        }
        for f in failures {
            println!("FAILED: {f}");
        }
    }
    println!("{module}:\n{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// The usage of `hot-ops`.
pub const HOT_OPS_USAGE: &str = "usage: cargo xtask hot-ops KIND=MODULE...   (KIND: probe, bench, simd, fma, wide or upstream-wide;\n       each module must hold its kind's expectations, see wasm_ops::hot_expectations)";

/// `hot-ops KIND=MODULE...`: every module against its kind's expectations.
pub fn hot_ops(args: &[String]) -> Result<bool, String> {
    use crate::wasm_ops::{hot_expectations, Expectation};
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Err(String::new());
    }
    if args.is_empty() {
        return Err("no KIND=MODULE given".into());
    }
    let mut checks = Vec::new();
    for arg in args {
        let (kind, module) = arg
            .split_once('=')
            .ok_or(format!("{arg}: expected KIND=MODULE"))?;
        let expect = hot_expectations(kind).ok_or(format!("{arg}: unknown kind {kind}"))?;
        let expect: Vec<_> = expect
            .into_iter()
            .map(Expectation::parse)
            .collect::<Result<_, _>>()?;
        checks.push((module, expect));
    }
    let mut ok = true;
    for (module, expect) in checks {
        ok &= check_ops(module, &expect)?;
    }
    Ok(ok)
}

/// The usage of `run-tests`.
pub const RUN_TESTS_USAGE: &str = "usage: cargo xtask run-tests BUILD.json -- RUNNER...\n  Runs the test executables that `cargo test --no-run --message-format=json` built (its output in BUILD.json),\n  each from its package's directory as RUNNER... EXECUTABLE (e.g. scripts/wasm-runner.sh, or node --no-warnings scripts/node-wasi.mjs)";

/// `run-tests BUILD.json -- RUNNER...`: Ok(false) when a test executable failed.
pub fn run_tests(args: &[String]) -> Result<bool, String> {
    let at = args.iter().position(|a| a == "--");
    match (args.first(), at) {
        (Some(h), _) if h == "-h" || h == "--help" => Err(String::new()),
        (Some(log), Some(1)) => {
            let messages = std::fs::read_to_string(log).map_err(|e| format!("{log}: {e}"))?;
            crate::test_binaries::run_tests(&messages, &args[2..])
        }
        _ => Err("BUILD.json -- RUNNER... expected".into()),
    }
}

/// The usage of `params`.
pub const PARAMS_USAGE: &str = "usage: cargo xtask params [--check]   (writes poseidon/src/params/tables/SET_FIELD.rs from Mina's rule, by the\n       poseidon example gen_params; --check only compares and fails on a difference)";

/// `params [--check]`: the four constant tables, generated; Ok(false) when
/// `--check` finds a table that differs from what the rule gives.
pub fn params(root: &std::path::Path, args: &[String]) -> Result<bool, String> {
    let check = match args {
        [] => false,
        [c] if c == "--check" => true,
        [h] if h == "-h" || h == "--help" => return Err(String::new()),
        _ => return Err("only --check is accepted".into()),
    };
    let mut same = true;
    for set in ["kimchi", "legacy"] {
        for field in ["fp", "fq"] {
            let path = root.join(format!("poseidon/src/params/tables/{set}_{field}.rs"));
            let out = std::process::Command::new(std::env::var("CARGO").unwrap_or("cargo".into()))
                .current_dir(root)
                .args([
                    "run",
                    "-q",
                    "-p",
                    "kimchi-poseidon",
                    "--example",
                    "gen_params",
                    "--",
                    set,
                    field,
                ])
                .output()
                .map_err(|e| format!("cargo: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "gen_params {set} {field} failed:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            if check {
                let now = std::fs::read(&path).unwrap_or_default();
                let ok = now == out.stdout;
                println!("{} {rel}", if ok { "same     " } else { "DIFFERS  " });
                same &= ok;
            } else {
                std::fs::write(&path, &out.stdout).map_err(|e| format!("{rel}: {e}"))?;
                println!("wrote {rel}");
            }
        }
    }
    Ok(same)
}
